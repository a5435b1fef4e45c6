import { and, asc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { smsMessages, smsOptOuts } from './sms.schema.js';

export type SmsRow = typeof smsMessages.$inferSelect;
export interface NewSms {
  purpose: string;
  /** Once per key, whoever inserts it and however often (null: no such rule). */
  dedupeKey: string | null;
  phone: string;
  message: string;
}

/** The SMS outbox (drizzle/0010). */
export function createSmsRepository(db: Executor) {
  return {
    /** Queues messages; a key already queued (or sent) is skipped. Answers how many were queued. */
    /** Records a number's STOP (a repeated notification changes nothing). */
    async optOut(phone: string, sender: string | null): Promise<boolean> {
      const inserted = await db.insert(smsOptOuts).values({ phone, sender }).onConflictDoNothing().returning({ phone: smsOptOuts.phone });
      return inserted.length > 0;
    },

    /** Which of `phones` replied STOP. */
    async optedOut(phones: string[]): Promise<Set<string>> {
      if (phones.length === 0) return new Set();
      const rows = await db.select({ phone: smsOptOuts.phone }).from(smsOptOuts).where(inArray(smsOptOuts.phone, phones));
      return new Set(rows.map((row) => row.phone));
    },

    async enqueue(rows: NewSms[]): Promise<number> {
      if (rows.length === 0) return 0;
      const now = new Date();
      const inserted = await db
        .insert(smsMessages)
        // Due from the app's clock, which `claim` compares with (why: the mail outbox's enqueue).
        .values(rows.map((row) => ({ id: newId(), ...row, nextAttemptAt: now })))
        .onConflictDoNothing()
        .returning({ id: smsMessages.id });
      return inserted.length;
    },

    /**
     * Takes up to `limit` messages to send now, in one transaction with SKIP LOCKED so two instances never
     * take the same one: queued ones whose time has come, and ones left `sending` since `staleBefore` (the
     * instance sending them died). Each becomes `sending` with one more attempt.
     */
    async claim(limit: number, now: Date, staleBefore: Date): Promise<SmsRow[]> {
      const due = await db
        .select({ id: smsMessages.id })
        .from(smsMessages)
        .where(
          or(
            and(eq(smsMessages.status, 'queued'), lte(smsMessages.nextAttemptAt, now)),
            and(eq(smsMessages.status, 'sending'), lte(smsMessages.updatedAt, staleBefore)),
          ),
        )
        .orderBy(asc(smsMessages.nextAttemptAt))
        .limit(limit)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return db
        .update(smsMessages)
        .set({ status: 'sending', attempts: sql`${smsMessages.attempts} + 1`, updatedAt: now })
        .where(inArray(smsMessages.id, due.map((row) => row.id)))
        .returning();
    },

    async accepted(id: string, outcome: { messageId: string; providerStatus: string; cost: string | null }) {
      await db
        .update(smsMessages)
        .set({ status: 'sent', providerMessageId: outcome.messageId, providerStatus: outcome.providerStatus, cost: outcome.cost, updatedAt: new Date() })
        .where(and(eq(smsMessages.id, id), eq(smsMessages.status, 'sending')));
    },

    async again(id: string, at: Date, providerStatus: string) {
      await db
        .update(smsMessages)
        .set({ status: 'queued', nextAttemptAt: at, providerStatus, updatedAt: new Date() })
        .where(and(eq(smsMessages.id, id), eq(smsMessages.status, 'sending')));
    },

    async failed(id: string, providerStatus: string) {
      await db
        .update(smsMessages)
        .set({ status: 'failed', providerStatus, updatedAt: new Date() })
        .where(and(eq(smsMessages.id, id), eq(smsMessages.status, 'sending')));
    },

    /** A delivery report: final states only move a sent message (a late interim report changes nothing). */
    async delivery(messageId: string, status: 'delivered' | 'undelivered' | undefined, providerStatus: string): Promise<SmsRow | undefined> {
      const [row] = await db
        .update(smsMessages)
        .set({ ...(status ? { status } : {}), providerStatus, updatedAt: new Date() })
        .where(and(eq(smsMessages.providerMessageId, messageId), inArray(smsMessages.status, ['sent', 'sending'])))
        .returning();
      return row;
    },

    async findByKey(dedupeKey: string): Promise<SmsRow | undefined> {
      const [row] = await db.select().from(smsMessages).where(eq(smsMessages.dedupeKey, dedupeKey)).limit(1);
      return row;
    },

    async countsByStatus(): Promise<Partial<Record<SmsRow['status'], number>>> {
      const rows = await db.select({ status: smsMessages.status, n: sql<number>`count(*)::int` }).from(smsMessages).groupBy(smsMessages.status);
      return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
    },
  };
}
