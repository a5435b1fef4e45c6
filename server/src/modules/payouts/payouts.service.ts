import type { Database } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { AppError } from '../../lib/app-error.js';
import { requireOwner } from '../../lib/auth.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import type { AuthUser } from '../auth/index.js';
import { canSeeEvent, findEvent } from '../events/index.js';
import type { MakePayouts } from './make-payouts.handler.js';
import { payoutMessages } from './payout-messages.js';
import { createPayoutsRepository, type PayoutAttemptRow, type PayoutRow, type PayoutStatus } from './payouts.repository.js';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** A payout as the administrators' list shows it. */
function toAdminPayout(payout: PayoutRow, organiser: { username: string; earlyPayouts: boolean | null }, attempts: PayoutAttemptRow[]) {
  const last = attempts.filter((attempt) => attempt.payoutId === payout.id).at(-1);
  return {
    payoutId: payout.id,
    organiserId: payout.organiserId,
    username: organiser.username,
    // The list is where an administrator toggles the trust: it says where it stands (no row yet: not trusted).
    earlyPayouts: organiser.earlyPayouts ?? false,
    amount: payout.amount,
    method: payout.destination.method ?? 'mpesa',
    status: payout.status,
    attempts: payout.attempts,
    nextAttemptAt: iso(payout.nextAttemptAt),
    receipt: payout.receipt,
    failure: payout.failure,
    needsAttention: payout.attention,
    lastResultCode: last?.resultCode ?? null,
    retriedAt: iso(payout.retriedAt),
    createdAt: payout.createdAt.toISOString(),
    paidAt: iso(payout.paidAt),
  };
}

/** The administrators' lists (payouts, holds) show this many, newest first. */
const ADMIN_LIST_LIMIT = 200;

/**
 * The payouts as people see and steer them: an organiser's summary and an event's statement (its organiser or an
 * administrator), and the administrators' list, retry, holds and early-payout trust.
 */
