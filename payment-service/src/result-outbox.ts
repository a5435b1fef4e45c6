import { closeSync, fdatasyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { Logger } from './logger.js';

/** The log in the outbox's directory: one JSON line per event, `{"add":{key,result}}` or `{"done":key}`. */
const LOG = 'outbox.log';
/** Results the API server refused for good, kept for a person: one JSON line each (ParkedResult), never rewritten. */
export const PARKED_LOG = 'parked.log';
/** Rewritten with only the undelivered results once this much was appended since the last rewrite. */
const COMPACT_AFTER_BYTES = 1024 * 1024;
/** Keys of delivered results remembered, so a callback Daraja sends twice is delivered once. */
const REMEMBERED = 10_000;
/** Deliveries in flight at once: a burst goes out together without swamping the API server's connection pool. */
const DELIVERIES_AT_ONCE = 8;

/** What every result the outbox carries names: our attempt, where it came from, and M-Pesa's verdict. */
export interface AttemptResult {
  originatorConversationId: string;
  source: string;
  resultCode: string;
  transactionId?: string | undefined;
}

/** One result of an attempt: the same callback twice has the same key. */
export const resultKey = (result: AttemptResult) => [result.originatorConversationId, result.source, result.resultCode, result.transactionId ?? ''].join('|');

/** How log lines name an attempt's result. */
const describeAttemptResult = (result: AttemptResult) =>
  `${result.originatorConversationId} (${result.source} ${result.resultCode}${result.transactionId ? ` ${result.transactionId}` : ''})`;

/**
 * How an outbox keys and names what it carries when it is not an attempt's result (Paybill confirmations, keyed by
 * M-Pesa's TransID): the same message twice has the same key and is delivered once.
 */
export interface OutboxIdentity<Result> {
  key: (result: Result) => string;
  describe: (result: Result) => string;
}

/** A result the API server refused for good (a 4xx it will answer again), kept in PARKED_LOG and not delivered again. */
export interface ParkedResult<Result = AttemptResult> {
  key: string;
  result: Result;
  /** The API server's answer: its HTTP status and message. */
  status: number | undefined;
  reason: string;
  at: string;
}

/** The parked results under an outbox's `dir` (the audit script lists them), by key; a line cut short is skipped. */
export function readParkedResults<Result>(dir: string, schema: z.ZodType<Result, unknown>): ParkedResult<Result>[] {
  const parked = new Map<string, ParkedResult<Result>>();
  let text: string;
  try {
    text = readFileSync(path.join(dir, PARKED_LOG), 'utf8');
  } catch {
    return [];
  }
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const record = JSON.parse(line) as ParkedResult<Result>;
      if (typeof record.key === 'string' && schema.safeParse(record.result).success) parked.set(record.key, record);
    } catch {
      // a line cut short by a kill mid-write: its result is still in the outbox log, and is parked again
    }
  }
  return [...parked.values()];
}

interface Queued<Result> {
  key: string;
  result: Result;
  failures: number;
  dueAt: number;
}

function load<Result>(file: string, schema: z.ZodType<Result, unknown>): Map<string, Queued<Result>> {
  const queued = new Map<string, Queued<Result>>();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return queued;
  }
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const record = JSON.parse(line) as { add?: { key?: unknown; result?: unknown }; done?: unknown };
      const result = schema.safeParse(record.add?.result);
      if (typeof record.add?.key === 'string' && result.success) queued.set(record.add.key, { key: record.add.key, result: result.data, failures: 0, dueAt: 0 });
      else if (typeof record.done === 'string') queued.delete(record.done);
    } catch {
      // a line cut short by a kill mid-write: nothing after it was written either
    }
  }
  return queued;
}

