import { and, count, desc, eq, gt, lte, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { payoutAccounts } from './payout-accounts.schema.js';

export type PayoutAccountRow = typeof payoutAccounts.$inferSelect;
export type NewPayoutAccount = Pick<PayoutAccountRow, 'userId' | 'method' | 'phone' | 'shortcode' | 'accountReference' | 'codePhone' | 'codeHash' | 'codeExpiresAt'>;

/** Organisers' payout destinations (drizzle/0030): requests, their codes, and the confirmed history. */
export function createPayoutAccountsRepository(db: Executor) {
  return {
    /** The organiser's active destination: their latest confirmed one (as of `asOf` when given). */
    async latestConfirmed(userId: string, asOf?: Date): Promise<PayoutAccountRow | undefined> {
      const [row] = await db
        .select()
        .from(payoutAccounts)
        .where(and(eq(payoutAccounts.userId, userId), eq(payoutAccounts.status, 'confirmed'), asOf ? lte(payoutAccounts.confirmedAt, asOf) : undefined))
        .orderBy(desc(payoutAccounts.confirmedAt), desc(payoutAccounts.id))
        .limit(1);
      return row;
    },

    /** The request waiting for its code, if any; `lock` takes its row lock (a confirmation in progress). */
    async pending(userId: string, options: { lock?: boolean } = {}): Promise<PayoutAccountRow | undefined> {
      const query = db
        .select()
        .from(payoutAccounts)
        .where(and(eq(payoutAccounts.userId, userId), eq(payoutAccounts.status, 'pending')))
        .limit(1);
      const [row] = options.lock ? await query.for('update') : await query;
      return row;
    },

    /** The latest request that never became a destination (pending, replaced or locked). */
    async latestUnconfirmed(userId: string): Promise<PayoutAccountRow | undefined> {
      const [row] = await db
        .select()
        .from(payoutAccounts)
        .where(and(eq(payoutAccounts.userId, userId), ne(payoutAccounts.status, 'confirmed')))
        .orderBy(desc(payoutAccounts.createdAt), desc(payoutAccounts.id))
        .limit(1);
      return row;
    },

    /** Codes sent to this organiser since `since` (every request sends one). */
    async codesSentSince(userId: string, since: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(payoutAccounts)
        .where(and(eq(payoutAccounts.userId, userId), gt(payoutAccounts.createdAt, since)));
      return Number(row?.n ?? 0);
    },

    /** A new request; the one waiting before it (if any) is marked replaced first, in the caller's transaction. */
    async replacePending(input: NewPayoutAccount): Promise<PayoutAccountRow> {
      await db
        .update(payoutAccounts)
        .set({ status: 'replaced' })
        .where(and(eq(payoutAccounts.userId, input.userId), eq(payoutAccounts.status, 'pending')));
      const [row] = await db
        .insert(payoutAccounts)
        .values({ id: newId(), ...input })
        .returning();
      return row!;
    },

    /** One more wrong code; at `maxAttempts` the request is locked. Returns the wrong attempts now counted. */
    async countWrongAttempt(id: string, maxAttempts: number): Promise<number> {
      const [row] = await db
        .update(payoutAccounts)
        .set({
          wrongAttempts: sql`${payoutAccounts.wrongAttempts} + 1`,
          status: sql`case when ${payoutAccounts.wrongAttempts} + 1 >= ${maxAttempts} then 'locked' else 'pending' end`,
        })
        .where(and(eq(payoutAccounts.id, id), eq(payoutAccounts.status, 'pending')))
        .returning({ wrongAttempts: payoutAccounts.wrongAttempts });
      return row?.wrongAttempts ?? maxAttempts;
    },

    /** The pending request becomes the active destination (never changed again). */
    async confirm(id: string, confirmedAt: Date, heldUntil: Date | null): Promise<PayoutAccountRow | undefined> {
      const [row] = await db
        .update(payoutAccounts)
        .set({ status: 'confirmed', confirmedAt, heldUntil })
        .where(and(eq(payoutAccounts.id, id), eq(payoutAccounts.status, 'pending')))
        .returning();
      return row;
    },
  };
}
