import type { CreateOrderRequest, SettleRequest } from '@tukio/shared/internal-api';
import { MPESA_TRANSACTION_MAX } from '@tukio/shared/limits';
import type { Database, Executor } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { createBatcher } from '@tukio/shared/node/batcher';
import { toPage, type CursorKey } from '../../lib/keyset-page.js';
import { translate, type Language } from '../../lib/i18n.js';
import type { Logger } from '../../lib/logger.js';
import type { Metrics } from '../../lib/metrics.js';
import { formatWallClock, nowAsWallClock } from '../../lib/event-clock.js';
import type { SmsService } from '../sms/index.js';
import { createTicketsRepository, soldOutError, ticketMessages, type SoldOutNotes, type TicketsService } from '../tickets/index.js';
import { buildAdminContradictionMail, buildBuyerContradictionMail, type ContradictionNotice } from './contradiction-mail.js';
import { createGuestCheckoutRepository } from './guest-checkout.repository.js';
import type { GuestTicketLinks } from './guest-ticket-links.js';
import { createPaymentsRepository, type OrderRow, type PaymentRow, type PaymentStatus } from './payments.repository.js';
import { refuseWhileSalesPaused } from '../events/index.js';

/**
 * Refunds belong to the refunds module, which sits above payments. A success that cannot get its seats
 * (sold out, or the event was cancelled) must have its refund row written in the settling transaction:
 * app.ts passes the refunds module's ledger, called with that transaction.
 */
export type RefundLedger = (executor: Executor) => { createRefund(input: { paymentId: string; reason: 'sold_out' | 'late_payment' }): Promise<unknown> };

export interface PaymentsServiceDeps {
  db: Database;
  tickets: TicketsService;
  refunds: RefundLedger;
  logger: Logger;
  holdMinutes: number;
  /** payment_settlements_total{status}: counted once per result actually recorded. */
  metrics?: Pick<Metrics, 'settlements'> | undefined;
  /** Why a sold-out refusal happened when the buyer's waitlist offer expired. */
  waitlist?: SoldOutNotes | undefined;
  /** Guest orders' tickets go to the phone by SMS, as a link to their ticket page (docs/decisions/guest-checkout.md). */
  guests?: { links: GuestTicketLinks; sms: Pick<SmsService, 'enqueue'> } | undefined;
}

/** Who tickets were issued to: a guest's shadow account has a phone, and maybe an email given at checkout. */
interface IssuedTo {
  userId: string;
  eventId: string;
  orderId: string;
  contact: { email: string; username: string; guestPhone: string | null; language: Language };
  guestEmail: string | null;
  event: { id: string; title: string; startsAt: Date; location: string };
  payment: { amount: number; receipt: string | null };
}

/** A purchase to hold: the payment service's request, plus a guest buyer's email on the guest path. */
export type CreateOrderInput = CreateOrderRequest & { guestEmail?: string | undefined };

