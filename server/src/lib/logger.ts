type Level = 'silent' | 'error' | 'info';

const order: Record<Level, number> = { silent: 0, error: 1, info: 2 };

/** A deliberately small logger: one line per message, never request bodies or secrets. */
export function createLogger(level: Level) {
  const enabled = (wanted: Level) => order[level] >= order[wanted];
  return {
    info(message: string) {
      if (enabled('info')) console.log(`[tukio] ${message}`);
    },
    error(message: string, error?: unknown) {
      if (!enabled('error')) return;
      const detail = error instanceof Error ? (error.stack ?? error.message) : error ? String(error) : '';
      console.error(`[tukio] ${message}${detail ? `\n${detail}` : ''}`);
    },
  };
}

export type Logger = ReturnType<typeof createLogger>;
