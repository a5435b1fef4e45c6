import { KENYAN_PHONE_PATTERN, maskKenyanPhone } from '@tukio/shared/phone';
import { refundAttemptId, REFUND_STATUSES, type auditRequest, type RefundReason, type RefundResultRequest } from '@tukio/shared/internal-refunds';
import type { z } from 'zod';
import type { Database, Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { AppError } from '../../lib/app-error.js';
import { requireOwner } from '../../lib/auth.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { toPage, type CursorKey } from '../../lib/keyset-page.js';
import type { Logger } from '../../lib/logger.js';
import type { AuthUser } from '../auth/index.js';
import { canSeeEvent, findEvent } from '../events/index.js';
import { createLedger } from '../ledger/index.js';
import { emitWebhook } from '../webhooks/index.js';
import { auditLedger, type PayoutsAudit } from './refunds-audit.js';
import { createPaybillRepository, type UnmatchedPaymentRow } from './paybill.repository.js';
import { createRefundsRepository, type RefundRow, type RefundStatus } from './refunds.repository.js';

/** The longest a failed refund waits before its next attempt, however many attempts failed. */
export const MAX_BACKOFF_MS = 60 * 60 * 1000;

/** Wait before the next attempt once `attempts` have failed: the base, doubling each time, at most one hour. */
export const backoffMs = (baseMs: number, attempts: number) => Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);

/** Reversal's "the transaction was already reversed": the money went back already, so nothing is sent again by itself. */
const ALREADY_REVERSED = 'R000001';

/** Daraja remarks are 2-100 characters; ours stay plain ASCII so no gateway mangles them. */
export function remarksFor(eventTitle: string): string {
  const title = eventTitle.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').replace(/\s+/g, ' ').trim();
  return `Tukio refund${title ? `: ${title}` : ''}`.slice(0, 100);
}

/**
 * The number a B2C payout could go to: none when M-Pesa masked or hashed the payer (a Paybill payment on Daraja v2),
 * whose refund can only be a reversal.
 */
export const payablePhone = (phone: string) => (KENYAN_PHONE_PATTERN.test(phone) ? phone : null);

/** Thrown for a result the ledger will not record as it is (the payment service then asks Daraja instead). */
const doubtful = (reason: string) => new AppError(409, 'refund_result_doubtful', `Refund result not accepted: ${reason}`, { params: { reason }, body: { doubtful: true, reason } });

export const refundMessages = {
  notRefundable: 'Only a successful payment can be refunded.',
  unknownAttempt: 'Unknown OriginatorConversationID.',
  notFound: 'Refund not found.',
  eventNotFound: 'Event not found.',
  notOwner: "Only the organiser of this event or an administrator can see its refunds.",
  retryOnlyFailed: (status: RefundStatus) =>
    `Only a failed refund can be retried; this one is ${status}${status === 'succeeded' ? ' already' : status === 'due' ? ' and will be sent shortly' : ' and waiting for M-Pesa'}.`,
} as const;

/**
 * The one rule every refund is created by, whatever its reason, inside the caller's transaction (the
 * one that flags the order, or cancels the event): the payment is locked, so refunds of one payment are
 * made one at a time, and a refund never takes more than what earlier refunds left of it. Without an
 * amount it refunds all that is left, and nothing when nothing is left (so repeating it changes
 * nothing); with `upTo` (a holder cancelling their tickets) that much, or what is left when that is
 * less. A refund of the whole payment reverses its STK receipt; a partial one (or a payment without a
 * receipt) is a B2C payout.
 */
