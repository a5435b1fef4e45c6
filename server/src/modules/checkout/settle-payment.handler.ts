import type { SettleRequest } from '@tukio/shared/internal-api';
import type { Database, Executor } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { translate, type Language } from '../../lib/i18n.js';
import type { Logger } from '../../lib/logger.js';
import type { Metrics } from '../../lib/metrics.js';
import { mpesaCharge, type MpesaTariff } from '../fees/index.js';
import { createLedger } from '../ledger/index.js';
import type { SmsService } from '../sms/index.js';
import { eventSeats, ticketRecords, type TicketsService } from '../tickets/index.js';
import { emitWebhook } from '../webhooks/index.js';
import { buildAdminContradictionMail, buildBuyerContradictionMail, type ContradictionNotice } from './contradiction-mail.js';
import type { GuestTicketLinks } from './guest-ticket-links.js';
import { applyToReservation } from './instalment-plan.js';
import { describePayment, type PaymentView } from './payment-view.js';
import { createPaymentsRepository, type OrderRow, type PaymentRow, type PaymentStatus } from './payments.repository.js';
import { createRefundLedger } from './refunds.service.js';

export interface SettlePaymentDeps {
  db: Database;
  tickets: TicketsService;
  logger: Logger;
  /** payment_settlements_total{status}: counted once per result actually recorded. */
  metrics?: Pick<Metrics, 'settlements'> | undefined;
  /** M-Pesa's charges (docs/decisions/fees.md): the receiving charge of each payment is recorded as Tukio's cost. None when absent. */
  mpesaTariff?: MpesaTariff | undefined;
  /** Guest orders' tickets go to the phone by SMS, as a link to their ticket page (docs/decisions/guest-checkout.md). */
  guests?: { links: GuestTicketLinks; sms: Pick<SmsService, 'enqueue'> } | undefined;
  /**
   * The buyer may pay from the M-Pesa menu instead (a Paybill number is offered, docs/decisions/paybill.md): a prompt
   * that is dismissed or fails then keeps its order's seats held until the hold's expiry, as the dialog promises.
   */
  paybillOffered?: boolean | undefined;
}

/**
 * What settle takes: a Daraja result as the payment service sends it, or (`c2b`) a Paybill payment M-Pesa
 * confirmed, which `handlePaybill` builds itself: never accepted over the wire, so no caller can claim it.
 */
export type SettleInput = Omit<SettleRequest, 'source'> & { source: SettleRequest['source'] | 'c2b' };

export interface SettleResult {
  checkoutRequestId: string;
  status: PaymentStatus;
  orderStatus: OrderRow['status'];
  ticketsIssued: number;
  /** False when the result was already recorded (a duplicate callback or a repeated query). */
  changed: boolean;
  /** The payment as its owner's status call would describe it now, so the payment service can answer polls itself. */
  view?: PaymentView | undefined;
}

/** Daraja result codes as a payment status: 1032 is the user pressing Cancel, anything else non-zero is a failure. */
export const statusForResult = (code: number): PaymentStatus => (code === 0 ? 'success' : code === 1032 ? 'cancelled' : 'failed');

/** Thrown for a callback that does not match its push; the payment service then asks Daraja directly. */
const doubtful = (reason: string) => new AppError(409, 'callback_doubtful', `Callback not accepted: ${reason}`, { params: { reason }, body: { doubtful: true, reason } });

/** Drizzle wraps driver errors; the unique-violation code sits on the error or its cause. */
function isUniqueViolation(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 4; current = (current as { cause?: unknown }).cause, depth += 1) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/**
 * A success M-Pesa itself stands behind: its STK query answered it, or agreed with the callback before it was sent
 * here. A Paybill confirmation has no query to ask (its reconciliation is Pull Transactions, docs/decisions/paybill.md):
 * it is believed as M-Pesa sent it, to the payment service's unguessable confirmation URL.
 */
const confirmedByProvider = (input: SettleInput) => input.source === 'query' || input.source === 'c2b' || input.providerConfirmed === true;

/** A hold this far from expiry is certainly still counted by any concurrent checkout. */
const HOLD_SAFETY_MS = 30_000;

type PaymentsRepository = ReturnType<typeof createPaymentsRepository>;
/** The locked payment with its event and buyer, and its locked order: all the settlement reads. */
type SettlementView = NonNullable<Awaited<ReturnType<PaymentsRepository['lockPaymentForSettlement']>>> & { order: OrderRow };

