import { format } from 'node:util';
import { vi } from 'vitest';

/** One JSON log line as pino writes it (lib/logger.ts). */
export interface LogLine {
  level: string;
  name: string;
  msg: string;
  requestId?: string;
  [field: string]: unknown;
}

/**
 * Captures what this process prints while it runs: the loggers' JSON lines (straight to stdout and
 * stderr) and anything said through console. Nothing reaches the terminal until `restore()`.
 */
export function captureLogs() {
  const chunks: string[] = [];
  const keep = (chunk: unknown) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk));
    return true;
  };
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation(keep as typeof process.stdout.write),
    vi.spyOn(process.stderr, 'write').mockImplementation(keep as typeof process.stderr.write),
    ...(['log', 'error', 'warn', 'info', 'debug'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void chunks.push(`${format(...args)}\n`)),
    ),
  ];
  return {
    /** Everything printed so far, as printed. */
    text: () => chunks.join(''),
    /** The JSON log lines printed so far (console text and other output left out). */
    lines(): LogLine[] {
      return chunks
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as LogLine];
          } catch {
            return [];
          }
        });
    },
    restore() {
      for (const spy of spies) spy.mockRestore();
    },
  };
}
