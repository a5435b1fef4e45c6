import { normaliseKenyanPhone } from '@tukio/shared/phone';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { ChangeFeed } from '../../lib/change-feed.js';
import { translate, type Language } from '../../lib/i18n.js';
import type { JobQueue } from '../../lib/job-queue.js';
import type { Logger } from '../../lib/logger.js';
import { createRepeatingTask } from '../../lib/repeating-task.js';
import type { AuthUser } from '../auth/index.js';
import type { SmsService } from '../sms/index.js';
import { lapseRefund, reminderDue, REMINDER_DAYS } from './instalment-plan.js';
import type { PaymentGateway } from './payment-gateway.js';
import { createPaymentsRepository, type OrderRow } from './payments.repository.js';
import type { PaymentsService } from './payments.service.js';
import { createRefundLedger } from './refunds.service.js';
import { createRefundsRepository } from './refunds.repository.js';
import { createReservationsRepository } from './reservations.repository.js';
import { GatewayUnreachable, PushOutcomeUnknown, PushRefused } from './payment-gateway.js';

export interface InstalmentsDeps {
  db: Database;
  payments: Pick<PaymentsService, 'recordPush'>;
  gateway: PaymentGateway;
  sms: Pick<SmsService, 'enqueue'>;
  changes: Pick<ChangeFeed, 'publish'>;
  logger: Logger;
  publicUrl: string;
  /** The Paybill number a reservation's balance may be paid to, with its order code as the account. */
  paybillShortcode?: string | undefined;
  /** How often the sweep looks for reminders due and reservations to lapse (0: only when asked). */
  sweepMs: number;
  jobs?: JobQueue | undefined;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** A reservation that ended (paid or lapsed) stays on /profile this long, so the buyer sees what became of it. */
const ENDED_SHOWN_MS = 30 * DAY_MS;
const BATCH = 200;

const reservationMessages = {
  notFound: 'Reservation not found.',
  notOpen: 'This reservation is no longer open: it was paid in full, or it lapsed.',
} as const;

const dueFormat: Record<Language, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Nairobi', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hour12: false }),
  sw: new Intl.DateTimeFormat('sw-KE', { timeZone: 'Africa/Nairobi', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hour12: false }),
};

type ReservationRow = NonNullable<Awaited<ReturnType<ReturnType<typeof createReservationsRepository>['findForUser']>>>;

/**
 * Paying in parts ("Lipa pole pole", docs/decisions/instalments.md), after the deposit made the order a reservation:
 * what a buyer sees of theirs, a prompt for any part of the balance (settled by the one settle path, like the
 * Paybill payments of its order code), SMS reminders 7, 3 and 1 days before the due date, and the lapse at it.
 */