/** Who tickets were issued to: a guest's shadow account has a phone, and maybe an email given at checkout. */
interface IssuedTo {
  userId: string;
  eventId: string;
  orderId: string;
  contact: { email: string; username: string; guestPhone: string | null; language: Language };
  guestEmail: string | null;
  event: { id: string; title: string; startsAt: Date; location: string };
  payment: { amount: number; receipt: string | null; fee: { amount: number; mode: 'absorbed' | 'on_top' } };
}

const issuedTo = (view: SettlementView, input: SettleInput): IssuedTo => ({
  userId: view.payment.userId,
  eventId: view.payment.eventId,
  orderId: view.order.id,
  contact: view.contact,
  guestEmail: view.order.guestEmail,
  event: view.event,
  // An order paid in instalments says its whole price (docs/decisions/instalments.md), not its last part.
  payment: { amount: view.order.instalmentDeposit === null ? view.payment.amount : view.order.amount, receipt: input.mpesaReceiptNumber ?? null, fee: { amount: view.order.feeAmount, mode: view.order.feeMode } },
});

/** Callbacks are unsigned: one that does not match its push is doubtful, and the payment service asks Daraja instead. */
function refuseMismatchedCallback(input: SettleInput, newStatus: PaymentStatus, known: SettlementView['payment']) {
  if (input.source !== 'callback') return;
  if (input.merchantRequestId && known.merchantRequestId && input.merchantRequestId !== known.merchantRequestId) {
    throw doubtful('MerchantRequestID does not match the push');
  }
  if (newStatus === 'success') {
    if (input.amount === undefined || Math.round(input.amount * 100) !== known.amount * 100) throw doubtful('amount does not match the push');
    if (!input.phone || input.phone !== known.phone) throw doubtful('phone number does not match the push');
    if (!input.mpesaReceiptNumber) throw doubtful('no receipt number');
  }
}

/**
 * Records a Daraja result exactly once, in one transaction with the payment and its order locked: a success
 * issues the tickets (each of the type and price it was bought as); one that arrives after its hold ran out gets
 * tickets only if seats remain, else the order is refund_due with its refund row; a failure or cancellation
 * releases the seats (unless the Paybill is offered: then they stay held until the hold's expiry); a success M-Pesa's own query contradicts voids what it issued. Duplicates change nothing.
 */