export function createRefundLedger(executor: Executor) {
  const repo = createRefundsRepository(executor);
  type PaymentRow = NonNullable<Awaited<ReturnType<typeof repo.lockPayment>>>;

  /**
   * Due refunds and their first transition. A refund of the whole payment reverses its STK receipt; a partial one is a B2C payout.
   * Each carries its share of the platform fee (docs/decisions/fees.md): the buyer gets back what they paid, fee
   * included, so a refund of all that is left of a payment gives back all that is left of its fee, and a smaller one
   * the fee's share of it in proportion, rounded down (the last refund takes the remainder).
   */
  async function insertDue(entries: Array<{ payment: PaymentRow; amount: number; left: number; feeAmount?: number | undefined }>, reason: RefundReason, detail: string | undefined, now: Date) {
    if (entries.length === 0) return [];
    const fees = await repo.feesOfEach(entries.map((entry) => entry.payment.id));
    const feeShare = (payment: PaymentRow, amount: number, left: number) => {
      const { fee, refunded } = fees.get(payment.id) ?? { fee: 0, refunded: 0 };
      const feeLeft = Math.max(fee - refunded, 0);
      return Math.min(amount >= left ? feeLeft : Math.floor((amount * fee) / payment.amount), feeLeft, amount);
    };
    const inserted = await repo.insertRefunds(
      entries.map(({ payment, amount, left, feeAmount }) => ({
        feeAmount: feeAmount ?? feeShare(payment, amount, left),
        id: newId(),
        orderId: payment.orderId,
        paymentId: payment.id,
        userId: payment.userId,
        eventId: payment.eventId,
        amount,
        phone: payment.phone,
        reason,
        method: amount === payment.amount && payment.mpesaReceiptNumber ? ('reversal' as const) : ('b2c' as const),
        status: 'due' as const,
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      })),
    );
    await repo.recordTransitions(inserted.map((refund) => ({ refundId: refund.id, from: null, to: 'due' as const, detail: detail ?? reason, at: now })));
    await createLedger(executor).refundsOwed(inserted);
    return inserted;
  }

  return {
    async createRefund(input: {
      paymentId: string;
      reason: RefundReason;
      amount?: number | undefined;
      /** Instead of `amount`: this much, or what is left when that is less (nothing when nothing is left). */
      upTo?: number | undefined;
      detail?: string | undefined;
      now?: Date | undefined;
      /** The fee share this refund gives back, instead of the proportional one: 0 for an overpayment's difference (no fee was charged on it). */
      feeAmount?: number | undefined;
    }): Promise<RefundRow | undefined> {
      const payment = await repo.lockPayment(input.paymentId);
      if (!payment || payment.status !== 'success') throw AppError.conflict('payment_not_refundable', refundMessages.notRefundable);
      const left = payment.amount - (await repo.takenFrom(payment.id));
      const wanted = input.upTo === undefined ? input.amount : Math.min(input.upTo, left);
      if (wanted === undefined ? left <= 0 : input.upTo !== undefined && wanted <= 0) return undefined;
      const amount = wanted ?? left;
      if (!Number.isInteger(amount) || amount <= 0 || amount > left) {
        throw new AppError(409, 'refund_more_than_left', `A refund of ${amount} shillings is more than the ${Math.max(0, left)} left of this payment.`, {
          params: { amount, left: Math.max(0, left) },
          body: { left: Math.max(0, left) },
        });
      }
      const [refund] = await insertDue([{ payment, amount, left, feeAmount: input.feeAmount }], input.reason, input.detail, input.now ?? new Date());
      return refund;
    },

    /**
     * An administrator refunds a Paybill payment no order claims instead of placing it (docs/decisions/paybill.md):
     * the whole of it, by a reversal of its TransID (M-Pesa may mask the payer's number, so there is nowhere to send
     * a B2C payout), from the unmatched receipts. The caller holds the unmatched row's lock and checked it waits.
     */
    async refundUnmatched(unmatched: UnmatchedPaymentRow, detail: string, now = new Date()): Promise<RefundRow> {
      const refund = await repo.insertRefund({
        id: newId(),
        unmatchedPaymentId: unmatched.id,
        amount: unmatched.amount,
        feeAmount: 0,
        phone: unmatched.msisdn,
        reason: 'admin',
        method: 'reversal',
        status: 'due',
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      });
      await repo.recordTransitions([{ refundId: refund.id, from: null, to: 'due', detail, at: now }]);
      await createLedger(executor).unmatchedRefundOwed(refund);
      return refund;
    },

    /**
     * All that is left of each of these payments, in a few statements whatever their number (an event
     * cancellation refunds every order at once); payments with nothing left get nothing. Same rule as
     * `createRefund` without an amount.
     */
    async refundWhatIsLeft(paymentIds: string[], reason: RefundReason, detail: string, now: Date): Promise<RefundRow[]> {
      const locked = await repo.lockPayments(paymentIds);
      if (locked.some((payment) => payment.status !== 'success')) throw AppError.conflict('payment_not_refundable', refundMessages.notRefundable);
      const taken = await repo.takenFromEach(locked.map((payment) => payment.id));
      const due = locked
        .map((payment) => {
          const left = payment.amount - (taken.get(payment.id) ?? 0);
          return { payment, amount: left, left };
        })
        .filter((entry) => entry.amount > 0);
      return insertDue(due, reason, detail, now);
    },
  };

}