export function createInstalments(deps: InstalmentsDeps) {
  const { db, logger } = deps;

  const describe = (row: ReservationRow) => {
    const { order } = row;
    const balance = order.status === 'reserved' ? order.amount - order.instalmentPaid : 0;
    const { refund, kept } = lapseRefund(order.instalmentPaid, order.instalmentCancellationFee ?? 0);
    return {
      orderId: order.id,
      eventId: order.eventId,
      eventTitle: row.eventTitle,
      eventStartsAt: row.eventStartsAt.toISOString(),
      ticketTypeName: row.typeName,
      quantity: order.quantity,
      status: order.status,
      amount: order.amount,
      paid: order.instalmentPaid,
      balance,
      deposit: order.instalmentDeposit ?? order.amount,
      dueAt: order.instalmentDueAt?.toISOString() ?? null,
      cancellationFee: order.instalmentCancellationFee ?? 0,
      /** What a lapse at the due date would give back, and keep. */
      refundIfLapsed: refund,
      keptIfLapsed: kept,
      orderCode: order.orderCode,
      paybill: deps.paybillShortcode ?? null,
      phone: order.phone,
    };
  };

  /** Reminds of each balance due within 7 days once per reminder (the SMS outbox's key makes it once, however often this runs). */
  async function remind(now: Date): Promise<number> {
    const rows = await createReservationsRepository(db).dueBefore(now, new Date(now.getTime() + REMINDER_DAYS[0] * DAY_MS), BATCH);
    const messages = rows.flatMap(({ order, eventTitle, language }) => {
      const days = order.instalmentDueAt ? reminderDue(order.instalmentDueAt, now) : undefined;
      if (!days || !order.phone) return [];
      const lang: Language = language === 'sw' ? 'sw' : 'en';
      const title = eventTitle.length > 50 ? `${eventTitle.slice(0, 47)}...` : eventTitle;
      return [
        {
          purpose: 'instalment-reminder',
          dedupeKey: `instalment-reminder:${order.id}:${days}`,
          phone: order.phone,
          message: translate(lang, 'instalments.reminderSms', {
            balance: order.amount - order.instalmentPaid,
            title,
            due: dueFormat[lang].format(order.instalmentDueAt!),
            paybill: deps.paybillShortcode ?? '-',
            code: order.orderCode ?? '-',
            url: `${deps.publicUrl}/profile`,
          }),
        },
      ];
    });
    if (messages.length === 0) return 0;
    const queued = await deps.sms.enqueue(messages);
    if (queued > 0) logger.info(`instalment reminders: ${queued} SMS queued`);
    return queued;
  }

  /**
   * One reservation's lapse, its payments then its order locked (as settlement locks them): the order lapses (its seats
   * free), and what its payments put towards it less the cancellation fee goes back through the refunds job, newest
   * payment first, each refund carrying its share of the fee. Nothing when it was paid (or lapsed) meanwhile.
   */
  async function lapseOne(orderId: string, now: Date) {
    return db.transaction(async (tx) => {
      const reservations = createReservationsRepository(tx);
      const paid = (await reservations.lockPaymentsOf(orderId)).filter((payment) => payment.status === 'success');
      const payments = createPaymentsRepository(tx);
      const order = await payments.lockOrder(orderId);
      if (!order || order.status !== 'reserved' || !order.instalmentDueAt || order.instalmentDueAt > now) return undefined;
      await payments.setOrderStatus(order.id, 'lapsed', ['reserved']);
      const { refund, kept } = lapseRefund(order.instalmentPaid, order.instalmentCancellationFee ?? 0);
      const ledger = createRefundLedger(tx);
      const taken = createRefundsRepository(tx);
      let owed = refund;
      for (const payment of paid.reverse()) {
        if (owed <= 0) break;
        const left = payment.amount - (await taken.takenFrom(payment.id));
        const amount = Math.min(left, owed);
        if (amount <= 0) continue;
        await ledger.createRefund({ paymentId: payment.id, reason: 'reservation_lapsed', amount, detail: `reservation lapsed: ${kept} kept as the cancellation fee`, now });
        owed -= amount;
      }
      if (owed > 0) logger.error(`order ${order.id}: its lapse could refund only ${refund - owed} of ${refund}`);
      return { order, refund, kept };
    });
  }

  async function lapseDue(now: Date): Promise<number> {
    const due = await createReservationsRepository(db).dueToLapse(now, BATCH);
    let lapsed = 0;
    for (const { id } of due) {
      const outcome = await lapseOne(id, now).catch((error: unknown) => logger.error(`reservation ${id} could not lapse yet`, error));
      if (!outcome) continue;
      lapsed += 1;
      // Freed seats: the event's counts change, and its waitlist is offered them (it listens for this).
      deps.changes.publish('event-tickets', outcome.order.eventId);
      await tellLapsed(outcome.order, outcome.refund, outcome.kept).catch((error: unknown) => logger.error(`lapse sms for order ${id} failed`, error));
      logger.info(`reservation ${id} lapsed: ${outcome.refund} refunded, ${outcome.kept} kept`);
    }
    return lapsed;
  }

  async function tellLapsed(order: OrderRow, refund: number, kept: number) {
    const repo = createReservationsRepository(db);
    const row = await repo.findForUser(order.id, order.userId);
    if (!row || !order.phone) return;
    const language = await repo.languageOf(order.userId);
    await deps.sms.enqueue([
      { purpose: 'instalment-lapsed', dedupeKey: `instalment-lapsed:${order.id}`, phone: order.phone, message: translate(language, 'instalments.lapsedSms', { title: row.eventTitle, refund, kept }) },
    ]);
  }

  /** One look: reminders due, then lapses due (answers how many of each). */
  async function sweep(now = new Date()) {
    const reminded = await remind(now);
    const lapsed = await lapseDue(now);
    return { reminded, lapsed };
  }
  const task = createRepeatingTask('instalments', () => sweep(), { everyMs: deps.sweepMs, logger, firstAfterMs: Math.min(deps.sweepMs, 5000), jobs: deps.jobs });

  return {
    /** GET /api/reservations: the buyer's reservations, open ones first by due date. */
    async mine(user: AuthUser) {
      const rows = await createReservationsRepository(db).listForUser(user.id, new Date(Date.now() - ENDED_SHOWN_MS));
      return rows.map(describe);
    },

    /**
     * POST /api/reservations/:orderId/pay: an M-Pesa prompt for `amount` (1 up to the balance; absent: the balance) to
     * `phone` (absent: the phone of the deposit). The result settles by the one settle path; poll /pay/confirmPayment.
     */
    async payTowards(user: AuthUser, orderId: string, input: { amount?: number | undefined; phone?: string | undefined }) {
      const row = await createReservationsRepository(db).findForUser(orderId, user.id);
      if (!row || row.order.instalmentDeposit === null) throw AppError.notFound('reservation_not_found', reservationMessages.notFound);
      const { order } = row;
      if (order.status !== 'reserved') throw AppError.conflict('reservation_not_open', reservationMessages.notOpen);
      const balance = order.amount - order.instalmentPaid;
      const amount = input.amount ?? balance;
      if (amount > balance) {
        throw new AppError(400, 'amount_more_than_balance', `At most ${balance} shillings are left to pay.`, { field: 'amount', params: { balance }, body: { balance } });
      }
      const phone = input.phone === undefined ? order.phone : normaliseKenyanPhone(input.phone);
      if (!phone) throw AppError.badRequest('phone_invalid', 'Enter a Safaricom phone number as 254 followed by 9 digits, e.g. 254712345678.', 'phone');
      let push;
      try {
        push = await deps.gateway.stkPush({ orderId, amount, phone, accountReference: order.orderCode ?? `TK${order.id.slice(-10)}`.toUpperCase(), transactionDesc: 'Tukio instalment' });
      } catch (error) {
        if (error instanceof PushRefused) throw new AppError(error.status, error.code, error.message);
        if (error instanceof PushOutcomeUnknown) throw new AppError(502, 'payment_outcome_unknown', 'Your M-Pesa prompt may have been sent: watch your phone.');
        if (!(error instanceof GatewayUnreachable)) logger.error('instalment STK push failed', error);
        throw new AppError(503, 'payment_service_unreachable', 'The payment service is not reachable right now. Please try again in a moment.');
      }
      await deps.payments.recordPush({ orderId, checkoutRequestId: push.checkoutRequestId, merchantRequestId: push.merchantRequestId, amount, phone });
      return { CheckoutRequestID: push.checkoutRequestId, CustomerMessage: push.customerMessage, amount, balance, ...(push.simulatorPromptPath ? { simulatorPromptPath: push.simulatorPromptPath } : {}) };
    },

    sweep,
    start: task.start,
    stop: task.stop,
  };
}

export type Instalments = ReturnType<typeof createInstalments>;
