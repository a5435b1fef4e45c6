type Level = 'silent' | 'error' | 'info';

const order: Record<Level, number> = { silent: 0, error: 1, info: 2 };

/**
 * Drizzle puts a failed query's parameters in its message (`params: …`, up to the stack frames):
 * emails, password and token hashes, text people typed. They are never logged.
 */
function withoutParams(detail: string): string {
  const lines = detail.split('\n');
  const start = lines.findIndex((line) => line.startsWith('params: '));
  if (start < 0) return detail;
  let end = start + 1;
  while (end < lines.length && !/^\s+at /.test(lines[end]!)) end += 1;
  return [...lines.slice(0, start), 'params: [not logged]', ...lines.slice(end)].join('\n');
}

/** A deliberately small logger: one line per message, never request bodies or secrets. */
export function createLogger(level: Level) {
  const enabled = (wanted: Level) => order[level] >= order[wanted];
  return {
    info(message: string) {
      if (enabled('info')) console.log(`[tukio] ${message}`);
    },
    error(message: string, error?: unknown) {
      if (!enabled('error')) return;
      let detail = withoutParams(error instanceof Error ? (error.stack ?? error.message) : error ? String(error) : '');
      // The driver's own error (code and reason) is what tells an outage from a bug.
      const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
      if (cause && typeof cause.message === 'string') detail += `\ncause: ${typeof cause.code === 'string' ? `${cause.code} ` : ''}${cause.message}`;
      console.error(`[tukio] ${message}${detail ? `\n${detail}` : ''}`);
    },
  };
}

export type Logger = ReturnType<typeof createLogger>;
