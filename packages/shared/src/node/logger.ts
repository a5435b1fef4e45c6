import { pino } from 'pino';
import { currentRequestId } from './request-context.js';

export type LogLevel = 'silent' | 'error' | 'info';

/**
 * Fields never written, wherever a logged object has them (up to three levels deep): credentials,
 * the internal and proxy keys, and M-Pesa phone numbers. docs/decisions/logging.md.
 */
const SECRET_FIELDS = [
  'password',
  'newPassword',
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
  'email',
  'guestEmail',
];
export const REDACTED_PATHS = SECRET_FIELDS.flatMap((field) => [`["${field}"]`, `*["${field}"]`, `*.*["${field}"]`]);

/** Secrets that can hide inside free text (an error message, a driver's or Daraja's reason): masked in every message. */
const SECRET_TEXT: Array<[RegExp, string | ((match: string, ...groups: string[]) => string)]> = [
  [/\beyJ[\w-]+\.[\w-]+\.[\w-]+/g, '[jwt]'],
  [/\b(Bearer)\s+[\w.~+/=-]+/gi, '$1 [redacted]'],
  // Kenyan mobile numbers as Daraja and buyers write them: 2547…, +2541…, 07…. The prefix and the last three
  // digits stay (2547XXXXX678), enough to tell two buyers apart in an incident, not enough to call anyone.
  [/(?<![\w+])(\+?254[17]|0[17])(\d{5})(\d{3})(?!\w)/g, (_match, prefix: string, _middle: string, last: string) => `${prefix}XXXXX${last}`],
  // Email addresses (guest checkout, sign-up, mail errors): the first letter and the domain stay (j***@example.com).
  [/\b([A-Za-z0-9])[A-Za-z0-9._%+-]*@([A-Za-z0-9.-]+\.[A-Za-z]{2,})\b/g, '$1***@$2'],
];

/** Free text with tokens masked, and phone numbers and emails reduced to a recognisable mask (docs/decisions/logging.md). */
export function scrubText(text: string): string {
  return SECRET_TEXT.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement as string), text);
}

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

function describeError(error: unknown) {
  if (!(error instanceof Error)) return { message: scrubText(String(error)) };
  // The driver's own error (code and reason) is what tells an outage from a bug.
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  return {
    type: error.name,
    message: scrubText(withoutParams(error.message)),
    stack: scrubText(withoutParams(error.stack ?? '')),
    ...(cause && typeof cause.message === 'string' ? { cause: `${typeof cause.code === 'string' ? `${cause.code} ` : ''}${scrubText(cause.message)}` } : {}),
  };
}

/**
 * The services' logger: pino underneath (JSON lines named after `service`: info and below on stdout, errors
 * on stderr; scripts/start.mjs shows them as `[service] message` in a terminal), behind the small interface
 * the code calls: `info(message)`, `error(message, error?)`. Each line carries the current request's id;
 * `pino` is for the request logger (request-context.ts). Never request bodies, tokens or keys.
 */
export function createLogger(options: { service: string; level: LogLevel }) {
  const streams = pino.multistream(
    [
      { level: 'info', stream: process.stdout },
      { level: 'error', stream: process.stderr },
    ],
    { dedupe: true },
  );
  const shared = {
    name: options.service,
    level: options.level,
    // Instead of pino's own: message and stack with secrets masked, never the properties an error carries.
    serializers: { err: describeError },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  const base = pino({ ...shared, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, streams);
  // The one line per request (request-context.ts) holds only fields it builds itself — method, route pattern,
  // status, time, request id — so the redaction scan, ~50 µs a line with these wildcard paths (about a quarter
  // of a cached event page's cost), finds nothing there and is left out of that logger.
  const requests = pino(shared, streams);
  const fields = (error?: unknown) => {
    const requestId = currentRequestId();
    return { ...(requestId ? { requestId } : {}), ...(error !== undefined && error !== null && error !== '' ? { err: error } : {}) };
  };
  return {
    pino: base,
    /** For the per-request lines only (request-context.ts): the same output, without the redaction scan. */
    requestPino: requests,
    info(message: string) {
      base.info(fields(), scrubText(message));
    },
    error(message: string, error?: unknown) {
      base.error(fields(error), scrubText(message));
    },
  };
}

export type Logger = ReturnType<typeof createLogger>;