export interface RefundsServiceDeps {
  db: Database;
  logger: Logger;
  /** REFUND_RETRY_BASE_MS: the wait after the first failed attempt (doubling, at most one hour). */
  retryBaseMs: number;
  /** REFUND_MAX_ATTEMPTS: attempts before a refund is left `failed` for an administrator. */
  maxAttempts: number;
  /** The payouts module's part of the audit (it owns the payouts' tables): M-Pesa's organiser payouts against ours. */
  auditPayouts: PayoutsAudit;
}


type RefundWithContext = Awaited<ReturnType<ReturnType<typeof createRefundsRepository>['listWithContext']>>[number];

/** A refund as the admin list shows it: the money going back and the paid order it comes from. */
function toAdminRefund(row: RefundWithContext) {
  return {
    _id: row.order.id,
    orderId: row.order.id,
    eventId: row.order.eventId,
    eventTitle: row.eventTitle,
    userId: row.order.userId,
    username: row.username,
    email: row.email,
    quantity: row.order.quantity,
    amount: row.payment.amount,
    phoneNumber: row.payment.phone,
    checkoutRequestId: row.payment.checkoutRequestId,
    mpesaReceiptNumber: row.payment.mpesaReceiptNumber,
    paidAt: row.payment.updatedAt.toISOString(),
    flaggedAt: row.refund.createdAt.toISOString(),
    refundId: row.refund.id,
    status: row.refund.status,
    refundAmount: row.refund.amount,
    method: row.refund.method,
    attempts: row.refund.attempts,
    nextAttemptAt: row.refund.nextAttemptAt.toISOString(),
    receipt: row.refund.receipt,
    reason: row.refund.reason,
  };
}

/**
 * The refund ledger's life (docs/decisions/refunds.md): the refunds job (refunds-job.ts) claims due refunds and
 * sends each attempt through the payment service, which reports what M-Pesa said; a refund moves due → sent →
 * succeeded | failed, a failed attempt back to due after a back-off. Every change of status writes a transition,
 * in the same transaction.
 */
