import { createHash } from 'node:crypto';
import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';

export interface UnrecordedPush {
  orderId: string;
  checkoutRequestId: string;
  merchantRequestId: string;
  /** Epoch ms when Daraja accepted the push. */
  sentAt: number;
}

/** The journal file in the journal's directory: one JSON line per event, `{"add":entry}` or `{"done":checkoutRequestId}`. */
const LOG = 'journal.log';
/** The log is rewritten with only the live entries once this much was appended since the last rewrite. */
const COMPACT_AFTER_BYTES = 4 * 1024 * 1024;

const isEntry = (value: unknown): value is UnrecordedPush =>
  typeof value === 'object' && value !== null && typeof (value as UnrecordedPush).checkoutRequestId === 'string' && typeof (value as UnrecordedPush).orderId === 'string';

/**
 * The pushes a journal directory holds, read without changing anything (tests, tools): the log's
 * entries not marked done, plus `*.json` entries written by versions before the log.
 */
export function readPushJournal(dir: string): UnrecordedPush[] {
  return [...load(dir).entries.values()].sort((a, b) => a.sentAt - b.sentAt);
}

function load(dir: string) {
  const entries = new Map<string, UnrecordedPush>();
  /** Entries that are a file of their own (written by a version before the log), removed with them. */
  const legacy = new Map<string, string>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { entries, legacy };
  }
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    try {
      const entry: unknown = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
      if (isEntry(entry)) {
        entries.set(entry.checkoutRequestId, entry);
        legacy.set(entry.checkoutRequestId, name);
      }
    } catch {
      // removed meanwhile, or half written
    }
  }
  let text = '';
  try {
    text = readFileSync(path.join(dir, LOG), 'utf8');
  } catch {
    // no log yet
  }
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const record = JSON.parse(line) as { add?: unknown; done?: unknown };
      if (isEntry(record.add)) entries.set(record.add.checkoutRequestId, record.add);
      else if (typeof record.done === 'string') entries.delete(record.done);
    } catch {
      // a line cut short by a kill mid-write: nothing after it was written either
    }
  }
  return { entries, legacy };
}

/**
 * Pushes Daraja accepted that the API server has not recorded yet, under `dir`
 * ($DATA_DIR/unrecorded-pushes). Once Daraja accepts a push the prompt is on the customer's
 * phone and the money may move whatever happens to us; without its CheckoutRequestID on the API
 * server the callback is refused as unknown and the reconciler never asks about it, so a customer
 * who pays gets no ticket and nobody is told. The entry is appended to `journal.log`
 * (synchronously, with one write on a file kept open: it survives a SIGKILL of this process)
 * before the push is recorded, marked done once recorded, and the reconciler records what is left
 * — after the API server was down, or after this service was killed. This process is the
 * journal's only writer (one per DATA_DIR) and keeps its entries in memory too, so asking whether
 * a push is journaled costs no file system call. The log is emptied whenever nothing is left in
 * it, and rewritten with only the live entries when it grows.
 */
export function createPushJournal(dir: string) {
  mkdirSync(dir, { recursive: true });
  const logFile = path.join(dir, LOG);
  const fileFor = (checkoutRequestId: string) =>
    path.join(dir, `${/^[A-Za-z0-9_-]{1,100}$/.test(checkoutRequestId) ? checkoutRequestId : createHash('sha256').update(checkoutRequestId).digest('hex')}.json`);
  const { entries, legacy } = load(dir);
  let fd = -1;
  let appended = 0;

  /** Writes the live log entries to a new file and renames it over the log: a kill at any point leaves one whole log. */
  function rewrite() {
    if (fd >= 0) closeSync(fd);
    const live = [...entries.values()].filter((entry) => !legacy.has(entry.checkoutRequestId));
    writeFileSync(`${logFile}.tmp`, live.map((entry) => `${JSON.stringify({ add: entry })}\n`).join(''));
    renameSync(`${logFile}.tmp`, logFile);
    fd = openSync(logFile, 'a');
    appended = 0;
  }
  rewrite();

  function append(record: object) {
    const line = `${JSON.stringify(record)}\n`;
    let written: number;
    try {
      written = writeSync(fd, line);
    } catch (error) {
      repair();
      throw error;
    }
    if (written !== Buffer.byteLength(line)) {
      // A cut-short line (disk full) would spoil the next one: rewrite the log from memory.
      repair();
      throw new Error('push journal: write cut short');
    }
    appended += written;
  }

  function repair() {
    try {
      rewrite();
    } catch {
      // the next write reports the problem
    }
  }

  function forget(checkoutRequestId: string) {
    if (!entries.has(checkoutRequestId)) return;
    const legacyName = legacy.get(checkoutRequestId);
    if (legacyName) {
      rmSync(path.join(dir, legacyName), { force: true });
      legacy.delete(checkoutRequestId);
      entries.delete(checkoutRequestId);
      return;
    }
    entries.delete(checkoutRequestId);
    if (entries.size === legacy.size) {
      // Nothing left in the log: start it again from empty (O_APPEND writes go to the new end).
      ftruncateSync(fd, 0);
      appended = 0;
      return;
    }
    append({ done: checkoutRequestId });
    if (appended > COMPACT_AFTER_BYTES) rewrite();
  }

  return {
    dir,
    /** Appended to the log in one synchronous write before the push is recorded. */
    add(entry: UnrecordedPush) {
      append({ add: entry });
      entries.set(entry.checkoutRequestId, entry);
    },
    remove(checkoutRequestId: string) {
      forget(checkoutRequestId);
    },
    has(checkoutRequestId: string) {
      return entries.has(checkoutRequestId);
    },
    get(checkoutRequestId: string): UnrecordedPush | undefined {
      return entries.get(checkoutRequestId);
    },
    /** Oldest first. */
    list(): UnrecordedPush[] {
      return [...entries.values()].sort((a, b) => a.sentAt - b.sentAt);
    },
    /** The API server refuses it for good (unknown order): kept as `<id>.unrecordable` for a person to look at. */
    setAside(checkoutRequestId: string) {
      const entry = entries.get(checkoutRequestId);
      if (!entry) return;
      const file = fileFor(checkoutRequestId).replace(/\.json$/, '.unrecordable');
      if (!existsSync(file)) writeFileSync(file, JSON.stringify(entry));
      forget(checkoutRequestId);
    },
    close() {
      if (fd >= 0) closeSync(fd);
      fd = -1;
    },
  };
}

export type PushJournal = ReturnType<typeof createPushJournal>;
