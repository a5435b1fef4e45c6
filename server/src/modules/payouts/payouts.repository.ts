import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { chunk } from '../../db/chunk.js';
import type { Executor } from '../../db/database.js';
import { users } from '../auth/index.js';
import { refunds } from '../checkout/index.js';
import { events } from '../events/index.js';
import { ledgerEntries, ledgerTransactions } from '../ledger/index.js';
import { payoutAttempts, payoutHolds, payoutOrganisers, payouts, type PAYOUT_STATUSES } from './payouts.schema.js';

export type PayoutRow = typeof payouts.$inferSelect;
export type PayoutAttemptRow = typeof payoutAttempts.$inferSelect;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** Kinds whose organiser-payable legs are payouts (a failed payout's legs cancel its payout's). */
const PAYOUT_KINDS = ['payout', 'payout_failed'] as const;

export function createPayoutsRepository(db: Executor) {
  const payableLegs = and(eq(ledgerEntries.account, 'organiser_payable'), eq(ledgerEntries.transactionId, ledgerTransactions.id));

  return {
    /**
     * Each event of the organiser the ledger has money for: what is owed (minus the organiser payable's balance),
     * what was paid out (payout legs net of failed payouts), its refunds not yet paid, and whether it is held.
     */
    async eventMoney(organiserId: string) {
      const rows = await db
        .select({
          eventId: events.id,
          title: events.title,
          startsAt: events.startsAt,
          status: events.status,
          owed: sql<string>`-coalesce(sum(${ledgerEntries.amount}), 0)`,
          paidOut: sql<string>`coalesce(sum(${ledgerEntries.amount}) filter (where ${inArray(ledgerTransactions.kind, [...PAYOUT_KINDS])}), 0)`,
          refundsUnpaid: sql<string>`(select count(*) from ${refunds} where ${refunds.eventId} = ${events.id} and ${refunds.status} <> 'succeeded')`,
          held: sql<boolean>`exists (select 1 from ${payoutHolds} where ${payoutHolds.eventId} = ${events.id} and ${payoutHolds.releasedAt} is null)`,
        })
        .from(events)
        .innerJoin(ledgerEntries, eq(ledgerEntries.eventId, events.id))
        .innerJoin(ledgerTransactions, payableLegs)
        .where(eq(events.userId, organiserId))
        .groupBy(events.id)
        .orderBy(asc(events.startsAt), asc(events.id));
      return rows.map((row) => ({
        ...row,
        owed: Number(row.owed),
        paidOut: Number(row.paidOut),
        refundsUnpaid: Number(row.refundsUnpaid),
        cancelled: row.status === 'cancelled',
      }));
    },

    /**
     * The job's work list, a page after `afterId`, by id: organisers with an event whose organiser payable is not
     * settled and that could be payable now — it started before `startedBefore` (an event is payable a delay
     * after it ends, and it ends after it starts), or its organiser is trusted with early payouts. A superset:
     * payableNow() decides. Without it every run would visit every organiser with unsettled money, one
     * transaction each, including the many whose events are still to come (bench/payouts.mjs).
     */
    async organisersWithMoney(afterId: string | null, limit: number, startedBefore: Date): Promise<string[]> {
      const owing = db
        .select({ organiserId: events.userId })
        .from(ledgerEntries)
        .innerJoin(events, eq(events.id, ledgerEntries.eventId))
        .leftJoin(payoutOrganisers, eq(payoutOrganisers.organiserId, events.userId))
        .where(
          and(
            eq(ledgerEntries.account, 'organiser_payable'),
            afterId ? gt(events.userId, afterId) : undefined,
            or(lte(events.startsAt, startedBefore), eq(payoutOrganisers.earlyPayouts, true)),
          ),
        )
        .groupBy(events.userId, events.id)
        .having(sql`sum(${ledgerEntries.amount}) <> 0`)
        .as('owing');
      const rows = await db.selectDistinct({ organiserId: owing.organiserId }).from(owing).orderBy(asc(owing.organiserId)).limit(limit);
      return rows.map((row) => row.organiserId);
    },

    /**
     * The claim: the organiser's row, locked until the caller's transaction ends. A second job runner deciding
     * about the same organiser waits here, then sees the first one's payout (its ledger legs and open row).
     */
    async lockOrganiser(organiserId: string): Promise<{ earlyPayouts: boolean }> {
      await db.insert(payoutOrganisers).values({ organiserId }).onConflictDoNothing();
      const [row] = await db.select({ earlyPayouts: payoutOrganisers.earlyPayouts }).from(payoutOrganisers).where(eq(payoutOrganisers.organiserId, organiserId)).for('update');
      return row!;
    },

    async earlyPayouts(organiserId: string): Promise<boolean> {
      const [row] = await db.select({ earlyPayouts: payoutOrganisers.earlyPayouts }).from(payoutOrganisers).where(eq(payoutOrganisers.organiserId, organiserId));
      return row?.earlyPayouts ?? false;
    },

    async setEarlyPayouts(organiserId: string, allowed: boolean, adminId: string, now: Date) {
      await db
        .insert(payoutOrganisers)
        .values({ organiserId, earlyPayouts: allowed, earlyPayoutsSetBy: adminId, updatedAt: now })
        .onConflictDoUpdate({ target: payoutOrganisers.organiserId, set: { earlyPayouts: allowed, earlyPayoutsSetBy: adminId, updatedAt: now } });
    },

    /** A payout on its way (`open`), or one failed that no administrator has retried yet (`failed`): no new payout until it is settled. */
    async blocksNewPayout(organiserId: string): Promise<'open' | 'failed' | null> {
      const [row] = await db
        .select({ status: payouts.status })
        .from(payouts)
        .where(and(eq(payouts.organiserId, organiserId), or(inArray(payouts.status, ['sending', 'retrying']), and(eq(payouts.status, 'failed'), isNull(payouts.retriedAt)))))
        .limit(1);
      return row ? (row.status === 'failed' ? 'failed' : 'open') : null;
    },

    async insertPayout(row: typeof payouts.$inferInsert) {
      await db.insert(payouts).values(row);
    },

    async insertAttempt(row: typeof payoutAttempts.$inferInsert) {
      await db.insert(payoutAttempts).values(row);
    },

    /**
     * Attempts waiting to be sent, now `sent` (SKIP LOCKED: two runners never take the same one), with their
     * payout's amount and destination. Committed before the payment service is called.
     */
    async claimUnsent(now: Date, limit: number) {
      const rows = await db
        .select({ attempt: payoutAttempts, amount: payouts.amount, destination: payouts.destination })
        .from(payoutAttempts)
        .innerJoin(payouts, eq(payouts.id, payoutAttempts.payoutId))
        .where(and(eq(payoutAttempts.status, 'pending'), eq(payouts.status, 'sending')))
        .orderBy(asc(payoutAttempts.createdAt), asc(payoutAttempts.id))
        .limit(limit)
        .for('update', { of: payoutAttempts, skipLocked: true });
      if (rows.length > 0) await db.update(payoutAttempts).set({ status: 'sent', sentAt: now }).where(inArray(payoutAttempts.id, rows.map((row) => row.attempt.id)));
      return rows;
    },

    /** Sent attempts without a result since `before` (sent, or last asked about, then), claimed for a status question now. */
    async claimAwaitingResult(before: Date, now: Date, limit: number) {
      const rows = await db
        .select({ attempt: payoutAttempts, destination: payouts.destination })
        .from(payoutAttempts)
        .innerJoin(payouts, eq(payouts.id, payoutAttempts.payoutId))
        .where(and(eq(payoutAttempts.status, 'sent'), lte(sql`coalesce(${payoutAttempts.statusAskedAt}, ${payoutAttempts.sentAt})`, before)))
        .orderBy(asc(payoutAttempts.sentAt))
        .limit(limit)
        .for('update', { of: payoutAttempts, skipLocked: true });
      if (rows.length > 0) await db.update(payoutAttempts).set({ statusAskedAt: now }).where(inArray(payoutAttempts.id, rows.map((row) => row.attempt.id)));
      return rows;
    },

    /** Retrying payouts whose next attempt is due, locked (SKIP LOCKED) for the caller to add it. */
    async lockDueRetries(now: Date, limit: number): Promise<PayoutRow[]> {
      return db
        .select()
        .from(payouts)
        .where(and(eq(payouts.status, 'retrying'), lte(payouts.nextAttemptAt, now)))
        .orderBy(asc(payouts.nextAttemptAt))
        .limit(limit)
        .for('update', { skipLocked: true });
    },

    async lockAttempt(originatorConversationId: string): Promise<PayoutAttemptRow | undefined> {
      const [row] = await db.select().from(payoutAttempts).where(eq(payoutAttempts.originatorConversationId, originatorConversationId)).for('update');
      return row;
    },

    async lockPayout(payoutId: string): Promise<PayoutRow | undefined> {
      const [row] = await db.select().from(payouts).where(eq(payouts.id, payoutId)).for('update');
      return row;
    },

    async updateAttempt(id: string, changes: Partial<Omit<PayoutAttemptRow, 'id' | 'payoutId'>>) {
      await db.update(payoutAttempts).set(changes).where(eq(payoutAttempts.id, id));
    },

    /** The payout of this attempt needs a person (a result refused for good), and why. */
    async noteAttention(originatorConversationId: string, why: string, now: Date) {
      const attempt = db.select({ payoutId: payoutAttempts.payoutId }).from(payoutAttempts).where(eq(payoutAttempts.originatorConversationId, originatorConversationId));
      await db.update(payouts).set({ attention: why, updatedAt: now }).where(inArray(payouts.id, attempt));
    },

    /** Sets a conversation id only where none is known (a repeated acceptance changes nothing). */
    async acceptedAs(attemptId: string, conversationId: string) {
      await db.update(payoutAttempts).set({ conversationId }).where(and(eq(payoutAttempts.id, attemptId), isNull(payoutAttempts.conversationId)));
    },

    async updatePayout(id: string, changes: Partial<Omit<PayoutRow, 'id' | 'organiserId' | 'amount' | 'createdAt'>>) {
      await db.update(payouts).set(changes).where(eq(payouts.id, id));
    },

    /** A payout's legs on the organiser payables, from its `payout` ledger transaction. */
    async legsOf(payoutId: string): Promise<Array<{ eventId: string; amount: number }>> {
      const rows = await db
        .select({ eventId: ledgerEntries.eventId, amount: ledgerEntries.amount })
        .from(ledgerTransactions)
        .innerJoin(ledgerEntries, payableLegs)
        .where(and(eq(ledgerTransactions.kind, 'payout'), eq(ledgerTransactions.payoutId, payoutId)));
      return rows.map((row) => ({ eventId: row.eventId!, amount: row.amount }));
    },

    /** Payouts, newest first, all, one status or those needing attention, with the organiser's name and early-payout trust (the administrators' list). */
    async list(status: PayoutStatus | 'needs_attention' | undefined, limit: number) {
      return db
        .select({ payout: payouts, username: users.username, earlyPayouts: payoutOrganisers.earlyPayouts })
        .from(payouts)
        .innerJoin(users, eq(users.id, payouts.organiserId))
        .leftJoin(payoutOrganisers, eq(payoutOrganisers.organiserId, payouts.organiserId))
        .where(status === 'needs_attention' ? isNotNull(payouts.attention) : status ? eq(payouts.status, status) : undefined)
        .orderBy(desc(payouts.createdAt), desc(payouts.id))
        .limit(limit);
    },

    async attemptsOf(payoutIds: string[]): Promise<PayoutAttemptRow[]> {
      if (payoutIds.length === 0) return [];
      return db.select().from(payoutAttempts).where(inArray(payoutAttempts.payoutId, payoutIds)).orderBy(asc(payoutAttempts.number));
    },

    /** The organiser's payouts' totals by status. */
    async totalsByStatus(organiserId: string): Promise<Array<{ status: PayoutStatus; amount: number }>> {
      const rows = await db
        .select({ status: payouts.status, amount: sql<string>`sum(${payouts.amount})` })
        .from(payouts)
        .where(eq(payouts.organiserId, organiserId))
        .groupBy(payouts.status);
      return rows.map((row) => ({ status: row.status, amount: Number(row.amount) }));
    },

    /** The payouts that took from (or recovered into) one event: each payout with its leg for the event. */
    async payoutsOfEvent(eventId: string) {
      return db
        .select({ payout: payouts, forEvent: ledgerEntries.amount })
        .from(ledgerTransactions)
        .innerJoin(ledgerEntries, and(payableLegs, eq(ledgerEntries.eventId, eventId)))
        .innerJoin(payouts, eq(payouts.id, ledgerTransactions.payoutId))
        .where(eq(ledgerTransactions.kind, 'payout'))
        .orderBy(asc(payouts.createdAt), asc(payouts.id));
    },

    /** Every entry of one event summed by transaction kind and account (the statement's figures). */
    async eventEntriesByKind(eventId: string) {
      const rows = await db
        .select({ kind: ledgerTransactions.kind, account: ledgerEntries.account, amount: sql<string>`sum(${ledgerEntries.amount})` })
        .from(ledgerEntries)
        .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
        .where(eq(ledgerEntries.eventId, eventId))
        .groupBy(ledgerTransactions.kind, ledgerEntries.account);
      return rows.map((row) => ({ ...row, amount: Number(row.amount) }));
    },

    async activeHold(eventId: string) {
      const [row] = await db.select().from(payoutHolds).where(and(eq(payoutHolds.eventId, eventId), isNull(payoutHolds.releasedAt)));
      return row;
    },

    /** Holds not released, newest first, with the event's title and organiser (the administrators' list). */
    async activeHolds(limit: number) {
      return db
        .select({ eventId: payoutHolds.eventId, title: events.title, organiser: users.username, reason: payoutHolds.reason, heldAt: payoutHolds.createdAt })
        .from(payoutHolds)
        .innerJoin(events, eq(events.id, payoutHolds.eventId))
        .innerJoin(users, eq(users.id, events.userId))
        .where(isNull(payoutHolds.releasedAt))
        .orderBy(desc(payoutHolds.createdAt), desc(payoutHolds.id))
        .limit(limit);
    },

    async insertHold(row: typeof payoutHolds.$inferInsert) {
      await db.insert(payoutHolds).values(row);
    },

    async releaseHold(id: string, adminId: string, now: Date) {
      await db.update(payoutHolds).set({ releasedAt: now, releasedBy: adminId }).where(eq(payoutHolds.id, id));
    },

    /** Attempts M-Pesa paid (by their result), each with its payout's amount, status and receipt (the audit's side). */
    async paidAttempts() {
      return db
        .select({ attempt: payoutAttempts, amount: payouts.amount, payoutStatus: payouts.status, payoutReceipt: payouts.receipt })
        .from(payoutAttempts)
        .innerJoin(payouts, eq(payouts.id, payoutAttempts.payoutId))
        .where(eq(payoutAttempts.status, 'paid'));
    },

    /** Attempts named by our OriginatorConversationIDs or Daraja's ConversationIDs, whatever their status. */
    async attemptsNamed(originatorConversationIds: string[], conversationIds: string[]): Promise<PayoutAttemptRow[]> {
      const found: PayoutAttemptRow[] = [];
      for (const slice of chunk(originatorConversationIds)) found.push(...(await db.select().from(payoutAttempts).where(inArray(payoutAttempts.originatorConversationId, slice))));
      for (const slice of chunk(conversationIds)) found.push(...(await db.select().from(payoutAttempts).where(inArray(payoutAttempts.conversationId, slice))));
      return found;
    },

    async userExists(userId: string): Promise<boolean> {
      const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
      return Boolean(row);
    },
  };
}

export type PayoutsRepository = ReturnType<typeof createPayoutsRepository>;
