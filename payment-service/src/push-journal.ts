import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface UnrecordedPush {
  orderId: string;
  checkoutRequestId: string;
  merchantRequestId: string;
  /** Epoch ms when Daraja accepted the push. */
  sentAt: number;
}

/**
 * Pushes Daraja accepted that the API server has not recorded yet, one small JSON file each under
 * `dir` ($DATA_DIR/unrecorded-pushes). Once Daraja accepts a push the prompt is on the customer's
 * phone and the money may move whatever happens to us; without its CheckoutRequestID on the API
 * server the callback is refused as unknown and the reconciler never asks about it, so a customer
 * who pays gets no ticket and nobody is told. The entry is written (synchronously: it survives a
 * SIGKILL of this process) before the push is recorded, removed once recorded, and the reconciler
 * records what is left — after the API server was down, or after this service was killed.
 */
export function createPushJournal(dir: string) {
  mkdirSync(dir, { recursive: true });
  const nameFor = (checkoutRequestId: string) =>
    `${/^[A-Za-z0-9_-]{1,100}$/.test(checkoutRequestId) ? checkoutRequestId : createHash('sha256').update(checkoutRequestId).digest('hex')}.json`;
  const fileFor = (checkoutRequestId: string) => path.join(dir, nameFor(checkoutRequestId));
  /**
   * The entries' file names, known in memory: this process is the journal's only writer (one per
   * DATA_DIR), so asking whether a push is journaled — every callback and many polls do — needs no
   * file system call. Filled from the directory at start (entries left by a killed run).
   */
  const names = new Set(readdirSync(dir).filter((name) => name.endsWith('.json')));

  return {
    dir,
    /** Written to a temporary name and renamed, so a kill mid-write never leaves half an entry. */
    add(entry: UnrecordedPush) {
      const file = fileFor(entry.checkoutRequestId);
      writeFileSync(`${file}.tmp`, JSON.stringify(entry));
      renameSync(`${file}.tmp`, file);
      names.add(nameFor(entry.checkoutRequestId));
    },
    remove(checkoutRequestId: string) {
      rmSync(fileFor(checkoutRequestId), { force: true });
      names.delete(nameFor(checkoutRequestId));
    },
    has(checkoutRequestId: string) {
      return names.has(nameFor(checkoutRequestId));
    },
    get(checkoutRequestId: string): UnrecordedPush | undefined {
      if (!names.has(nameFor(checkoutRequestId))) return undefined;
      try {
        return JSON.parse(readFileSync(fileFor(checkoutRequestId), 'utf8')) as UnrecordedPush;
      } catch {
        return undefined;
      }
    },
    /** Oldest first. */
    list(): UnrecordedPush[] {
      const entries: UnrecordedPush[] = [];
      for (const name of readdirSync(dir)) {
        if (!name.endsWith('.json')) continue;
        try {
          entries.push(JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as UnrecordedPush);
          names.add(name);
        } catch {
          // removed meanwhile
        }
      }
      return entries.sort((a, b) => a.sentAt - b.sentAt);
    },
    /** The API server refuses it for good (unknown order): kept as `.unrecordable` for a person to look at. */
    setAside(checkoutRequestId: string) {
      const file = fileFor(checkoutRequestId);
      if (existsSync(file)) renameSync(file, file.replace(/\.json$/, '.unrecordable'));
      names.delete(nameFor(checkoutRequestId));
    },
  };
}

export type PushJournal = ReturnType<typeof createPushJournal>;