export function createRefundsService(deps: RefundsServiceDeps) {
  const { db, logger } = deps;

  /** The failure of the refund's current attempt: due again after the back-off, or failed for good. */
  function afterFailure(refund: RefundRow, attempt: { method: RefundRow['method'] }, resultCode: string, now: Date) {
    const alreadyReversed = attempt.method === 'reversal' && resultCode === ALREADY_REVERSED;
    // A reversal that definitely failed is not tried again: the next attempt pays out by B2C, when there is a number
    // to pay (an unmatched Paybill payment's payer may be masked: it is reversed again).
    const method = attempt.method === 'reversal' && payablePhone(refund.phone) ? ('b2c' as const) : refund.method;
    if (alreadyReversed || refund.attempts >= deps.maxAttempts) {
      const why = alreadyReversed ? 'M-Pesa says the payment was already reversed: check before retrying' : `${refund.attempts} attempts failed`;
      return { status: 'failed' as const, method, nextAttemptAt: refund.nextAttemptAt, detail: why };
    }
    const wait = backoffMs(deps.retryBaseMs, refund.attempts);
    return { status: 'due' as const, method, nextAttemptAt: new Date(now.getTime() + wait), detail: `next attempt by ${method} in ${Math.round(wait / 1000)} s` };
  }

  return {
    /**
     * The refunds job's claim: in one transaction (FOR UPDATE SKIP LOCKED: two runs never get the same refund), each
     * due refund whose time has come gets a new attempt (`tukio-<refundId>-<n>`, the OriginatorConversationID M-Pesa
     * refuses twice) and becomes `sent`; the job then sends each once.
     */
    async claim(limit: number, now = new Date()) {
      return db.transaction(async (tx) => {
        const repo = createRefundsRepository(tx);
        const due = await repo.lockDue(now, limit);
        if (due.length === 0) return [];
        const claimed = due.map(({ refund, stkReceipt, eventTitle }) => ({
          refund,
          attempt: { id: newId(), refundId: refund.id, originatorConversationId: refundAttemptId(refund.id, refund.attempts + 1), method: refund.method, status: 'sent' as const, sentAt: now },
          stkReceipt,
          eventTitle,
        }));
        await repo.insertAttempts(claimed.map((one) => one.attempt));
        await repo.markSent(claimed.map((one) => one.refund.id), now);
        await repo.recordTransitions(
          claimed.map(({ refund, attempt }) => ({ refundId: refund.id, from: 'due', to: 'sent', detail: `attempt ${refund.attempts + 1} by ${attempt.method}`, at: now })),
        );
        return claimed.map(({ refund, attempt, stkReceipt, eventTitle }) => ({
          refundId: refund.id,
          originatorConversationId: attempt.originatorConversationId,
          method: attempt.method,
          amount: refund.amount,
          phone: payablePhone(refund.phone),
          receipt: stkReceipt,
          remarks: remarksFor(eventTitle),
        }));
      });
    },

    /** Daraja took the request (the send's answer): its ConversationID is kept, once. */
    async accepted(input: { originatorConversationId: string; conversationId: string }) {
      try {
        return await db.transaction(async (tx) => {
          const repo = createRefundsRepository(tx);
          const attempt = await repo.lockAttempt(input.originatorConversationId);
          if (!attempt) throw AppError.notFound('refund_attempt_unknown', refundMessages.unknownAttempt);
          if (attempt.conversationId !== null) {
            if (attempt.conversationId !== input.conversationId) throw AppError.conflict('refund_attempt_other_conversation', 'This attempt was already accepted under another ConversationID.');
            return { changed: false };
          }
          await repo.updateAttempt(attempt.id, { conversationId: input.conversationId });
          return { changed: true };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.conflict('refund_conversation_taken', 'This ConversationID belongs to another attempt.');
        throw error;
      }
    },

    /**
     * POST /api/internal/refunds/result: a definite answer for an attempt, recorded once. A result for an
     * attempt already final changes nothing (a duplicate or late callback).
     */
    async result(input: RefundResultRequest) {
      const success = input.resultCode === '0' && input.source !== 'rejected';
      try {
        return await db.transaction(async (tx) => {
          const repo = createRefundsRepository(tx);
          // Lock order: attempt, then its refund (the claim locks refunds only, and never waits on an attempt).
          const attempt = await repo.lockAttempt(input.originatorConversationId);
          if (!attempt) throw AppError.notFound('refund_attempt_unknown', refundMessages.unknownAttempt);
          const refund = (await repo.lockRefund(attempt.refundId))!;
          if (attempt.status !== 'sent') return { refundId: refund.id, status: refund.status, changed: false };
          if (success) {
            if (input.amount !== undefined && Math.round(input.amount * 100) !== refund.amount * 100) throw doubtful(`amount ${input.amount} is not the refund's ${refund.amount}`);
            if (!input.transactionId) throw doubtful('a success names no TransactionID');
          }
          const now = new Date();
          const conversationId = attempt.conversationId ?? input.conversationId ?? null;
          const finished = { conversationId, resultCode: input.resultCode, resultDesc: input.resultDesc.slice(0, 1000), finishedAt: now };
          if (success) {
            await repo.updateAttempt(attempt.id, { ...finished, status: 'succeeded', transactionId: input.transactionId! });
            // Already paid through another attempt: the attempt keeps what M-Pesa said, and the audit reports it.
            if (refund.status === 'succeeded') {
              logger.error(`refund ${refund.id}: attempt ${attempt.originatorConversationId} succeeded too (${input.transactionId}); paid twice`);
              return { refundId: refund.id, status: refund.status, changed: true };
            }
            await repo.updateRefund(refund.id, { status: 'succeeded', receipt: input.transactionId!, updatedAt: now });
            await repo.recordTransitions([{ refundId: refund.id, from: refund.status, to: 'succeeded', detail: `${input.transactionId} (${input.source})`, at: now }]);
            await createLedger(tx).refundPaid(refund);
            // A refund of an unmatched Paybill payment has no event, so no organiser to tell.
            if (refund.eventId) await emitWebhook(tx, (await findEvent(tx, refund.eventId))!.userId, 'refund.succeeded', { refundId: refund.id, orderId: refund.orderId, eventId: refund.eventId, amount: refund.amount, reason: refund.reason, receipt: input.transactionId! });
            if (refund.unmatchedPaymentId) await createPaybillRepository(tx).markRefunded(refund.unmatchedPaymentId);
            return { refundId: refund.id, status: 'succeeded' as const, changed: true };
          }
          await repo.updateAttempt(attempt.id, { ...finished, status: 'failed' });
          if (refund.status !== 'sent') return { refundId: refund.id, status: refund.status, changed: true };
          const next = afterFailure(refund, attempt, input.resultCode, now);
          await repo.updateRefund(refund.id, { status: next.status, method: next.method, nextAttemptAt: next.nextAttemptAt, updatedAt: now });
          await repo.recordTransitions([
            { refundId: refund.id, from: 'sent', to: next.status, detail: `${input.source} ${input.resultCode}: ${input.resultDesc}; ${next.detail}`, at: now },
          ]);
          return { refundId: refund.id, status: next.status, changed: true };
        });
      } catch (error) {
        // The unique indexes refuse a TransactionID (or ConversationID) already used by another attempt or refund.
        if (isUniqueViolation(error)) throw doubtful('its TransactionID or ConversationID belongs to another refund');
        throw error;
      }
    },

    /** POST /api/internal/audit: what M-Pesa reports as completed, against the ledger (refunds-audit.ts). */
    audit: (input: z.output<typeof auditRequest>) => auditLedger(db, input, deps.auditPayouts),

    /** POST /api/admin/refunds/:id/retry: a failed refund becomes due again, now (one more attempt). */
    async retry(refundId: string, admin: AuthUser) {
      return db.transaction(async (tx) => {
        const repo = createRefundsRepository(tx);
        const refund = await repo.lockRefund(refundId);
        if (!refund) throw AppError.notFound('refund_not_found', refundMessages.notFound);
        if (refund.status !== 'failed') throw new AppError(409, 'refund_retry_only_failed', refundMessages.retryOnlyFailed(refund.status), { params: { status: refund.status }, body: { status: refund.status } });
        const now = new Date();
        await repo.updateRefund(refund.id, { status: 'due', nextAttemptAt: now, updatedAt: now });
        await repo.recordTransitions([{ refundId: refund.id, from: 'failed', to: 'due', detail: `retried by ${admin.username}`, at: now }]);
        return { refundId: refund.id, status: 'due' as const, method: refund.method, attempts: refund.attempts, nextAttemptAt: now.toISOString() };
      });
    },

    /**
     * GET /api/events/:id/refunds: what left the event's seats (tickets cancelled by their holders, voided by
     * the event's cancellation, transferred) and its refunds, totalled by status and listed. For its
     * organiser or an admin; buyers appear by username only, as on the attendee list (no phone, no email).
     */
    async forEvent(eventId: string, user: AuthUser) {
      const event = await findEvent(db, eventId);
      // A pending event is answered as missing to strangers, as everywhere else.
      if (!event || !canSeeEvent(event, user)) throw AppError.notFound('event_not_found', refundMessages.eventNotFound);
      requireOwner(user, event.userId, { code: 'refunds_not_organiser', message: refundMessages.notOwner });
      const repo = createRefundsRepository(db);
      const [voided, rows] = await Promise.all([repo.voidTicketCounts(eventId), repo.listForEvent(eventId)]);
      const voidedBy = (reason: string) => voided.find((row) => row.reason === reason)?.n ?? 0;
      const byStatus = Object.fromEntries(REFUND_STATUSES.map((status) => [status, { count: 0, amount: 0 }])) as Record<RefundStatus, { count: number; amount: number }>;
      for (const row of rows) {
        byStatus[row.status].count += 1;
        byStatus[row.status].amount += row.amount;
      }
      return {
        eventId,
        tickets: { cancelledByHolders: voidedBy('self_cancel'), voidedByCancellation: voidedBy('event_cancelled'), transferred: voidedBy('transferred') },
        total: { count: rows.length, amount: rows.reduce((sum, row) => sum + row.amount, 0) },
        byStatus,
        refunds: rows.map((row) => ({
          refundId: row.id,
          // A guest buyer by the masked phone, never their placeholder account (which spells the whole number).
          username: row.guestPhone ? `Guest ${maskKenyanPhone(row.guestPhone)}` : row.username,
          guest: Boolean(row.guestPhone),
          amount: row.amount,
          reason: row.reason,
          status: row.status,
          receipt: row.status === 'succeeded' ? row.receipt : null,
          createdAt: row.createdAt.toISOString(),
          updatedAt: row.updatedAt.toISOString(),
        })),
      };
    },

    /**
     * GET /api/admin/refunds: every refund (or those of one status), newest first. The fields of the
     * list before the ledger keep their meaning (`_id` and `orderId` the order, `amount` the payment's);
     * the refund's own are added.
     */
    async list(status?: RefundStatus) {
      const rows = await createRefundsRepository(db).listWithContext(status);
      return rows.map(toAdminRefund);
    },

    /** GET /api/admin/refunds/paged: a page of them, newest first. */
    async listPage(query: { status?: RefundStatus | undefined; limit: number; cursor?: CursorKey | undefined }) {
      const repo = createRefundsRepository(db);
      const [rows, total] = await Promise.all([repo.pageWithContext(query.status, query.cursor, query.limit), repo.count(query.status)]);
      const page = toPage(rows, query.limit, total, (row) => [row.createdAtMicros, row.refund.id]);
      return { ...page, items: page.items.map(toAdminRefund) };
    },
  };
}

export type RefundsService = ReturnType<typeof createRefundsService>;
