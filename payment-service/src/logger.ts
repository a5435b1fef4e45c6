import { pino } from 'pino';
import { currentRequestId } from './request-context.js';

type Level = 'silent' | 'error' | 'info';

/**
 * The API server's logger (server/src/lib/logger.ts) for this service: pino, JSON lines (errors on
 * stderr), the same redaction. Each line carries the current request's id. Never request bodies,
 * tokens or keys (except the simulator key, printed at start for the developer).
 */

/** Fields never written, wherever a logged object has them (up to three levels deep). */
const SECRET_FIELDS = [
  'password',
  'Password',
  'token',
  'accessToken',
  'access_token',
  'authorization',
  'cookie',
  'set-cookie',
  'x-internal-key',
  'x-tukio-proxy-key',
  'x-simulator-key',
  'SecurityCredential',
  'phone',
  'PhoneNumber',
  'PartyA',
  'PartyB',
  'msisdn',
];
const REDACTED_PATHS = SECRET_FIELDS.flatMap((field) => [`["${field}"]`, `*["${field}"]`, `*.*["${field}"]`]);

/** Secrets that can hide inside free text (Daraja's or the API server's error messages): masked in every message. */
const SECRET_TEXT: Array<[RegExp, string]> = [
  [/\beyJ[\w-]+\.[\w-]+\.[\w-]+/g, '[jwt]'],
  [/\b(Bearer)\s+[\w.~+/=-]+/gi, '$1 [redacted]'],
  // Kenyan mobile numbers as Daraja and buyers write them: 2547…, +2541…, 07….
  [/(?<![\w+])(?:\+?254|0)[17]\d{8}(?!\w)/g, '[phone]'],
];

function scrubText(text: string): string {
  return SECRET_TEXT.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

function describeError(error: unknown) {
  if (!(error instanceof Error)) return { message: scrubText(String(error)) };
  return { type: error.name, message: scrubText(error.message), stack: scrubText(error.stack ?? '') };
}

/** `info(message)`, `error(message, error?)` over pino; `pino` is for the request logger (request-context.ts). */
export function createLogger(level: Level, name = 'payments') {
  const streams = pino.multistream(
    [
      { level: 'info', stream: process.stdout },
      { level: 'error', stream: process.stderr },
    ],
    { dedupe: true },
  );
  const base = pino(
    {
      name,
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      // Instead of pino's own: message and stack with secrets masked, never the properties an error carries.
      serializers: { err: describeError },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    streams,
  );
  const fields = (error?: unknown) => {
    const requestId = currentRequestId();
    return { ...(requestId ? { requestId } : {}), ...(error !== undefined && error !== null && error !== '' ? { err: error } : {}) };
  };
  return {
    pino: base,
    info(message: string) {
      base.info(fields(), scrubText(message));
    },
    error(message: string, error?: unknown) {
      base.error(fields(error), scrubText(message));
    },
  };
}

export type Logger = ReturnType<typeof createLogger>;