export function createPayoutsService(deps: { db: Database; make: MakePayouts }) {
  const { db, make } = deps;

  async function eventFor(eventId: string, user: AuthUser) {
    const event = await findEvent(db, eventId);
    if (!event || !canSeeEvent(event, user)) throw AppError.notFound('event_not_found', payoutMessages.eventNotFound);
    return event;
  }

  /** An organiser's payouts summary (what GET /api/payouts answers the organiser). */
  async function summaryOf(organiserId: string) {
    const now = new Date();
    const repo = createPayoutsRepository(db);
    const [{ money, plan }, byStatus] = await Promise.all([make.preview(organiserId, now), repo.totalsByStatus(organiserId)]);
    const sumOf = (statuses: PayoutStatus[]) => byStatus.filter((row) => statuses.includes(row.status)).reduce((sum, row) => sum + row.amount, 0);
    const events = plan.events.map((row) => {
      const event = money.find((one) => one.eventId === row.eventId)!;
      const onHold = row.status === 'on_hold' || row.status === 'awaiting_refunds' ? row.owed : 0;
      const available = Math.max(0, row.payable);
      return {
        eventId: row.eventId,
        title: event.title,
        startsAt: event.startsAt.toISOString(),
        status: row.status,
        owed: row.owed,
        available,
        pending: row.owed > 0 ? row.owed - available - onHold : 0,
        onHold,
        negative: row.owed < 0 ? -row.owed : 0,
        paidOut: event.paidOut,
        payableFrom: row.payableFrom.toISOString(),
      };
    });
    const total = (key: 'available' | 'pending' | 'onHold' | 'negative') => events.reduce((sum, row) => sum + row[key], 0);
    return {
      currency: 'KES' as const,
      pending: total('pending'),
      available: total('available'),
      onHold: total('onHold'),
      inFlight: sumOf(['sending', 'retrying']),
      paid: sumOf(['paid']),
      negativeBalance: total('negative'),
      nextPayout: plan.send ? { amount: plan.send.amount } : null,
      waitingFor: plan.wait,
      events,
    };
  }

  return {
    /**
     * GET /api/payouts: what the organiser is owed and when, per event and in total: pending (not yet payable),
     * available (payable now), on hold (held, or a cancelled event's refunds not all paid), in flight, paid, and
     * the negative balance the next payout recovers.
     */
    summary(user: AuthUser) {
      return summaryOf(user.id);
    },

    /**
     * GET /api/payouts/organisers/:organiserId: the same summary, read by the organiser, an administrator, or a
     * finance member for all of the organiser's events (the route gate granted `actingFor`, docs/decisions/teams.md).
     */
    organiserSummary(organiserId: string, user: AuthUser) {
      requireOwner(user, organiserId, { code: 'payouts_not_organiser', message: payoutMessages.notOwner });
      return summaryOf(organiserId);
    },

    /**
     * GET /api/payouts/events/:id/statement: the event's money from its ledger entries (gross sales, fees,
     * M-Pesa charges, refunds, adjustments, net), what was paid out of it with the M-Pesa receipts, and what is
     * still owed. Its organiser or an administrator only.
     */
    async statement(eventId: string, user: AuthUser) {
      const event = await eventFor(eventId, user);
      requireOwner(user, event.userId, { code: 'payouts_not_organiser', message: payoutMessages.notOwner });
      const repo = createPayoutsRepository(db);
      const [entries, payouts] = await Promise.all([repo.eventEntriesByKind(eventId), repo.payoutsOfEvent(eventId)]);
      const sum = (account: string, kinds?: string[]) => entries.filter((row) => row.account === account && (!kinds || kinds.includes(row.kind))).reduce((total, row) => total + row.amount, 0);
      const grossSales = sum('mpesa_clearing', ['payment', 'contradiction']);
      // The platform fee on its sales: what the payments took before the organiser's payable (refunds give their share back through `refunds`).
      const fees = grossSales + sum('organiser_payable', ['payment', 'contradiction']);
      // M-Pesa's charges for receiving its payments: Tukio bears them out of its fees (credit-normal), not deducted from the net.
      const mpesaCharges = -sum('mpesa_charges');
      const refunds = sum('organiser_payable', ['refund']);
      const adjustments = -sum('organiser_payable', ['adjustment']);
      const net = -sum('organiser_payable', ['payment', 'contradiction', 'refund', 'adjustment']);
      const paidOut = sum('organiser_payable', ['payout', 'payout_failed']);
      return {
        eventId,
        title: event.title,
        currency: 'KES' as const,
        grossSales,
        fees,
        mpesaCharges,
        refunds,
        adjustments,
        net,
        paidOut,
        balance: -sum('organiser_payable'),
        payouts: payouts.map(({ payout, forEvent }) => ({
          payoutId: payout.id,
          forEvent,
          amount: payout.amount,
          status: payout.status,
          receipt: payout.receipt,
          createdAt: payout.createdAt.toISOString(),
          paidAt: iso(payout.paidAt),
        })),
      };
    },

    /** GET /api/admin/payouts: newest first, all or one status (`failed`: those waiting for an administrator; `needs_attention`: a result refused for good). */
    async list(status: PayoutStatus | 'needs_attention' | undefined) {
      const repo = createPayoutsRepository(db);
      const rows = await repo.list(status, ADMIN_LIST_LIMIT);
      const attempts = await repo.attemptsOf(rows.map((row) => row.payout.id));
      return rows.map((row) => toAdminPayout(row.payout, row, attempts));
    },

    /**
     * POST /api/admin/payouts/:id/retry: a failed payout's money (back on the organiser's payables) may be paid
     * again: the payout is marked retried and the organiser's next payout is made now when one is due.
     */
    async retry(payoutId: string, admin: AuthUser) {
      const now = new Date();
      const organiserId = await db.transaction(async (tx) => {
        const repo = createPayoutsRepository(tx);
        const payout = await repo.lockPayout(payoutId);
        if (!payout) throw AppError.notFound('payout_not_found', payoutMessages.payoutNotFound);
        if (payout.status !== 'failed') throw new AppError(409, 'payout_retry_only_failed', payoutMessages.retryOnlyFailed(payout.status), { params: { status: payout.status }, body: { status: payout.status } });
        if (payout.retriedAt) throw AppError.conflict('payout_already_retried', payoutMessages.alreadyRetried);
        await repo.updatePayout(payout.id, { retriedAt: now, retriedBy: admin.id, updatedAt: now });
        return payout.organiserId;
      });
      const made = await make.makeFor(organiserId, now);
      return { payoutId, retriedAt: now.toISOString(), newPayoutId: made.payoutId, waitingFor: made.plan.wait };
    },

    /** POST /api/admin/events/:id/payout-hold: the event pays nothing until released (the reason is kept). */
    async hold(eventId: string, reason: string, admin: AuthUser) {
      await eventFor(eventId, admin);
      const now = new Date();
      try {
        await createPayoutsRepository(db).insertHold({ id: newId(), eventId, reason, heldBy: admin.id, createdAt: now });
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.conflict('payout_hold_exists', payoutMessages.holdExists);
        throw error;
      }
      return { eventId, held: true, reason, heldAt: now.toISOString() };
    },

    /** GET /api/admin/payout-holds: the events whose payouts an administrator holds now, newest first. */
    async holds() {
      const rows = await createPayoutsRepository(db).activeHolds(ADMIN_LIST_LIMIT);
      return rows.map((row) => ({ ...row, heldAt: row.heldAt.toISOString() }));
    },

    /** DELETE /api/admin/events/:id/payout-hold: released (the hold stays as history). */
    async release(eventId: string, admin: AuthUser) {
      await eventFor(eventId, admin);
      const repo = createPayoutsRepository(db);
      const hold = await repo.activeHold(eventId);
      if (!hold) throw AppError.conflict('payout_hold_missing', payoutMessages.noHold);
      await repo.releaseHold(hold.id, admin.id, new Date());
      return { eventId, held: false, reason: hold.reason, heldAt: hold.createdAt.toISOString() };
    },

    /** PUT /api/admin/users/:id/early-payouts: trust (or stop trusting) an organiser with early payouts. */
    async setEarlyPayouts(userId: string, allowed: boolean, admin: AuthUser) {
      const repo = createPayoutsRepository(db);
      if (!(await repo.userExists(userId))) throw AppError.notFound('user_not_found', payoutMessages.userNotFound);
      await repo.setEarlyPayouts(userId, allowed, admin.id, new Date());
      return { userId, earlyPayouts: allowed };
    },
  };
}

export type PayoutsService = ReturnType<typeof createPayoutsService>;
