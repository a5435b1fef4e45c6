import {
  C2B_ACCEPT,
  C2B_REJECTIONS,
  normaliseOrderCode,
  paybillCheckoutId,
  type C2bConfirmationRequest,
  type C2bConfirmationResponse,
  type C2bValidateRequest,
  type C2bValidateResponse,
} from '@tukio/shared/internal-c2b';
import { KENYAN_PHONE_PATTERN } from '@tukio/shared/phone';
import type { Database } from '../../db/database.js';
import type { Logger } from '../../lib/logger.js';
import { createLedger } from '../ledger/index.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthUser } from '../auth/index.js';
import { createPaybillRepository, type UnmatchedPaymentRow } from './paybill.repository.js';
import type { OrderRow } from './payments.repository.js';
import { createRefundLedger } from './refunds.service.js';
import type { SettleInput, SettlePaymentHandler } from './settle-payment.handler.js';

/**
 * Orders a Paybill payment may still pay: held, or let go (hold ran out, prompt dismissed or failed), which the
 * settle path treats as a late payment (tickets while seats remain, else a refund). A paid order is not open.
 */
const OPEN_STATUSES: ReadonlyArray<OrderRow['status']> = ['pending', 'expired', 'cancelled', 'failed'];

export const unmatchedMessages = {
  notFound: 'Unmatched payment not found.',
  resolved: 'This payment was already placed or refunded.',
  orderUnknown: 'No order has that order number.',
} as const;

/**
 * The amounts a Paybill payment to an order may be (in cents): exactly its price; on an instalment plan
 * (docs/decisions/instalments.md) anything from its deposit to its price while held, and any whole shillings
 * from 1 to what is left once it is a reservation.
 */
function acceptedAmount(order: OrderRow, cents: number): boolean {
  if (cents % 100 !== 0) return false;
  const shillings = cents / 100;
  if (order.status === 'reserved') return shillings >= 1 && shillings <= order.amount - order.instalmentPaid;
  if (order.instalmentDeposit !== null) return shillings >= order.instalmentDeposit && shillings <= order.amount;
  return shillings === order.amount;
}

/** Daraja v2 masks the payer's number: a refund of a difference then goes to the phone the order was held with. */
const phoneOf = (msisdn: string) => (KENYAN_PHONE_PATTERN.test(msisdn) ? msisdn : null);

/** A Paybill payment as the settle path takes it: a success M-Pesa confirmed, its receipt the TransID. */
const paybillResult = (input: Pick<C2bConfirmationRequest, 'transId' | 'msisdn' | 'transTime'>, amount: number, checkoutRequestId: string): SettleInput => ({
  checkoutRequestId,
  resultCode: 0,
  resultDesc: 'Paid from the M-Pesa menu (Paybill).',
  amount,
  mpesaReceiptNumber: input.transId,
  phone: phoneOf(input.msisdn) ?? undefined,
  transactionDate: input.transTime,
  source: 'c2b',
});

/** An unmatched payment as the admin queue shows it. */
const toAdminUnmatched = (row: UnmatchedPaymentRow) => ({
  _id: row.id,
  transId: row.transId,
  billRefNumber: row.billRefNumber,
  amount: row.amount,
  msisdn: row.msisdn,
  shortCode: row.shortCode,
  transTime: row.transTime,
  status: row.status,
  paymentId: row.paymentId,
  resolvedAt: row.resolvedAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});


/**
 * Paybill payments (docs/decisions/paybill.md): M-Pesa's validation question ("may this payment go ahead?") and
 * its confirmation, settled through the one settle path as a payment of the order whose code is the account
 * number; a payment no order claims waits in unmatched_payments for an administrator.
 */
