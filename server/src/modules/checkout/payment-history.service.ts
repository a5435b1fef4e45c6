import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { toPage, type CursorKey } from '../../lib/keyset-page.js';
import { createGuestCheckoutRepository } from './guest-checkout.repository.js';
import type { GuestTicketLinks } from './guest-ticket-links.js';
import { moveGuestOrder } from './move-guest-order.js';
import { describePayment } from './payment-view.js';
import { createPaymentsRepository } from './payments.repository.js';

type PaymentsRepository = ReturnType<typeof createPaymentsRepository>;

/** Payment attempts as GET /api/transactions/:userId answers them, each with its latest refund. */
async function toTransactions(repo: PaymentsRepository, rows: Awaited<ReturnType<PaymentsRepository['listForUser']>>) {
  const refunds = await repo.latestRefunds(rows.map((row) => row.payment.id));
  return rows.map(({ payment, title, orderStatus, quantity, feeAmount, feeMode }) => ({
    _id: payment.id,
    name: title,
    eventId: payment.eventId,
    checkoutRequestId: payment.checkoutRequestId,
    phoneNumber: payment.phone,
    amount: payment.amount,
    quantity,
    date: payment.createdAt.toISOString(),
    paymentStatus: payment.status,
    orderStatus,
    resultDesc: payment.resultDesc,
    createdAt: payment.createdAt.toISOString(),
    mpesaReceiptNumber: payment.mpesaReceiptNumber,
    // The payment's latest refund, if any (null when none).
    refundStatus: refunds.get(payment.id)?.status ?? null,
    refundAmount: refunds.get(payment.id)?.amount ?? null,
    refundReceipt: refunds.get(payment.id)?.receipt ?? null,
    // The platform fee inside `amount` (docs/decisions/fees.md) and who bore it.
    fee: feeAmount,
    feeMode,
  }));
}


/** What buyers read about their payments: one payment's status, and their payment history. */
export function createPaymentHistory(deps: { db: Database; guestLinks?: GuestTicketLinks | undefined }) {
  const { db } = deps;
  const service = {
    /**
     * Payment status for its owner; a guest's checkout is answered to whoever holds its CheckoutRequestID
     * (the guest has no token). Anyone else is told there is nothing to confirm.
     */
    async statusFor(userId: string | undefined, checkoutRequestId: string) {
      const row = await createPaymentsRepository(db).withOrder(checkoutRequestId);
      if (!row) throw AppError.notFound('no_payment_to_confirm', 'No payment to confirm.');
      // Bought by a phone's shadow account (a guest checkout): answered to whoever holds its CheckoutRequestID.
      const guest = Boolean(row.buyerGuestPhone);
      if (row.payment.userId !== userId && !guest) throw AppError.notFound('no_payment_to_confirm', 'No payment to confirm.');
      const view = describePayment(row.payment, row.order, row.title);
      // The guest has no account to find the tickets in: the answer links to their page, as the SMS does.
      return guest && view.success && deps.guestLinks ? { ...view, ticketToken: deps.guestLinks.token(row.order.id) } : view;
    },

    /** GET /api/transactions/:userId: every attempt the server recorded, newest first. */
    async transactions(userId: string) {
      const repo = createPaymentsRepository(db);
      return toTransactions(repo, await repo.listForUser(userId));
    },

    /** GET /api/transactions/:userId/paged: a page of them, newest first. */
    async transactionsPage(userId: string, query: { limit: number; cursor?: CursorKey | undefined }) {
      const repo = createPaymentsRepository(db);
      const [rows, total] = await Promise.all([repo.pageForUser(userId, query.cursor, query.limit), repo.countForUser(userId)]);
      const page = toPage(rows, query.limit, total, (row) => [row.createdAtMicros, row.payment.id]);
      return { ...page, items: await toTransactions(repo, page.items) };
    },

    /** POST /api/transactions: the client can only point at a record the server already holds. */
    async findTransaction(userId: string, checkoutRequestId: string) {
      const all = await service.transactions(userId);
      const found = all.find((row) => row.checkoutRequestId === checkoutRequestId);
      if (found) return found;
      const other = await createGuestCheckoutRepository(db).paymentOwner(checkoutRequestId);
      // A guest checkout paid by this signed-in buyer (a client that paid without its token): the order
      // is theirs now. The move itself refuses a second taker; anything unpaid stays where it is.
      if (other?.guestPhone && other.paymentStatus === 'success' && other.orderStatus === 'paid') {
        const moved = await moveGuestOrder(db, other.orderId, other.userId, userId);
        const attached = moved ? (await service.transactions(userId)).find((row) => row.checkoutRequestId === checkoutRequestId) : undefined;
        if (attached) return attached;
      }
      if (other) throw AppError.forbidden('transaction_other_account', 'This transaction belongs to another account.');
      throw AppError.notFound('transaction_not_recorded', 'No payment with that CheckoutRequestID was recorded. Transactions are recorded by the server when the payment is made.');
    },

  };
  return service;
}

export type PaymentHistory = ReturnType<typeof createPaymentHistory>;