export interface SettleResult {
  checkoutRequestId: string;
  status: PaymentStatus;
  orderStatus: OrderRow['status'];
  ticketsIssued: number;
  /** False when the result was already recorded (a duplicate callback or a repeated query). */
  changed: boolean;
  /** The payment as its owner's status call would describe it now, so the payment service can answer polls itself. */
  view?: ReturnType<ReturnType<typeof createPaymentsService>['describe']> | undefined;
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

/** A success M-Pesa itself stands behind: its STK query answered it, or agreed with the callback before it was sent here. */
const confirmedByProvider = (input: SettleRequest) => input.source === 'query' || input.providerConfirmed === true;

/** How far back the reconciler asks M-Pesa about successes no query has confirmed. */
const UNCONFIRMED_LOOKBACK_MS = 24 * 60 * 60 * 1000;

/** A hold this far from expiry is certainly still counted by any concurrent checkout. */
const HOLD_SAFETY_MS = 30_000;

const PENDING_MESSAGE = 'Payment is still pending. Complete the M-Pesa prompt on your phone, then confirm again.';

type PaymentsRepository = ReturnType<typeof createPaymentsRepository>;

/** Payment attempts as GET /api/transactions/:userId answers them, each with its latest refund. */
async function toTransactions(repo: PaymentsRepository, rows: Awaited<ReturnType<PaymentsRepository['listForUser']>>) {
  const refunds = await repo.latestRefunds(rows.map((row) => row.payment.id));
  return rows.map(({ payment, title, orderStatus, quantity }) => ({
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
  }));
}


export function createPaymentsService(deps: PaymentsServiceDeps) {
  const { db, tickets, logger } = deps;
  const holdMs = deps.holdMinutes * 60 * 1000;
  /**
   * Pushes recorded while a recording is running go together in the next statement: a burst of
   * buyers costs one round trip and one commit (WAL flush) per batch instead of per push.
   */
  const insertPush = createBatcher(
    (inputs: Array<{ orderId: string; checkoutRequestId: string; merchantRequestId?: string | undefined }>) =>
      inputs.length === 1 ? createPaymentsRepository(db).insertPaymentForOrder(inputs[0]!).then((row) => [row]) : createPaymentsRepository(db).insertPaymentsForOrders(inputs),
    { maxBatch: 200 },
  );

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

  function describe(
    payment: Pick<PaymentRow, 'status' | 'resultDesc' | 'checkoutRequestId' | 'eventId' | 'amount' | 'mpesaReceiptNumber' | 'createdAt'>,
    order: Pick<OrderRow, 'status' | 'quantity'>,
    title: string,
  ) {
    const status = payment.status;
    let resultDesc: string;
    if (status === 'pending') resultDesc = PENDING_MESSAGE;
    else if (status === 'success' && order.status === 'paid') resultDesc = `Payment successful. Your ${order.quantity > 1 ? `${order.quantity} tickets are` : 'ticket is'} ready.`;
    else if (status === 'success' && order.status === 'refund_due')
      resultDesc = 'Payment received, but no tickets could be issued (the event sold out or was cancelled while it was processing). Your payment will be refunded.';
    else if (status === 'cancelled') resultDesc = 'Payment failed or cancelled: the request was cancelled on the phone.';
    else resultDesc = `Payment failed or cancelled: ${payment.resultDesc ?? 'M-Pesa did not complete the payment.'}`;
    return {
      checkoutRequestId: payment.checkoutRequestId,
      status,
      orderStatus: order.status,
      success: status === 'success' && order.status === 'paid',
      resultDesc,
      eventId: payment.eventId,
      eventTitle: title,
      amount: payment.amount,
      quantity: order.quantity,
      mpesaReceiptNumber: payment.mpesaReceiptNumber,
      createdAt: payment.createdAt.toISOString(),
      ageSeconds: Math.floor((Date.now() - payment.createdAt.getTime()) / 1000),
    };
  }

  type PaymentsRepository = ReturnType<typeof createPaymentsRepository>;
  type Expectation = Parameters<PaymentsRepository['settleSuccessFast']>[0]['expect'];

  /**
   * A success settled in one statement when payment, order and hold are pending and live (and, with
   * `expect`, the event, quantity, amount and phone match); undefined when they are not.
   */
  async function settleInOneStatement(repo: PaymentsRepository, input: SettleRequest, prepared: Array<{ id: string; code: string }>, expect?: Expectation) {
    const now = new Date();
    try {
      return await repo.settleSuccessFast({
        checkoutRequestId: input.checkoutRequestId,
        holdLiveAfter: new Date(now.getTime() + HOLD_SAFETY_MS),
        resultCode: input.resultCode,
        resultDesc: input.resultDesc.slice(0, 500),
        merchantRequestId: input.merchantRequestId ?? null,
        mpesaReceiptNumber: input.mpesaReceiptNumber ?? null,
        transactionDate: input.transactionDate ?? null,
        tickets: prepared,
        day: now.toISOString().slice(0, 10),
        now,
        providerConfirmed: confirmedByProvider(input),
        expect,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw doubtful('receipt number already used');
      throw error;
    }
  }

  type SettlementView = NonNullable<Awaited<ReturnType<PaymentsRepository['settlementView']>>>;

  const issuedTo = (view: SettlementView, input: SettleRequest): IssuedTo => ({
    userId: view.payment.userId,
    eventId: view.payment.eventId,
    orderId: view.order.id,
    contact: view.contact,
    guestEmail: view.order.guestEmail,
    event: view.event,
    payment: { amount: view.payment.amount, receipt: input.mpesaReceiptNumber ?? null },
  });

  /** A success recorded in one statement: counted once, answered with the owner's view of it. */
  function recordedSuccess(checkoutRequestId: string, ticketsIssued: number, view: ReturnType<typeof describe>): SettleResult {
    deps.metrics?.settlements.inc({ status: 'success' });
    return { checkoutRequestId, status: 'success', orderStatus: 'paid', ticketsIssued, changed: true, view };
  }

  /**
   * Quickest path, for the usual success during a busy sale: the payment service said which order
   * it expects, so the tickets can be prepared before reading anything and the whole settlement is
   * one statement, which itself checks what a callback must match (event, quantity, amount, phone,
   * MerchantRequestID) and that payment, order and hold are still pending and live. Undefined when
   * it does not apply (no hint, not a success, a callback without what must be checked, or the
   * statement found nothing to do): the paths after reading the view decide.
   */
  async function settleAsExpected(input: SettleRequest, newStatus: PaymentStatus): Promise<SettleResult | undefined> {
    const amountCents = input.amount === undefined ? undefined : Math.round(input.amount * 100);
    const checkable = input.source === 'query' || (amountCents !== undefined && Number.isSafeInteger(amountCents) && Boolean(input.phone) && Boolean(input.mpesaReceiptNumber));
    if (newStatus !== 'success' || !input.eventId || !input.quantity || !checkable) return undefined;
    const prepared = tickets.prepare(input.eventId, input.quantity);
    const direct = await settleInOneStatement(createPaymentsRepository(db), input, prepared, {
      eventId: input.eventId,
      callback: input.source === 'callback' ? { amountCents: amountCents!, phone: input.phone! } : undefined,
    });
    if (!direct) return undefined;
    await announce({ ...direct, payment: { amount: direct.amount, receipt: input.mpesaReceiptNumber ?? null } }, prepared);
    const described = describe(
      {
        checkoutRequestId: input.checkoutRequestId,
        status: 'success',
        resultDesc: input.resultDesc,
        eventId: direct.eventId,
        amount: direct.amount,
        mpesaReceiptNumber: input.mpesaReceiptNumber ?? null,
        createdAt: direct.createdAt,
      },
      { status: 'paid', quantity: input.quantity },
      direct.event.title,
    );
    return recordedSuccess(input.checkoutRequestId, direct.issued, described);
  }

  /** Callbacks are unsigned: one that does not match its push is doubtful, and the payment service asks Daraja instead. */
  function refuseMismatchedCallback(input: SettleRequest, newStatus: PaymentStatus, known: SettlementView['payment']) {
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
   * Fast path after reading the view, for a success the payment service gave no hint for (a
   * reconciler query, a callback after a restart): while the payment is pending and its hold
   * comfortably live, the same one statement. Undefined otherwise (someone else settled it
   * meanwhile, or the hold is no longer safe): the locked path decides.
   */
  async function settleFromView(input: SettleRequest, newStatus: PaymentStatus, view: SettlementView): Promise<SettleResult | undefined> {
    const known = view.payment;
    if (newStatus !== 'success' || known.status !== 'pending' || view.order.status !== 'pending' || (view.order.holdExpiresAt?.getTime() ?? 0) <= Date.now() + HOLD_SAFETY_MS) {
      return undefined;
    }
    const prepared = tickets.prepare(view.order.eventId, view.order.quantity);
    const inserted = (await settleInOneStatement(createPaymentsRepository(db), input, prepared))?.issued ?? 0;
    if (inserted <= 0) return undefined;
    await announce(issuedTo(view, input), prepared);
    const described = describe(
      { ...known, status: 'success', resultDesc: input.resultDesc, mpesaReceiptNumber: input.mpesaReceiptNumber ?? null },
      { ...view.order, status: 'paid' },
      view.event.title,
    );
    return recordedSuccess(known.checkoutRequestId, inserted, described);
  }

  type LockedPayment = NonNullable<Awaited<ReturnType<PaymentsRepository['lockPayment']>>>;

  /** Writes the contradicted claim down (once per payment) and describes it for the notices. */
  async function recordContradiction(payments: PaymentsRepository, payment: LockedPayment, input: SettleRequest, ticketsVoided: number): Promise<ContradictionNotice | undefined> {
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
  async function reverseContradictedSuccess(tx: Executor, payment: LockedPayment, order: OrderRow, newStatus: PaymentStatus, input: SettleRequest) {
    const payments = createPaymentsRepository(tx);
    await payments.updatePayment(payment.id, { status: newStatus, resultCode: input.resultCode, resultDesc: input.resultDesc.slice(0, 500) });
    const voided = await createTicketsRepository(tx).voidForOrder(order.id, 'payment_reversed', new Date());
    const orderStatus = newStatus === 'cancelled' ? 'cancelled' : 'failed';
    const released = order.status === 'paid' ? await payments.setOrderStatus(order.id, orderStatus, ['paid']) : undefined;
    // A refund_due order (paid after its hold ran out) keeps its refund row for the admins to stop: that money never came.
    if (order.status === 'refund_due') logger.error(`order ${order.id} has a refund due for a payment M-Pesa contradicts: do not pay it out`);
    const notice = await recordContradiction(payments, payment, input, voided.length);
    const result: SettleResult = { checkoutRequestId: payment.checkoutRequestId, status: newStatus, orderStatus: released?.status ?? order.status, ticketsIssued: 0, changed: true };
    return { notice, result };
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
   * The full path, for everything else: failures and cancellations, duplicates, a query upgrading
   * a recorded failure, and a success whose hold ran out (seats recounted under the event lock,
   * or refund_due). Payment and order rows are locked in one transaction.
   */
  async function settleLocked(input: SettleRequest, newStatus: PaymentStatus, view: SettlementView): Promise<SettleResult> {
    const known = view.payment;
    let issued: Array<{ id: string; code: string }> = [];
    let contradiction: ContradictionNotice | undefined;
    let result: SettleResult;
    try {
      result = await db.transaction(async (tx) => {
        const ticketsRepo = createTicketsRepository(tx);
        const payments = createPaymentsRepository(tx);
        // Lock order: payment, then order, then (only when seats must be recounted) the event.
        // Nothing holds an event lock while waiting for a payment or order row, so no deadlock.
        const payment = await payments.lockPayment(input.checkoutRequestId);
        const order = await payments.lockOrder(known.orderId);
        if (!payment || !order) throw AppError.notFound('checkout_request_unknown', 'Unknown CheckoutRequestID.');

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
              return reversed.result;
            }
          }
          // Only Daraja's own answer may overturn a recorded failure (e.g. after a doubtful cancel).
          const upgrade = !same && newStatus === 'success' && input.source === 'query';
          if (!upgrade) {
            if (!same && input.source === 'callback') throw doubtful(`payment is already ${payment.status}`);
            return { checkoutRequestId: payment.checkoutRequestId, status: payment.status, orderStatus: order.status, ticketsIssued: 0, changed: false };
          }
        }

        await payments.updatePayment(payment.id, {
          status: newStatus,
          resultCode: input.resultCode,
          resultDesc: input.resultDesc.slice(0, 500),
          merchantRequestId: payment.merchantRequestId ?? input.merchantRequestId ?? null,
          ...(newStatus === 'success'
            ? { mpesaReceiptNumber: input.mpesaReceiptNumber ?? null, transactionDate: input.transactionDate ?? null, providerConfirmedAt: confirmedByProvider(input) ? new Date() : null }
            : {}),
        });

        if (input.contradicts && input.source === 'query' && newStatus !== 'success') {
          // Caught before any ticket was issued: the claim is kept as evidence for the admins and the audit.
          contradiction = await recordContradiction(payments, payment, input, 0);
        }
        if (newStatus !== 'success') {
          const released = await payments.setOrderStatus(order.id, newStatus === 'cancelled' ? 'cancelled' : 'failed', ['pending']);
          return { checkoutRequestId: payment.checkoutRequestId, status: newStatus, orderStatus: released?.status ?? order.status, ticketsIssued: 0, changed: true };
        }

        if (order.status === 'paid' || order.status === 'refund_due') {
          return { checkoutRequestId: payment.checkoutRequestId, status: newStatus, orderStatus: order.status, ticketsIssued: 0, changed: true };
        }
        // Fast path: the hold is comfortably live, so its seats are reserved; a buyer counting
        // right now sees either this hold or these tickets (one commit), never neither.
        // (A cancellation releases every pending order under the event lock, so a safe hold means a live event.)
        let now = new Date();
        const holdSafe = order.status === 'pending' && order.holdExpiresAt !== null && order.holdExpiresAt.getTime() > now.getTime() + HOLD_SAFETY_MS;
        let refundReason: 'sold_out' | 'late_payment' | undefined;
        if (!holdSafe) {
          // The hold ran out (or nearly), or was released: recount under the event lock, reading the clock after it.
          const event = await ticketsRepo.lockEvent(order.eventId);
          now = new Date();
          const holdLive = order.status === 'pending' && order.holdExpiresAt !== null && order.holdExpiresAt > now;
          if (event?.status === 'cancelled') refundReason = 'late_payment';
          else if (
            !holdLive &&
            event &&
            ((event.capacity !== null && (await ticketsRepo.seatsTaken(order.eventId, now, { orderId: order.id, userId: order.userId })) + order.quantity > event.capacity) ||
              !(await payments.typesFit(order.id, now)))
          ) {
            refundReason = 'sold_out';
          }
        }
        if (refundReason) {
          await payments.setOrderStatus(order.id, 'refund_due');
          await deps.refunds(tx).createRefund({ paymentId: payment.id, reason: refundReason });
          logger.info(`order ${order.id} paid ${refundReason === 'late_payment' ? 'after its event was cancelled' : 'after its hold expired and the event is full'}: refund due`);
          return { checkoutRequestId: payment.checkoutRequestId, status: newStatus, orderStatus: 'refund_due' as const, ticketsIssued: 0, changed: true };
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
        return { checkoutRequestId: payment.checkoutRequestId, status: newStatus, orderStatus: 'paid' as const, ticketsIssued: rows.length, changed: true };
      });
    } catch (error) {
      // The unique receipt index refuses a receipt number already used by another payment.
      if (isUniqueViolation(error)) {
        throw doubtful('receipt number already used');
      }
      throw error;
    }
    // Counted after the commit, once per result actually recorded (a duplicate changes nothing).
    if (result.changed) deps.metrics?.settlements.inc({ status: result.status });
    if (issued.length > 0) {
      await announce(issuedTo(view, input), issued);
    }
    if (contradiction) tellAboutContradiction(view, contradiction);
    const after = await createPaymentsRepository(db).withOrder(input.checkoutRequestId);
    return { ...result, view: after ? describe(after.payment, after.order, after.title) : undefined };
  }

  /** Why a hold was refused, in the buyer's words, with the field or type it is about. */
  async function holdRefusal(held: Awaited<ReturnType<PaymentsRepository['holdOrder']>>, userId: string, eventId: string): Promise<AppError> {
    const named = held.detail ?? '';
    switch (held.outcome) {
      case 'not_found':
        return AppError.notFound('event_not_found', ticketMessages.notFound);
      case 'not_open':
        // Not approved: either waiting for review, or cancelled (read only on this refusal, to say which).
        if ((await createTicketsRepository(db).findEvent(eventId))?.status === 'cancelled') return AppError.conflict('event_cancelled', ticketMessages.cancelled);
        return new AppError(400, 'event_not_open', ticketMessages.notOpen);
      case 'past':
        return new AppError(400, 'event_past', ticketMessages.past);
      case 'free':
        return new AppError(400, 'event_free', 'This event is free: register without paying.');
      case 'sold_out':
        return soldOutError(deps.waitlist, userId, eventId, held.seatsLeft);
      case 'not_on_sale':
        return AppError.conflict('tickets_not_on_sale', 'No tickets are on sale for this event right now.');
      case 'type_not_found':
        return AppError.badRequest('ticket_type_not_sold', 'That ticket type is not sold for this event.', 'items');
      case 'type_not_started':
        return AppError.conflict('ticket_type_sales_not_started', `${named} tickets go on sale at ${formatWallClock(held.holdExpiresAt)}.`, {
          params: { name: named, at: formatWallClock(held.holdExpiresAt) },
        });
      case 'type_ended':
        return AppError.conflict('ticket_type_sales_ended', `${named} tickets are no longer on sale (sales ended ${formatWallClock(held.holdExpiresAt)}).`, {
          params: { name: named, at: formatWallClock(held.holdExpiresAt) },
        });
      case 'type_max':
        return AppError.badRequest('ticket_type_max_per_order', `You can buy at most ${held.quantity} ${named} ticket${held.quantity === 1 ? '' : 's'} per order.`, {
          field: 'items',
          params: { name: named, max: held.quantity },
        });
      case 'type_sold_out':
        return held.seatsLeft > 0
          ? AppError.conflict('ticket_type_seats_left', `Only ${held.seatsLeft} ${named} ticket${held.seatsLeft === 1 ? '' : 's'} left.`, { params: { name: named, seatsLeft: held.seatsLeft } })
          : AppError.conflict('ticket_type_sold_out', `${named} tickets are sold out.`, { params: { name: named } });
      case 'promo_unknown':
        return AppError.badRequest('promo_code_invalid', `The promo code ${named} is not valid for this event.`, { field: 'promoCode', params: { code: named } });
      case 'promo_not_valid_now':
        return AppError.badRequest('promo_code_inactive', `The promo code ${named} cannot be used right now.`, { field: 'promoCode', params: { code: named } });
      case 'promo_used_up':
        return AppError.conflict('promo_code_used_up', `The promo code ${named} has been used up.`, { field: 'promoCode', params: { code: named } });
      case 'amount_too_large':
        return AppError.badRequest(
          'order_amount_too_large',
          `This order costs Ksh ${held.amount}, more than one M-Pesa payment can move (Ksh ${MPESA_TRANSACTION_MAX}). Buy fewer tickets per order.`,
          { field: 'quantity', params: { amount: held.amount, max: MPESA_TRANSACTION_MAX } },
        );
      case 'promo_not_for_types':
        return AppError.badRequest('promo_code_not_applicable', `The promo code ${named} does not apply to the tickets you chose.`, { field: 'promoCode', params: { code: named } });
      default:
        return new AppError(500, 'internal_error', `unexpected hold outcome ${held.outcome}`);
    }
  }

  const service = {
    /**
     * Holds seats for a paid purchase. `holdSeats` locks the event row, checks the rules a buyer
     * can act on (approved, upcoming, paid), counts issued tickets plus live holds and inserts the
     * order in one database round trip, so concurrent buyers can never oversell.
     */
    async createOrder(userId: string, input: CreateOrderInput) {
      const repo = createPaymentsRepository(db);
      if (input.deadline !== undefined && Date.now() > input.deadline) throw new AppError(503, 'server_busy', 'Tukio is busy right now. Please try again in a moment.');
      // Changes to the date, place or price waiting for review pause new holds.
      await refuseWhileSalesPaused(db, input.eventId);
      // Stale holds need no cleanup here: counting ignores them, and each reconciler pass marks them expired.
      const held = await repo.holdOrder({
        eventId: input.eventId,
        userId,
        items: input.items,
        quantity: input.quantity,
        promoCode: input.promoCode,
        phone: input.phone,
        guestEmail: input.guestEmail,
        holdSeconds: holdMs / 1000,
        wallNow: nowAsWallClock(),
      });
      if (held.outcome !== 'held') throw await holdRefusal(held, userId, input.eventId);
      return {
        orderId: held.orderId,
        amount: held.amount,
        discount: held.discount,
        quantity: held.quantity,
        holdExpiresAt: held.holdExpiresAt!.toISOString(),
        // Daraja allows 12 characters; the order id's last 10 hex digits are unique enough to find it.
        accountReference: `TK${held.orderId.slice(-10)}`.toUpperCase(),
        transactionDesc: 'Tukio ticket',
        eventTitle: held.title,
      };
    },

    /** The push was refused by Daraja: release the seats straight away. */
    async abandonOrder(orderId: string, reason: string) {
      const order = await createPaymentsRepository(db).setOrderStatus(orderId, 'failed', ['pending']);
      if (order) logger.info(`order ${orderId} released: ${reason}`);
      return { released: Boolean(order) };
    },

    async recordPush(input: { orderId: string; checkoutRequestId: string; merchantRequestId?: string | undefined }) {
      const repo = createPaymentsRepository(db);
      const recorded = await insertPush(input);
      if (recorded) return { paymentId: recorded.id, checkoutRequestId: input.checkoutRequestId };
      // Nothing inserted: a repeated call for the same push, or an unknown order.
      const existing = await repo.findPayment(input.checkoutRequestId);
      if (existing?.orderId === input.orderId) return { paymentId: existing.id, checkoutRequestId: existing.checkoutRequestId };
      if (existing) throw AppError.conflict('checkout_request_other_order', 'This CheckoutRequestID belongs to another order.');
      throw AppError.notFound('order_not_found', 'Unknown order.');
    },

    /**
     * Records a Daraja result exactly once. Success issues the tickets in the same transaction;
     * a payment that arrives after its hold expired gets tickets only if seats remain, else the
     * order is flagged refund_due. Three paths, quickest first; each falls through to the next
     * when its conditions do not hold.
     */
    async settle(input: SettleRequest): Promise<SettleResult> {
      const newStatus = statusForResult(input.resultCode);
      const expected = await settleAsExpected(input, newStatus);
      if (expected) return expected;
      const view = await createPaymentsRepository(db).settlementView(input.checkoutRequestId);
      if (!view) throw AppError.notFound('checkout_request_unknown', 'Unknown CheckoutRequestID.');
      refuseMismatchedCallback(input, newStatus, view.payment);
      return (await settleFromView(input, newStatus, view)) ?? (await settleLocked(input, newStatus, view));
    },

    /** Pushes with no result yet, sent more than `olderThanSeconds` ago. Also expires stale holds. */
    async pendingPushes(olderThanSeconds: number, limit: number) {
      const now = new Date();
      const repo = createPaymentsRepository(db);
      await repo.expireHolds(now);
      const rows = await repo.pendingBefore(new Date(now.getTime() - olderThanSeconds * 1000), limit);
      return rows.map((row) => ({ checkoutRequestId: row.checkoutRequestId, createdAt: row.createdAt.toISOString() }));
    },

    /**
     * Successes recorded from a callback alone (no STK query agreed yet), unchanged for `olderThanSeconds`:
     * the reconciler asks M-Pesa about each. Only the last day's: Daraja forgets requests after a while.
     */
    async unconfirmedSuccesses(olderThanSeconds: number, limit: number) {
      const now = Date.now();
      const rows = await createPaymentsRepository(db).unconfirmedSuccesses(new Date(now - UNCONFIRMED_LOOKBACK_MS), new Date(now - olderThanSeconds * 1000), limit);
      return rows.map((row) => ({ checkoutRequestId: row.checkoutRequestId, createdAt: row.createdAt.toISOString() }));
    },

    /**
     * Payment status for its owner; a guest's checkout is answered to whoever holds its CheckoutRequestID
     * (the guest has no token). Anyone else is told there is nothing to confirm.
     */
    async statusFor(userId: string | undefined, checkoutRequestId: string) {
      const row = await createPaymentsRepository(db).withOrder(checkoutRequestId);
      if (!row) throw AppError.notFound('no_payment_to_confirm', 'No payment to confirm.');
      const guest = Boolean((await createGuestCheckoutRepository(db).paymentOwner(checkoutRequestId))?.guestPhone);
      if (row.payment.userId !== userId && !guest) throw AppError.notFound('no_payment_to_confirm', 'No payment to confirm.');
      const view = describe(row.payment, row.order, row.title);
      // The guest has no account to find the tickets in: the answer links to their page, as the SMS does.
      return guest && view.success && deps.guests ? { ...view, ticketToken: deps.guests.links.token(row.order.id) } : view;
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
        const moved = await db.transaction((tx) => createGuestCheckoutRepository(tx).moveOrder(other.orderId, other.userId, userId));
        const attached = moved ? (await service.transactions(userId)).find((row) => row.checkoutRequestId === checkoutRequestId) : undefined;
        if (attached) return attached;
      }
      if (other) throw AppError.forbidden('transaction_other_account', 'This transaction belongs to another account.');
      throw AppError.notFound('transaction_not_recorded', 'No payment with that CheckoutRequestID was recorded. Transactions are recorded by the server when the payment is made.');
    },

    describe,
    holdRefusal,
    messages: { pending: PENDING_MESSAGE, past: ticketMessages.past },
  };
  return service;
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