export function createPaybillHandler(deps: { db: Database; settle: SettlePaymentHandler; logger: Logger }) {
  const { db, logger } = deps;

  async function findOrder(billRefNumber: string) {
    const code = normaliseOrderCode(billRefNumber);
    return code ? createPaybillRepository(db).findOrderByCode(code) : undefined;
  }

  return {
    /** Accepts a payment of exactly an open order's amount to its code; anything else is rejected with Daraja's code. */
    async validate(input: C2bValidateRequest): Promise<C2bValidateResponse> {
      const order = await findOrder(input.billRefNumber);
      if (!order || !(OPEN_STATUSES.includes(order.status) || order.status === 'reserved')) return { resultCode: C2B_REJECTIONS.invalidAccount, resultDesc: 'Rejected' };
      const cents = Math.round(input.amount * 100);
      return acceptedAmount(order, cents) ? { resultCode: C2B_ACCEPT, resultDesc: 'Accepted' } : { resultCode: C2B_REJECTIONS.invalidAmount, resultDesc: 'Rejected' };
    },

    /** The admin queue of Paybill payments no order claims, newest first. */
    async listUnmatched(status?: UnmatchedPaymentRow['status']) {
      const rows = await createPaybillRepository(db).listUnmatched(status);
      return rows.map(toAdminUnmatched);
    },

    /**
     * An administrator places an unmatched payment on the order the payer meant (by its order code): it leaves the
     * unmatched receipts and settles as that order's payment, by the one settle path (tickets, or refunds when it
     * buys nothing or too much), all in one transaction.
     */
    async attach(unmatchedId: string, orderCode: string, admin: AuthUser) {
      const code = normaliseOrderCode(orderCode);
      const order = code ? await createPaybillRepository(db).findOrderByCode(code) : undefined;
      if (!order) throw AppError.notFound('order_code_unknown', unmatchedMessages.orderUnknown);
      const row = await createPaybillRepository(db).findUnmatched(unmatchedId);
      if (!row) throw AppError.notFound('unmatched_payment_not_found', unmatchedMessages.notFound);
      const checkoutRequestId = paybillCheckoutId(row.transId);
      const settled = await deps.settle.handle(paybillResult({ ...row, msisdn: row.msisdn, transTime: row.transTime ?? undefined }, row.amount, checkoutRequestId), async (tx) => {
        const repo = createPaybillRepository(tx);
        const locked = await repo.lockUnmatched(unmatchedId);
        if (locked?.status !== 'waiting') throw AppError.conflict('unmatched_payment_resolved', unmatchedMessages.resolved);
        const payment = await repo.insertPaybillPayment({ orderId: order.id, checkoutRequestId, phone: phoneOf(locked.msisdn), amount: locked.amount });
        if (!payment) throw AppError.conflict('unmatched_payment_resolved', unmatchedMessages.resolved);
        await createLedger(tx).unmatchedPlaced(locked);
        await repo.resolveUnmatched(locked.id, { status: 'attached', paymentId: payment.id, resolvedBy: admin.id });
      });
      logger.info(`unmatched Paybill payment ${row.transId} attached to order ${order.id} by ${admin.id}: ${settled.orderStatus}`);
      return { unmatchedId, status: 'attached' as const, orderId: order.id, orderStatus: settled.orderStatus, ticketsIssued: settled.ticketsIssued };
    },

    /**
     * An administrator refunds an unmatched payment instead of placing it (the payer meant no order of ours): a refund
     * of the whole of it, reversed by its TransID by the refunds job, and the payment `refunding` until M-Pesa
     * reversed it (then `refunded`), in one transaction. Already placed or refunded: 409.
     */
    async refund(unmatchedId: string, reason: string, admin: AuthUser) {
      const refund = await db.transaction(async (tx) => {
        const repo = createPaybillRepository(tx);
        const locked = await repo.lockUnmatched(unmatchedId);
        if (!locked) throw AppError.notFound('unmatched_payment_not_found', unmatchedMessages.notFound);
        if (locked.status !== 'waiting') throw AppError.conflict('unmatched_payment_resolved', unmatchedMessages.resolved);
        await repo.markRefunding(locked.id, admin.id);
        return createRefundLedger(tx).refundUnmatched(locked, `unmatched Paybill payment refunded by ${admin.username}: ${reason}`);
      });
      logger.info(`unmatched Paybill payment ${unmatchedId} refunded by ${admin.id}: refund ${refund.id}`);
      return { unmatchedId, status: 'refunding' as const, refundId: refund.id, refundStatus: refund.status, amount: refund.amount, method: refund.method };
    },

    /** Settles a confirmed Paybill payment once (by TransID); odd ones are refunded by the settle path, unclaimed ones kept. */
    async confirm(input: C2bConfirmationRequest): Promise<C2bConfirmationResponse> {
      const amount = Math.round(input.amount);
      const order = await findOrder(input.billRefNumber);
      if (!order) return keepUnmatched(input, amount);
      return settleForOrder(order.id, input, amount);
    },
  };

  async function keepUnmatched(input: C2bConfirmationRequest, amount: number): Promise<C2bConfirmationResponse> {
    const kept = await db.transaction(async (tx) => {
      const row = await createPaybillRepository(tx).insertUnmatched({ ...input, amount });
      if (row) await createLedger(tx).unmatchedReceived(row);
      return row;
    });
    if (kept) logger.error(`Paybill payment ${input.transId} of ${amount} to account "${input.billRefNumber}" matches no order: waiting for an administrator`);
    return { outcome: kept ? 'unmatched' : 'duplicate' };
  }

  async function settleForOrder(orderId: string, input: C2bConfirmationRequest, amount: number): Promise<C2bConfirmationResponse> {
    const checkoutRequestId = paybillCheckoutId(input.transId);
    const settled = await deps.settle.handle(paybillResult(input, amount, checkoutRequestId), (tx) =>
      createPaybillRepository(tx).insertPaybillPayment({ orderId, checkoutRequestId, phone: phoneOf(input.msisdn), amount }),
    );
    return { outcome: settled.changed ? 'settled' : 'duplicate', orderStatus: settled.orderStatus };
  }
}

export type PaybillHandler = ReturnType<typeof createPaybillHandler>;