export function createSettlePaymentHandler(deps: SettlePaymentDeps) {
  const { db, tickets, logger } = deps;
  /** Told after the commit of each result actually recorded (the buyer's dialog is pushed the news: payment-updates.socket.ts). */
  const settledListeners = new Set<(settled: { checkoutRequestId: string; status: PaymentStatus }) => void>();

  /** A failed or dismissed prompt leaves a live hold alone while the buyer can still pay it from the M-Pesa menu. */
  const keepsHoldForPaybill = (order: OrderRow, now: Date) =>
    deps.paybillOffered === true && order.status === 'pending' && order.holdExpiresAt !== null && order.holdExpiresAt > now;

  /**
   * Tells the buyer their tickets are issued: a member by email; a guest by SMS (a link to the order's
   * ticket page) and by email only to the address given at checkout, never to the shadow account's placeholder.
   */
  async function announce(to: IssuedTo, issued: Array<{ id: string; code: string }>): Promise<void> {
    const guestPhone = to.contact.guestPhone;
    if (!guestPhone) {
      await tickets.afterIssue(to.userId, to.eventId, issued, { contact: to.contact, event: to.event, payment: to.payment });
      return;
    }
    const language = to.contact.language;
    const guestContact = to.guestEmail ? { email: to.guestEmail, username: null, language, ticketsUrl: deps.guests?.links.url(to.orderId) } : null;
    const mailed = tickets.afterIssue(to.userId, to.eventId, issued, { contact: guestContact, event: to.event, payment: to.payment });
    const guests = deps.guests;
    if (!guests) return mailed;
    const count = issued.length;
    const message = translate(language, 'tickets.guestSms', { count, title: to.event.title, url: guests.links.url(to.orderId) });
    // One SMS per order, however many settlement paths or instances get here.
    const texted = guests.sms
      .enqueue([{ purpose: 'guest-tickets', dedupeKey: `guest-tickets:${to.orderId}`, phone: guestPhone, message }])
      .catch((error: unknown) => logger.error(`guest ticket sms for order ${to.orderId} failed`, error));
    await Promise.all([mailed, texted]);
  }


  /** Writes the contradicted claim down (once per payment) and describes it for the notices. */
  async function recordContradiction(payments: PaymentsRepository, payment: PaymentRow, input: SettleInput, ticketsVoided: number): Promise<ContradictionNotice | undefined> {
    const claimedReceipt = payment.mpesaReceiptNumber ?? input.contradicts?.mpesaReceiptNumber ?? null;
    const recorded = await payments.recordContradiction({
      paymentId: payment.id,
      claimedReceipt,
      claimedAmount: input.contradicts?.amount === undefined ? payment.amount : Math.round(input.contradicts.amount),
      providerResultCode: input.resultCode,
      providerResultDesc: input.resultDesc.slice(0, 500),
      ticketsVoided,
    });
    if (!recorded) return undefined;
    logger.error(`M-Pesa contradicts a success callback for ${payment.checkoutRequestId} (${input.resultCode} ${input.resultDesc}); ${ticketsVoided} tickets voided`);
    return {
      checkoutRequestId: payment.checkoutRequestId,
      eventTitle: '',
      amount: payment.amount,
      phone: payment.phone,
      receipt: claimedReceipt,
      providerResultCode: input.resultCode,
      providerResultDesc: input.resultDesc.slice(0, 500),
      ticketsVoided,
    };
  }

  /**
   * A success recorded from a callback alone that M-Pesa's STK query now contradicts. Nothing is deleted:
   * the payment takes M-Pesa's status (keeping the claimed receipt), its tickets are voided
   * ('payment_reversed', freeing their seats), a paid order follows the payment, and the claim is recorded.
   */
  async function reverseContradictedSuccess(tx: Executor, payment: PaymentRow, order: OrderRow, newStatus: PaymentStatus, input: SettleInput) {
    const payments = createPaymentsRepository(tx);
    const updated = await payments.updatePayment(payment.id, { status: newStatus, resultCode: input.resultCode, resultDesc: input.resultDesc.slice(0, 500) });
    const voided = await ticketRecords(tx).voidForOrder(order.id, 'payment_reversed', new Date());
    const orderStatus = newStatus === 'cancelled' ? 'cancelled' : 'failed';
    const released = order.status === 'paid' ? await payments.setOrderStatus(order.id, orderStatus, ['paid']) : undefined;
    // A refund_due order (paid after its hold ran out) keeps its refund row for the admins to stop: that money never came.
    if (order.status === 'refund_due') logger.error(`order ${order.id} has a refund due for a payment M-Pesa contradicts: do not pay it out`);
    await createLedger(tx).paymentContradicted(payment);
    const notice = await recordContradiction(payments, payment, input, voided.length);
    const result: SettleResult = { checkoutRequestId: payment.checkoutRequestId, status: newStatus, orderStatus: released?.status ?? order.status, ticketsIssued: 0, changed: true };
    return { notice, result, payment: updated ?? payment };
  }

  /**
   * After the commit: the buyer learns their tickets no longer admit anyone (by email; a guest by SMS and
   * the email given at checkout), and every administrator gets the evidence. A claim caught before any
   * ticket was issued is only the admins' business: the buyer's dialog already shows M-Pesa's answer.
   */
  function tellAboutContradiction(view: SettlementView, found: ContradictionNotice) {
    const notice = { ...found, eventTitle: view.event.title };
    const { contact } = view;
    if (notice.ticketsVoided > 0) {
      const buyerEmail = contact.guestPhone ? view.order.guestEmail : contact.email;
      if (buyerEmail) {
        tickets.queueMail(`payment reversal notice for ${notice.checkoutRequestId}`, async () =>
          buildBuyerContradictionMail({ email: buyerEmail, username: contact.guestPhone ? null : contact.username, language: contact.language }, notice),
        );
      }
      if (contact.guestPhone && deps.guests) {
        const message = translate(contact.language, 'payments.reversedSms', { amount: notice.amount, title: notice.eventTitle, count: notice.ticketsVoided });
        deps.guests.sms
          .enqueue([{ purpose: 'payment-reversed', dedupeKey: `payment-reversed:${view.order.id}`, phone: contact.guestPhone, message }])
          .catch((error: unknown) => logger.error(`payment reversal sms for order ${view.order.id} failed`, error));
      }
    }
    tickets.queueMail(`payment contradiction notice to admins for ${notice.checkoutRequestId}`, async () => {
      const admins = await createPaymentsRepository(db).adminContacts();
      // queueMail sends one mail per call: the admins after the first get theirs queued from here.
      for (const admin of admins.slice(1)) tickets.queueMail(`payment contradiction notice to ${admin.email}`, async () => buildAdminContradictionMail(admin, notice));
      return admins[0] && buildAdminContradictionMail(admins[0], notice);
    });
  }

  /**
   * A payment towards a reservation, its order locked: what it owes is applied (more is refunded as an overpayment,
   * with no fee share), and when nothing is owed any more the tickets are issued exactly as a paid order's: seats
   * need no recount, the reservation held them.
   */
  async function payTowardsReservation(tx: Executor, order: OrderRow, payment: PaymentRow, organiserId: string): Promise<{ orderStatus: OrderRow['status']; issued: Array<{ id: string; code: string }> }> {
    const payments = createPaymentsRepository(tx);
    const { applied, overpaid, paysOff } = applyToReservation(payment.amount, order.amount - order.instalmentPaid);
    await payments.setInstalmentPaid(order.id, order.instalmentPaid + applied);
    if (overpaid > 0) await createRefundLedger(tx).createRefund({ paymentId: payment.id, reason: 'overpayment', amount: overpaid, feeAmount: 0 });
    if (!paysOff) {
      logger.info(`order ${order.id}: ${applied} paid towards its reservation, ${order.amount - order.instalmentPaid - applied} left`);
      return { orderStatus: 'reserved', issued: [] };
    }
    const rows = await tickets.issueInTransaction(tx, {
      eventId: order.eventId,
      userId: order.userId,
      orderId: order.id,
      quantity: order.quantity,
      now: new Date(),
      beforeActivity: () => payments.setOrderStatus(order.id, 'paid'),
    });
    await emitWebhook(tx, organiserId, 'order.paid', { orderId: order.id, eventId: order.eventId, quantity: order.quantity, amount: order.amount, tickets: rows.map((row) => row.id) });
    return { orderStatus: 'paid', issued: rows.map((row) => ({ id: row.id, code: row.code })) };
  }

  /**
   * Every result takes this one path, payment and order rows locked in one transaction: successes, failures and
   * cancellations, duplicates, a query upgrading a recorded failure or contradicting a recorded success, and a
   * success whose hold ran out (seats recounted under the event lock, or refund_due).
   */
  async function handle(input: SettleInput, prepare?: (tx: Executor) => Promise<unknown>): Promise<SettleResult> {
    const newStatus = statusForResult(input.resultCode);
    let issued: Array<{ id: string; code: string }> = [];
    let contradiction: ContradictionNotice | undefined;
    let settled: { result: SettleResult; view: SettlementView; payment: PaymentRow };
    try {
      settled = await db.transaction(async (tx) => {
        // A Paybill payment's row is written in the transaction that settles it: never seen pending by the reconciler.
        await prepare?.(tx);
        const seats = eventSeats(tx);
        const payments = createPaymentsRepository(tx);
        // Lock order: payment, then order, then (only when seats must be recounted) the event.
        // Nothing holds an event lock while waiting for a payment or order row, so no deadlock.
        const locked = await payments.lockPaymentForSettlement(input.checkoutRequestId);
        if (!locked) throw AppError.notFound('checkout_request_unknown', 'Unknown CheckoutRequestID.');
        refuseMismatchedCallback(input, newStatus, locked.payment);
        const order = await payments.lockOrder(locked.payment.orderId);
        if (!order) throw AppError.notFound('checkout_request_unknown', 'Unknown CheckoutRequestID.');
        const view: SettlementView = { ...locked, order };
        const { payment } = locked;
        const outcome = (result: SettleResult, latest: PaymentRow = payment) => ({ result, view, payment: latest });

        if (payment.status !== 'pending') {
          const same = payment.status === newStatus;
          if (same && input.contradicts && input.source === 'query' && newStatus !== 'success') {
            // The claim reached us after M-Pesa's real answer was recorded: still evidence worth keeping.
            contradiction = await recordContradiction(payments, payment, input, 0);
          }
          if (payment.status === 'success' && !payment.providerConfirmedAt) {
            // M-Pesa's own answer about a success recorded from a callback alone: it confirms it, or the
            // callback was forged (or M-Pesa reversed itself) and the tickets issued on it go void.
            if (same && confirmedByProvider(input)) {
              await payments.updatePayment(payment.id, { providerConfirmedAt: new Date() });
            } else if (!same && input.source === 'query') {
              const reversed = await reverseContradictedSuccess(tx, payment, order, newStatus, input);
              contradiction = reversed.notice;
              return outcome(reversed.result, reversed.payment);
            }
          }
          // Only Daraja's own answer may overturn a recorded failure (e.g. after a doubtful cancel).
          const upgrade = !same && newStatus === 'success' && input.source === 'query';
          if (!upgrade) {
            if (!same && input.source === 'callback') throw doubtful(`payment is already ${payment.status}`);
            return outcome({ checkoutRequestId: payment.checkoutRequestId, status: payment.status, orderStatus: order.status, ticketsIssued: 0, changed: false });
          }
        }

        const recorded =
          (await payments.updatePayment(payment.id, {
            status: newStatus,
            resultCode: input.resultCode,
            resultDesc: input.resultDesc.slice(0, 500),
            merchantRequestId: payment.merchantRequestId ?? input.merchantRequestId ?? null,
            ...(newStatus === 'success'
              ? { mpesaReceiptNumber: input.mpesaReceiptNumber ?? null, transactionDate: input.transactionDate ?? null, providerConfirmedAt: confirmedByProvider(input) ? new Date() : null }
              : {}),
          })) ?? payment;
        const changed = (orderStatus: OrderRow['status'], ticketsIssued = 0) => outcome({ checkoutRequestId: payment.checkoutRequestId, status: newStatus, orderStatus, ticketsIssued, changed: true }, recorded);

        if (input.contradicts && input.source === 'query' && newStatus !== 'success') {
          // Caught before any ticket was issued: the claim is kept as evidence for the admins and the audit.
          contradiction = await recordContradiction(payments, payment, input, 0);
        }
        if (newStatus !== 'success') {
          // The dialog now offers the Paybill with "pay before <hold's end>": the seats stay the buyer's until then
          // (the hold's expiry lets them go as for any hold), so a menu payment within it gets them.
          if (keepsHoldForPaybill(order, new Date())) return changed(order.status);
          const released = await payments.setOrderStatus(order.id, newStatus === 'cancelled' ? 'cancelled' : 'failed', ['pending']);
          return changed(released?.status ?? order.status);
        }
        // The order's fee as it was priced, and what M-Pesa charges to receive the payment, in the same posting.
        const receivingCharge = deps.mpesaTariff ? mpesaCharge('receive', recorded.amount, deps.mpesaTariff) : 0;
        if (order.status === 'reserved') {
          // A payment towards a reservation (docs/decisions/instalments.md): its deposit carried the whole fee, so this carries none.
          const towards = await payments.updatePayment(recorded.id, { feeShare: 0 });
          await createLedger(tx).paymentReceived({ ...recorded, feeAmount: 0, mpesaCharge: receivingCharge });
          const paidOff = await payTowardsReservation(tx, order, towards ?? recorded, view.event.organiserId);
          issued = paidOff.issued;
          return changed(paidOff.orderStatus, paidOff.issued.length);
        }
        await createLedger(tx).paymentReceived({ ...recorded, feeAmount: order.feeAmount, mpesaCharge: receivingCharge });
        // A payment that buys nothing goes back whole: the order was paid already (the prompt and the Paybill both
        // used: the first wins), its reservation lapsed, or it is less than the order's price (docs/decisions/paybill.md),
        // or on an instalment plan than its deposit (docs/decisions/instalments.md).
        const alreadyPaid = order.status === 'paid' || order.status === 'refund_due' || order.status === 'lapsed';
        const leastAccepted = order.instalmentDeposit ?? order.amount;
        if (alreadyPaid || recorded.amount < leastAccepted) {
          const reason = order.status === 'lapsed' ? 'late_payment' : alreadyPaid ? 'duplicate_payment' : 'underpayment';
          await createRefundLedger(tx).createRefund({ paymentId: payment.id, reason });
          logger.info(`payment ${payment.checkoutRequestId} for order ${order.id} (${order.status}) refunded: ${reason}`);
          return changed(order.status);
        }
        // More than the price: the order is bought, and the difference goes back (no fee was charged on it).
        const overpaid = recorded.amount - order.amount;
        const refundOverpayment = async () => {
          if (overpaid > 0) await createRefundLedger(tx).createRefund({ paymentId: payment.id, reason: 'overpayment', amount: overpaid, feeAmount: 0 });
        };

        // The hold is comfortably live, so its seats are reserved: no recount. A buyer counting
        // right now sees either this hold or these tickets (one commit), never neither.
        // (A cancellation releases every pending order under the event lock, so a safe hold means a live event.)
        let now = new Date();
        const holdSafe = order.status === 'pending' && order.holdExpiresAt !== null && order.holdExpiresAt.getTime() > now.getTime() + HOLD_SAFETY_MS;
        let refundReason: 'sold_out' | 'late_payment' | undefined;
        if (!holdSafe) {
          // The hold ran out (or nearly), or was released: recount under the event lock, reading the clock after it.
          const event = await seats.lockEvent(order.eventId);
          now = new Date();
          const holdLive = order.status === 'pending' && order.holdExpiresAt !== null && order.holdExpiresAt > now;
          if (event?.status === 'cancelled') refundReason = 'late_payment';
          else if (!holdLive && event && !(await payments.lateOrderFits(order, now))) refundReason = 'sold_out';
        }
        if (refundReason) {
          await payments.setOrderStatus(order.id, 'refund_due');
          await createRefundLedger(tx).createRefund({ paymentId: payment.id, reason: refundReason });
          logger.info(`order ${order.id} paid ${refundReason === 'late_payment' ? 'after its event was cancelled' : 'after its hold expired and the event is full'}: refund due`);
          return changed('refund_due');
        }
        if (order.instalmentDeposit !== null && recorded.amount < order.amount) {
          // A deposit: the seats stay taken as a reservation (no hold expiry, no tickets yet) until the rest is paid or it lapses.
          await payments.setInstalmentPaid(order.id, recorded.amount);
          await payments.setOrderStatus(order.id, 'reserved');
          logger.info(`order ${order.id} reserved: deposit ${recorded.amount} of ${order.amount}`);
          return changed('reserved');
        }
        const rows = await tickets.issueInTransaction(tx, {
          eventId: order.eventId,
          userId: order.userId,
          orderId: order.id,
          quantity: order.quantity,
          now,
          beforeActivity: () => payments.setOrderStatus(order.id, 'paid'),
        });
        issued = rows.map((row) => ({ id: row.id, code: row.code }));
        await refundOverpayment();
        await emitWebhook(tx, view.event.organiserId, 'order.paid', { orderId: order.id, eventId: order.eventId, quantity: order.quantity, amount: recorded.amount, tickets: rows.map((row) => row.id) });
        return changed('paid', rows.length);
      });
    } catch (error) {
      // The unique receipt index refuses a receipt number already used by another payment.
      if (isUniqueViolation(error)) throw doubtful('receipt number already used');
      throw error;
    }
    const { result, view, payment } = settled;
    // Counted after the commit, once per result actually recorded (a duplicate changes nothing).
    if (result.changed) {
      deps.metrics?.settlements.inc({ status: result.status });
      for (const listener of settledListeners) {
        try {
          listener({ checkoutRequestId: result.checkoutRequestId, status: result.status });
        } catch (error) {
          logger.error('a settlement listener failed', error);
        }
      }
    }
    if (issued.length > 0) await announce(issuedTo(view, input), issued);
    if (contradiction) tellAboutContradiction(view, contradiction);
    return { ...result, view: describePayment(payment, { status: result.orderStatus, quantity: view.order.quantity }, view.event.title) };
  }

  /** Registers a listener for recorded results; returns its removal. */
  function onSettled(listener: (settled: { checkoutRequestId: string; status: PaymentStatus }) => void) {
    settledListeners.add(listener);
    return () => settledListeners.delete(listener);
  }

  return { handle, onSettled };
}

export type SettlePaymentHandler = ReturnType<typeof createSettlePaymentHandler>;