/**
 * Results of Daraja requests on their way to the API server, one outbox per kind under its own `dir`: organiser
 * payouts ($DATA_DIR/payout-outbox, POST /api/internal/payouts/results) and refunds ($DATA_DIR/refund-outbox, POST
 * /api/internal/refunds/result); `what` names the kind in log lines. A result is appended to the log and flushed to disk before Daraja's callback is
 * answered, and marked done only once the API server acknowledged it (2xx), so a kill -9 of either process loses
 * nothing: whatever is left is delivered again on start. Each result is one call, retried with a doubling wait
 * (`retryMs` up to `maxRetryMs`) until acknowledged; the API server records a result once, so a redelivery after a
 * lost acknowledgement is harmless. An answer the API server would give again (`refusedForGood`: a 4xx such as 409
 * for a success of another amount) is not retried: the result is parked — appended to PARKED_LOG (flushed) before it
 * leaves the log, logged at error, counted (`onParked`) — for a person to compare with M-Pesa (the API server marks
 * the payout needs_attention, the refund attempt stays sent; `npm run audit:payments` lists parked results). This
 * process is the logs' only writer (one per DATA_DIR).
 */
export function createResultOutbox<Result>(deps: {
  /** `payout`, `refund` or `paybill`: log lines say which results these are. */
  what: string;
  /** Needed when a result is not an attempt's (AttemptResult's key and description otherwise). */
  identity?: OutboxIdentity<Result>;
  dir: string;
  /** Reads a result back from the logs (a line that does not parse is skipped). */
  schema: z.ZodType<Result, unknown>;
  deliver: (result: Result) => Promise<unknown>;
  logger: Logger;
  retryMs: number;
  maxRetryMs?: number;
  onDelivered?: (result: Result) => void;
  /** Whether a delivery's error is the API server refusing the result for good (not worth sending again). */
  refusedForGood?: (error: unknown) => boolean;
  onParked?: (parked: ParkedResult<Result>) => void;
}) {
  const { logger, what, schema } = deps;
  const identity = deps.identity ?? ({ key: resultKey, describe: describeAttemptResult } as unknown as OutboxIdentity<Result>);
  const maxRetryMs = deps.maxRetryMs ?? 5 * 60 * 1000;
  mkdirSync(deps.dir, { recursive: true });
  const file = path.join(deps.dir, LOG);
  const queued = load(file, schema);
  const parked = new Map(readParkedResults(deps.dir, schema).map((entry) => [entry.key, entry]));
  // Parked before a kill that came before its `done` line: parked already, not delivered again.
  for (const key of parked.keys()) queued.delete(key);
  if (parked.size > 0) logger.error(`${what} outbox: ${parked.size} result(s) the API server refused are parked in ${path.join(deps.dir, PARKED_LOG)}: compare them with M-Pesa`);
  const delivered = new Set<string>();
  let fd = -1;
  let appended = 0;
  let timer: NodeJS.Timeout | undefined;
  /** Deliveries waiting on the API server's answer, by key. */
  const inFlight = new Map<string, Promise<void>>();
  let started = false;
  let stopped = false;

  /** Writes the undelivered results to a new file and renames it over the log: a kill at any point leaves one whole log. */
  function rewrite() {
    if (fd >= 0) closeSync(fd);
    writeFileSync(`${file}.tmp`, [...queued.values()].map(({ key, result }) => `${JSON.stringify({ add: { key, result } })}\n`).join(''), { flush: true });
    renameSync(`${file}.tmp`, file);
    fd = openSync(file, 'a');
    appended = 0;
  }
  rewrite();

  function append(record: object) {
    const line = `${JSON.stringify(record)}\n`;
    const written = writeSync(fd, line);
    if (written !== Buffer.byteLength(line)) {
      // A line cut short (disk full) would spoil the next one.
      rewrite();
      throw new Error(`${what} outbox: write cut short`);
    }
    fdatasyncSync(fd);
    appended += written;
  }

  function done(entry: Queued<Result>) {
    delivered.add(entry.key);
    if (delivered.size > REMEMBERED) delivered.delete(delivered.values().next().value!);
    leave(entry);
  }

  /** Out of the log: delivered, or parked. */
  function leave(entry: Queued<Result>) {
    queued.delete(entry.key);
    if (queued.size === 0) {
      // Nothing left: start the log again from empty (O_APPEND writes go to the new end).
      ftruncateSync(fd, 0);
      appended = 0;
    } else {
      append({ done: entry.key });
      if (appended > COMPACT_AFTER_BYTES) rewrite();
    }
  }

  /** Kept in the parked log (flushed) before it leaves the outbox log: a kill in between parks it again on start. */
  function park(entry: Queued<Result>, error: unknown) {
    const status = typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : undefined;
    const record: ParkedResult<Result> = { key: entry.key, result: entry.result, status, reason: error instanceof Error ? error.message : String(error), at: new Date().toISOString() };
    const parkedFd = openSync(path.join(deps.dir, PARKED_LOG), 'a');
    try {
      writeSync(parkedFd, `${JSON.stringify(record)}\n`);
      fdatasyncSync(parkedFd);
    } finally {
      closeSync(parkedFd);
    }
    parked.set(entry.key, record);
    leave(entry);
    logger.error(
      `${what} result for ${identity.describe(entry.result)} refused by the API server for good (${status ?? '?'}: ${record.reason}); parked, not delivered again`,
    );
    deps.onParked?.(record);
  }

  async function deliverOne(entry: Queued<Result>) {
    try {
      await deps.deliver(entry.result);
    } catch (error) {
      if (deps.refusedForGood?.(error)) {
        park(entry, error);
        return;
      }
      entry.failures += 1;
      entry.dueAt = Date.now() + Math.min(deps.retryMs * 2 ** Math.min(entry.failures - 1, 20), maxRetryMs);
      // The first failure and every tenth: a long outage does not flood the log.
      if (entry.failures % 10 === 1) logger.error(`${what} result for ${identity.describe(entry.result)} not delivered to the API server (try ${entry.failures}); retrying`, error);
      return;
    }
    done(entry);
    deps.onDelivered?.(entry.result);
  }

  /**
   * Starts deliveries of due results, up to DELIVERIES_AT_ONCE in flight (each ends by calling this again), and sets
   * the timer for the next retry. One at a time, a burst of Paybill confirmations waited on each round trip in turn
   * (13 payments/s in `MODE=c2b bench/checkout.mjs`); the API server settles each result in its own transaction, so
   * results need no order among them.
   */
  function kick() {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!started || stopped) return;
    const now = Date.now();
    let nextDue = Infinity;
    for (const entry of queued.values()) {
      if (inFlight.has(entry.key)) continue;
      if (entry.dueAt > now) {
        nextDue = Math.min(nextDue, entry.dueAt);
        continue;
      }
      if (inFlight.size >= DELIVERIES_AT_ONCE) return;
      const delivery = deliverOne(entry)
        .catch((error: unknown) => logger.error(`${what} outbox: delivering ${identity.describe(entry.result)} failed`, error))
        .finally(() => {
          inFlight.delete(entry.key);
          kick();
        });
      inFlight.set(entry.key, delivery);
    }
    if (nextDue !== Infinity) timer = setTimeout(kick, Math.max(0, nextDue - now));
  }

  return {
    /**
     * Journals a result (flushed to disk before this returns) and delivers it soon. False when the same result is
     * already on its way or was delivered (a callback sent twice).
     */
    add(result: Result): boolean {
      const key = identity.key(result);
      if (queued.has(key) || delivered.has(key) || parked.has(key)) return false;
      append({ add: { key, result } });
      queued.set(key, { key, result, failures: 0, dueAt: 0 });
      kick();
      return true;
    },
    /** Results not acknowledged yet (tests, tools). */
    pending: () => [...queued.values()].map((entry) => entry.result),
    /** Results the API server refused for good, kept for a person (metrics, tests). */
    parked: () => [...parked.values()],
    /** Delivers what the log holds (left by a previous run) and everything added from now on. */
    start() {
      started = true;
      kick();
    },
    /** No new delivery starts; the one in progress finishes. */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await Promise.all(inFlight.values());
    },
    close() {
      if (fd >= 0) closeSync(fd);
      fd = -1;
    },
  };
}

export type ResultOutbox<Result> = ReturnType<typeof createResultOutbox<Result>>;
