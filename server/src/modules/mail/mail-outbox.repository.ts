import { and, asc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { mailOutbox } from './mail.schema.js';

export type MailRow = typeof mailOutbox.$inferSelect;
export interface NewMail {
  purpose: string;
  recipient: string;
  kind: string;
  body: unknown;
  /** A mail that must go once: a row with the same key already written (sent or not) keeps this one out. */
  dedupeKey?: string | undefined;
}

/** The mail outbox (drizzle/0016). */
export function createMailOutboxRepository(db: Executor) {
  /** Moves a row the sender holds (`sending`); a row reclaimed meanwhile by another instance is left alone. */
  const settle = (id: string, attempts: number, changes: Partial<typeof mailOutbox.$inferInsert>) =>
    db
      .update(mailOutbox)
      .set({ ...changes, updatedAt: new Date() })
      .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'sending'), eq(mailOutbox.attempts, attempts)));

  return {
    async enqueue(rows: NewMail[]): Promise<string[]> {
      if (rows.length === 0) return [];
      const now = new Date();
      const inserted = await db
        .insert(mailOutbox)
        // Due from the app's clock, which `claim` compares with: the column's default, the database's now(),
        // carries microseconds, so a look in the same millisecond (now truncated to it) found the new mail
        // not yet due, and with nothing else queued nobody looked again until the next period.
        .values(rows.map((row) => ({ id: newId(), purpose: row.purpose, recipient: row.recipient, kind: row.kind, body: row.body, dedupeKey: row.dedupeKey ?? null, nextAttemptAt: now })))
        .onConflictDoNothing({ target: mailOutbox.dedupeKey })
        .returning({ id: mailOutbox.id });
      return inserted.map((row) => row.id);
    },

    /**
     * Takes up to `limit` mails to send now, with SKIP LOCKED so two instances never take the same one:
     * queued ones whose time has come, and ones left `sending` since `staleBefore` (the instance sending
     * them died). Each becomes `sending` with one more attempt.
     */
    async claim(limit: number, now: Date, staleBefore: Date): Promise<MailRow[]> {
      const due = await db
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(
          or(
            and(eq(mailOutbox.status, 'queued'), lte(mailOutbox.nextAttemptAt, now)),
            and(eq(mailOutbox.status, 'sending'), lte(mailOutbox.updatedAt, staleBefore)),
          ),
        )
        .orderBy(asc(mailOutbox.nextAttemptAt))
        .limit(limit)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return db
        .update(mailOutbox)
        .set({ status: 'sending', attempts: sql`${mailOutbox.attempts} + 1`, updatedAt: now })
        .where(inArray(mailOutbox.id, due.map((row) => row.id)))
        .returning();
    },

    /** Sent: the body (a one-time link, ticket codes) is not kept. */
    sent: (row: MailRow) => settle(row.id, row.attempts, { status: 'sent', body: null, sentAt: new Date(), lastError: null }),
    again: (row: MailRow, at: Date, error: string) => settle(row.id, row.attempts, { status: 'queued', nextAttemptAt: at, lastError: error }),
    failed: (row: MailRow, error: string) => settle(row.id, row.attempts, { status: 'failed', lastError: error }),

    /** Deletes sent and failed mails last touched before `before`; answers how many. */
    async prune(before: Date): Promise<number> {
      const deleted = await db
        .delete(mailOutbox)
        .where(and(inArray(mailOutbox.status, ['sent', 'failed']), lt(mailOutbox.updatedAt, before)))
        .returning({ id: mailOutbox.id });
      return deleted.length;
    },

    async countsByStatus(): Promise<Partial<Record<MailRow['status'], number>>> {
      const rows = await db.select({ status: mailOutbox.status, n: sql<number>`count(*)::int` }).from(mailOutbox).groupBy(mailOutbox.status);
      return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
    },
  };
}
