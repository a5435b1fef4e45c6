type Level = 'silent' | 'error' | 'info';

const order: Record<Level, number> = { silent: 0, error: 1, info: 2 };

/** One line per message; never request bodies, tokens or keys (except the simulator key, printed at start for the developer). */
export function createLogger(level: Level, name = 'payments') {
  const enabled = (wanted: Level) => order[level] >= order[wanted];
  return {
    info(message: string) {
      if (enabled('info')) console.log(`[${name}] ${message}`);
    },
    error(message: string, error?: unknown) {
      if (!enabled('error')) return;
      const detail = error instanceof Error ? error.message : error ? String(error) : '';
      console.error(`[${name}] ${message}${detail ? `: ${detail}` : ''}`);
    },
  };
}

export type Logger = ReturnType<typeof createLogger>;
