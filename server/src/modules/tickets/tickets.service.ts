import { selfCancelTerms } from '@tukio/shared/refund-policy';
import type { Database, Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { AppError, type ErrorCode, type ErrorParams } from '../../lib/app-error.js';
import { retryOnDeadlock } from '../../lib/db-errors.js';
import { requireOwner } from '../../lib/auth.js';
import type { ChangeFeed } from '../../lib/change-feed.js';
import type { Logger } from '../../lib/logger.js';
import type { Language } from '../../lib/i18n.js';
import type { Mail } from '../../lib/mailer.js';
import { maskKenyanPhone } from '@tukio/shared/phone';
import { formatWallClock, hasStarted, msUntilStart } from '../../lib/event-clock.js';
import { createBackgroundQueue, createKeyedQueue } from '../../lib/keyed-queue.js';
import { toPage, type CursorKey } from '../../lib/keyset-page.js';
import { findAccountByLogin, type AuthUser } from '../auth/index.js';
import { countRegistrations, eventSeries, refundPolicyOf, refuseWhileSalesPaused, type EventDateRow } from '../events/index.js';
import type { MailOutbox } from '../mail/index.js';
import { createCheckinScansRepository } from './checkin-scans.repository.js';
import { createCheckinSync, type OfflineScan } from './checkin-sync.js';
import { qrPng } from './qr.js';
import { buildTicketMail, type TicketMailInput } from './ticket-mail.js';
import type { TicketSigner } from './ticket-signer.js';
import { createTicketsRepository, type EventRow, type TicketRow } from './tickets.repository.js';
import { emitWebhook } from '../webhooks/index.js';

/**
 * What a transferred ticket's replacement keeps of the ticket it replaces: the order that paid for it,
 * its type (the type's capacity counts it, the dashboard lists it) and its price (a cancel refunds that,
 * not the order's average). Only its holder, code and id are new.
 */
const carriedOver = (ticket: Pick<TicketRow, 'orderId' | 'ticketTypeId' | 'pricePaid' | 'dateId'>) => ({
  orderId: ticket.orderId,
  ticketTypeId: ticket.ticketTypeId,
  pricePaid: ticket.pricePaid,
  dateId: ticket.dateId,
});

/** Free events issue tickets at registration; paid ones only after a payment. */
const isFreeEvent = (event: { isPaid: boolean; ticketPrice: number }) => !event.isPaid || event.ticketPrice <= 0;

export const ticketMessages = {
  registered: 'Registered successfully',
  alreadyRegistered: 'You are already registered for this event.',
  past: 'This event has already taken place.',
  notFound: 'Event not found.',
  notOpen: 'This event is not open for registration yet.',
  paymentRequired: 'Payment required: complete the M-Pesa payment first.',
  soldOut: 'Sorry, this event is sold out.',
  badCode: 'This ticket code is not valid.',
  cancelled: 'This event has been cancelled: it no longer takes registrations or payments.',
  voided: 'This ticket is no longer valid: the event was cancelled.',
  selfCancelled: 'This ticket is no longer valid: its holder cancelled it.',
  transferred: 'This ticket is no longer valid: it was transferred to another holder.',
  paymentReversed: 'This ticket is no longer valid: M-Pesa says its payment was not completed.',
  ticketNotFound: 'Ticket not found.',
  used: 'This ticket was already used at the door.',
  unknownRecipient: 'No Tukio account has that username or email address.',
  toSelf: 'This ticket is already yours: transfer it to someone else.',
} as const;

/** Why a void ticket no longer admits anyone, as check-in, self-cancel and transfer say it. */
export function voidedMessage(reason: TicketRow['voidReason']): string {
  if (reason === 'self_cancel') return ticketMessages.selfCancelled;
  if (reason === 'transferred') return ticketMessages.transferred;
  if (reason === 'payment_reversed') return ticketMessages.paymentReversed;
  return ticketMessages.voided;
}

/** The 409 for acting on a void ticket, with `voidedMessage`'s words. */
export function voidedError(reason: TicketRow['voidReason'], body?: Record<string, unknown>): AppError {
  const codes = { self_cancel: 'ticket_void_self_cancelled', transferred: 'ticket_void_transferred', payment_reversed: 'ticket_void_payment_reversed' } as const;
  const code = (reason && reason !== 'event_cancelled' ? codes[reason] : undefined) ?? 'ticket_void_event_cancelled';
  return new AppError(409, code, voidedMessage(reason), body ? { body } : undefined);
}

/** Shillings paid for one ticket of an order (0 for a free registration). */
export const pricePaid = (order: { amount: number | null; quantity: number | null }) =>
  order.amount && order.quantity ? Math.floor(order.amount / order.quantity) : 0;

/** What one ticket cost: its own share of the payment (set since ticket types), else its order's average. */
export const ticketPaid = (ticket: { pricePaid: number | null }, order: { amount: number | null; quantity: number | null }) => ticket.pricePaid ?? pricePaid(order);

export const seatsLeftMessage = (left: number) =>
  left <= 0 ? ticketMessages.soldOut : `Only ${left} ticket${left === 1 ? '' : 's'} left for this event.`;

/**
 * Orders belong to the checkout module, which sits above tickets (a successful payment issues tickets).
 * Registration for a paid event only asks whether the user has paid: app.ts passes payments' repository,
 * called with the caller's transaction.
 */
export type PaidOrders = (executor: Executor) => { paidOrderFor(eventId: string, userId: string): Promise<object | undefined> };

/**
 * The waitlist sits above tickets and payments: when a sold-out answer refuses someone whose own
 * waitlist offer ran out, it says so instead (app.ts passes the waitlist's answer).
 */
export interface SoldOutNotes {
  soldOutNote(userId: string, eventId: string): Promise<{ code: ErrorCode; message: string; params?: ErrorParams } | undefined>;
}

/** The refusal a buyer gets when too few seats are left for them. */
/**
 * The date a free registration on a series is for (docs/decisions/event-series.md), refused as the paid hold
 * refuses: a type sold for one date takes that date, a pass every date, otherwise the picked date, which must be an
 * active date of this event not started yet. `counted`: the dates whose seats the registration takes, with a capacity.
 */
async function seriesSeat(
  repo: ReturnType<typeof createTicketsRepository>,
  eventId: string,
  dates: Awaited<ReturnType<ReturnType<typeof createTicketsRepository>['seriesDates']>>,
  picked: string | null,
  now: Date,
) {
  const pickedDate = picked ? dates.find((date) => date.id === picked) : undefined;
  if (picked && !pickedDate) throw AppError.notFound('event_date_not_found', 'No such date for this event.');
  if (pickedDate?.status === 'cancelled') throw AppError.conflict('event_date_cancelled', 'That date was cancelled: choose another one.');
  const typeId = await repo.defaultTypeId(eventId);
  // '' stands for "the picked date": the type's own date comes back instead, and null for a pass.
  const own = typeId ? await repo.seatDate(typeId, '') : '';
  const pass = own === null;
  const typeDate = own === '' ? picked : own;
  const active = dates.filter((date) => date.status === 'active');
  if (pass) {
    if (!active.some((date) => !hasStarted(date.startsAt, now))) throw new AppError(400, 'event_past', ticketMessages.past);
    return { dateId: null, counted: active.filter((date) => date.capacity !== null) };
  }
  if (!typeDate) throw AppError.badRequest('event_date_required', 'This event has several dates: choose one.', 'dateId');
  const date = dates.find((row) => row.id === typeDate);
  if (!date || date.status !== 'active') throw AppError.conflict('event_date_cancelled', 'That date was cancelled: choose another one.');
  if (hasStarted(date.startsAt, now)) throw AppError.badRequest('event_date_past', 'That date has already started: choose a later one.', 'dateId');
  return { dateId: date.id, counted: date.capacity === null ? [] : [date] };
}

export async function soldOutError(notes: SoldOutNotes | undefined, userId: string, eventId: string, left: number): Promise<AppError> {
  const note = await notes?.soldOutNote(userId, eventId);
  if (note) return AppError.conflict(note.code, note.message, { params: note.params });
  return left <= 0 ? AppError.conflict('sold_out', ticketMessages.soldOut) : AppError.conflict('seats_left', seatsLeftMessage(left), { params: { seatsLeft: left } });
}

/** What a buyer is told their tickets were sent to; null: nobody to mail (a guest who gave no email; their tickets go by SMS). */
type TicketContact = { email: string; username: string | null; language: Language; ticketsUrl?: string | undefined } | null;

/** What `afterIssue` callers already know, saving the lookups. */
export interface KnownIssue {
  contact: TicketContact;
  event: { id: string; title: string; startsAt: Date; location: string };
  payment?: TicketMailInput['payment'];
}

/** A ticket email as its outbox row keeps it (kind 'tickets'): drawn when sent, QR images included; what is missing is looked up then. */
interface TicketMailBody {
  userId: string;
  eventId: string;
  tickets: Array<{ id: string; code: string }>;
  contact?: TicketContact;
  event?: { id: string; title: string; startsAt: string; location: string };
  payment?: TicketMailInput['payment'];
}

/** A bought ticket's answers to the event's checkout questions (the checkout-questions module, above tickets; app.ts fills it). */
export interface TicketAnswers {
  ticketAnswers(eventId: string): Promise<{ questions: Array<{ _id: string; label: string }>; byTicket: Map<string, Array<{ questionId: string; label: string; answer: string }>> }>;
}

export interface TicketsServiceDeps {
  db: Database;
  /** Checkout questions' answers for the attendee list, its CSV and the gate list; absent: none shown. */
  answers?: TicketAnswers | undefined;
  /** Why a sold-out refusal happened when the buyer's waitlist offer expired. */
  soldOut?: SoldOutNotes | undefined;
  orders: PaidOrders;
  signer: TicketSigner;
  /** Ticket emails go through the outbox: a row written with the tickets, sent by a job. */
  mail: MailOutbox;
  logger: Logger;
  publicUrl: string;
  /** Told after tickets are committed, so cached event bodies (seats, registered users) are dropped. */
  changes: ChangeFeed;
  /** Renders a ticket code's QR as PNG for the email; the `qrcode` package (./qr.ts) by default. */
  qrPng?: ((code: string) => Promise<Buffer>) | undefined;
}

type MineRow = Awaited<ReturnType<ReturnType<typeof createTicketsRepository>['listForUser']>>[number];

/** A ticket as My Tickets shows it, with whether its holder may cancel it now. */
function toMyTicket(row: MineRow, now: Date) {
  const paid = ticketPaid(row, { amount: row.orderAmount, quantity: row.orderQuantity });
  const refundPolicy = refundPolicyOf(row.event);
  // What the Cancel button says: the same rule self-cancel enforces (@tukio/shared/refund-policy).
  const terms = row.voidedAt
    ? { allowed: false as const, reason: voidedMessage(row.voidReason) }
    : row.checkedInAt
      ? { allowed: false as const, reason: ticketMessages.used }
      : selfCancelTerms(refundPolicy, { msUntilStart: msUntilStart(row.event.startsAt, now), paid: paid > 0 });
  return {
    _id: row.id,
    code: row.code,
    checkedInAt: row.checkedInAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    orderId: row.orderId,
    voidedAt: row.voidedAt?.toISOString() ?? null,
    voidReason: row.voidReason,
    transferredFrom: row.transferredFrom,
    pricePaid: paid,
    // What the card says when the event is cancelled: "refunded" only to a holder who paid (the cancellation email says the same).
    paidByHolder: paid > 0 && row.boughtByHolder,
    ticketType: row.ticketTypeId && row.ticketTypeName ? { _id: row.ticketTypeId, name: row.ticketTypeName } : null,
    // Series fields only on a series (docs/decisions/event-series.md): the date the ticket admits on, or a pass for all.
    ...(row.eventHasDates ? { seriesDate: row.dateId && row.dateStartsAt ? { _id: row.dateId, startsAt: new Date(row.dateStartsAt).toISOString() } : null, allDates: !row.dateId } : {}),
    selfCancel: terms.allowed ? { allowed: true, reason: null, refundPercent: terms.percent } : { allowed: false, reason: terms.reason, refundPercent: 0 },
    event: {
      _id: row.event.id,
      title: row.event.title,
      date: row.event.startsAt.toISOString(),
      location: row.event.location,
      image: row.event.image,
      isPaid: row.event.isPaid,
      ticketPrice: row.event.ticketPrice,
      status: row.event.status,
      refundPolicy,
    },
  };
}

export function createTicketsService(deps: TicketsServiceDeps) {
  const { db, signer } = deps;
  /** Stock changes for one event queue in memory before taking the event row lock. */
  const perEvent = createKeyedQueue();
  /**
   * Other mail about tickets (`queueMail`) is built one at a time in the background, then written to the
   * outbox: during a burst it takes one slot of the event loop instead of competing with every checkout.
   */
  const mailQueue = createBackgroundQueue();
  const checkinSync = createCheckinSync({ db, signer, voidedMessage });

  /** Each ticket's answers to the checkout questions (`answers`), only when the event asks any: lists without questions keep their shape. */
  async function withAnswers<T extends { ticketId: string }>(eventId: string, list: T[]): Promise<Array<T & { answers?: Array<{ questionId: string; label: string; answer: string }> }>> {
    if (!deps.answers) return list;
    const { questions, byTicket } = await deps.answers.ticketAnswers(eventId);
    if (questions.length === 0) return list;
    return list.map((item) => ({ ...item, answers: byTicket.get(item.ticketId) ?? [] }));
  }

  // The ticket email is drawn (QR images, MIME) when the outbox's job sends it, on whichever instance.
  deps.mail.render('tickets', async (stored) => {
    const body = stored as TicketMailBody;
    const contact = body.contact === undefined ? await createTicketsRepository(db).userContact(body.userId) : body.contact;
    const event = body.event ? { ...body.event, startsAt: new Date(body.event.startsAt) } : await createTicketsRepository(db).findEvent(body.eventId);
    if (!contact || !event || body.tickets.length === 0) return undefined;
    return buildTicketMail({
      to: contact.email,
      username: contact.username,
      language: contact.language,
      ticketsUrl: 'ticketsUrl' in contact ? contact.ticketsUrl : undefined,
      event: { id: event.id, title: event.title, startsAt: event.startsAt, location: event.location },
      tickets: body.tickets,
      payment: body.payment,
      publicUrl: deps.publicUrl,
      qrPng: deps.qrPng ?? qrPng,
    });
  });

  /** The ticket email's outbox row, or none when there is nobody to mail. */
  function ticketMailRows(userId: string, eventId: string, tickets: Array<{ id: string; code: string }>, known: KnownIssue | undefined) {
    if (known?.contact === null || tickets.length === 0) return [];
    const body: TicketMailBody = {
      userId,
      eventId,
      tickets: tickets.map(({ id, code }) => ({ id, code })),
      ...(known ? { contact: known.contact, event: { ...known.event, startsAt: known.event.startsAt.toISOString() }, payment: known.payment } : {}),
    };
    return [{ purpose: `tickets for event ${eventId}`, recipient: known?.contact?.email ?? `user ${userId}`, kind: 'tickets', body }];
  }

  /**
   * Check-in on an event series (docs/decisions/event-series.md): the door admits for one date; a ticket for
   * another date is refused saying which, an all-dates pass is admitted once on each date.
   */
  async function checkInOnDate(actor: AuthUser, organiserId: string, ticketId: string, eventId: string, dates: EventDateRow[], dateId: string | undefined, device: string | null) {
    if (!dateId) throw AppError.badRequest('checkin_date_required', 'This event has several dates: choose the date you are checking in for.', 'dateId');
    const date = dates.find((candidate) => candidate.id === dateId);
    if (!date) throw AppError.notFound('event_date_not_found', 'No such date for this event.');
    if (date.status === 'cancelled') throw AppError.conflict('event_date_cancelled', 'This date was cancelled.');
    const ticket = await createTicketsRepository(db).findById(ticketId);
    if (!ticket || ticket.eventId !== eventId) throw AppError.notFound('ticket_does_not_exist', 'This ticket does not exist (it may have been cancelled).');
    if (ticket.voidedAt) throw voidedError(ticket.voidReason, { voidedAt: ticket.voidedAt.toISOString(), voidReason: ticket.voidReason });
    if (ticket.dateId && ticket.dateId !== dateId) {
      const own = dates.find((candidate) => candidate.id === ticket.dateId);
      const when = own ? formatWallClock(own.startsAt) : 'another date';
      throw AppError.conflict('checkin_wrong_date', `This ticket is for ${when}, not for this date.`, { params: { date: when }, body: { ticketDateId: ticket.dateId } });
    }
    const admitted = await db.transaction(async (tx) => {
      const row = await createTicketsRepository(tx).checkInOnDate(ticket.id, dateId, actor.id, device);
      if (row) {
        await createCheckinScansRepository(tx).record({ eventId, ticketId: ticket.id, device, scannedAt: row.checkedInAt, deviceScannedAt: row.checkedInAt, scannedBy: actor.id, offline: false, dateId });
        await emitWebhook(tx, organiserId, 'ticket.checked_in', { eventId, ticketId: ticket.id, orderId: ticket.orderId, checkedInAt: row.checkedInAt.toISOString(), device });
      }
      return row;
    });
    if (admitted) return { message: 'Checked in', ticket: { _id: ticket.id, userId: ticket.userId, checkedInAt: admitted.checkedInAt.toISOString() } };
    const first = await createTicketsRepository(db).dateCheckin(ticket.id, dateId);
    const when = first!.checkedInAt.toISOString();
    // The gate that admitted it on this date, from that date's first scan.
    const [firstScan] = await createCheckinScansRepository(db).scansOf(ticket.id, dateId);
    throw new AppError(409, 'ticket_already_used', `This ticket was already used at ${when}.`, {
      params: { at: when },
      body: { checkedInAt: when, checkedInDevice: firstScan?.device ?? null, ticket: { _id: ticket.id, userId: ticket.userId } },
    });
  }

  const service = {
    /** Shutdown: lets the ticket emails being built reach the outbox (true), or gives up after `timeoutMs` (false). */
    flushMail(timeoutMs: number): Promise<boolean> {
      return mailQueue.idle(timeoutMs);
    },
    /** Ticket mails being built before they reach the outbox, for the metrics (background_queue_depth). */
    mailQueueDepth: () => mailQueue.pending,

    /**
     * Other mail about tickets (a cancelled event's notice to its holders): built in the background queue,
     * one at a time, then written to the outbox; flushed at shutdown, a failure only logged. `build` runs
     * when its turn comes.
     */
    queueMail(what: string, build: () => Promise<Mail | undefined>) {
      mailQueue.push(async () => {
        const mail = await build();
        if (mail) await deps.mail.send(mail, what);
      }, (error: unknown) => deps.logger.error(`${what} failed`, error));
    },

    /** Writes the ticket email in the caller's transaction (the one issuing the tickets); `afterIssue` with `mailed` after the commit. */
    mailTickets(executor: Executor, userId: string, eventId: string, tickets: Array<{ id: string; code: string }>, known?: KnownIssue): Promise<void> {
      return deps.mail.enqueue(ticketMailRows(userId, eventId, tickets, known), executor);
    },

    /**
     * Issues `quantity` signed tickets inside the caller's transaction (the one that marks the
     * payment successful or registers a free seat) and counts them as registrations.
     */
    async issueInTransaction(
      tx: Executor,
      input: { eventId: string; userId: string; orderId: string | null; quantity: number; now: Date; beforeActivity?: () => Promise<unknown>; dateId?: string | null },
    ): Promise<TicketRow[]> {
      const repo = createTicketsRepository(tx);
      // A bought seat becomes a ticket of the type it was bought as, with its share of the payment; a free one is of the event's (only) type.
      const slots = input.orderId ? await repo.orderSlots(input.orderId) : [];
      const freeType = slots.length === 0 ? await repo.defaultTypeId(input.eventId) : undefined;
      const rows = service.prepare(input.eventId, input.quantity).map((ticket, index) => ({
        ...ticket,
        eventId: input.eventId,
        userId: input.userId,
        orderId: input.orderId,
        ticketTypeId: slots[index]?.ticketTypeId ?? freeType ?? null,
        pricePaid: slots[index]?.pricePaid ?? (input.orderId ? null : 0),
        // The series date the seat was bought for (null: one-date event or all-dates pass).
        dateId: slots[index]?.dateId ?? input.dateId ?? null,
      }));
      const issued = await repo.insert(rows);
      await input.beforeActivity?.();
      // Last statement before commit: the shared daily counter row stays locked as briefly as possible.
      await countRegistrations(tx, input.eventId, input.quantity, input.now.toISOString().slice(0, 10));
      return issued;
    },

    /** New ticket ids with their signed codes, for an insert the caller makes. */
    prepare(eventId: string, quantity: number): Array<{ id: string; code: string }> {
      return Array.from({ length: quantity }, () => {
        const id = newId();
        return { id, code: signer.sign(id, eventId) };
      });
    },

    /**
     * Once tickets are committed: announces the event's new seat count and queues the ticket email in the
     * outbox (sent by its job; a mail failure never undoes the tickets). `known` saves the lookups when the
     * caller already read the buyer and the event; `mailed`: the caller wrote the email in its transaction
     * (`mailTickets`), so it only needs sending. Without it the row is written right after the commit: an
     * instance killed in between loses that email, not the tickets (shown on the profile or ticket page).
     * Resolves once the row is written (never rejects: a mail that could not be queued is logged), so the
     * request that issued the tickets is answered after it.
     */
    async afterIssue(userId: string, eventId: string, tickets: Array<{ id: string; code: string }>, known?: KnownIssue, options: { mailed?: boolean } = {}): Promise<void> {
      deps.changes.publish('event-tickets', eventId);
      if (options.mailed) {
        deps.mail.soon();
        return;
      }
      await deps.mail.enqueue(ticketMailRows(userId, eventId, tickets, known)).catch((error: unknown) => deps.logger.error(`ticket email for event ${eventId} not queued`, error));
    },

    /**
     * POST /api/events/register/:id. Free events: takes seats now (capacity checked under the
     * event row lock). Paid events: only confirms what a successful payment already issued.
     */
    async register(userId: string, eventId: string, quantity: number, dateId?: string): Promise<{ message: string }> {
      const now = new Date();
      const result = await perEvent.run(eventId, () => db.transaction(async (tx) => {
        const repo = createTicketsRepository(tx);
        const event = await repo.lockEvent(eventId);
        if (!event) throw AppError.notFound('event_not_found', ticketMessages.notFound);
        if (event.status === 'cancelled') throw AppError.conflict('event_cancelled', ticketMessages.cancelled);
        // A series (docs/decisions/event-series.md) is open while a date is ahead: the picked date's start is checked below.
        const dates = isFreeEvent(event) ? await repo.seriesDates(eventId, now) : [];
        if (dates.length === 0 && hasStarted(event.startsAt, now)) throw new AppError(400, 'event_past', ticketMessages.past);
        if (event.status !== 'approved') throw new AppError(400, 'event_not_open', ticketMessages.notOpen);
        if (!isFreeEvent(event)) {
          const paid = await deps.orders(tx).paidOrderFor(eventId, userId);
          if (!paid) throw new AppError(402, 'payment_required', ticketMessages.paymentRequired);
          return { message: ticketMessages.registered, issued: [] as TicketRow[] };
        }
        const series = dates.length > 0 ? await seriesSeat(repo, eventId, dates, dateId ?? null, now) : undefined;
        const registered = series ? await repo.userTicketsForDate(eventId, userId, series.dateId) : await repo.countFor(eventId, userId);
        if (registered > 0) return { message: ticketMessages.alreadyRegistered, issued: [] as TicketRow[] };
        // Under the event row lock the organiser's proposal takes too: a pause starts between two registrations.
        await refuseWhileSalesPaused(tx, eventId);
        if (series) {
          // The hold's per-date rule: a seat on its date, a pass a seat on every active date; the dates' capacities replace the event's.
          const left = Math.min(...series.counted.map((date) => date.capacity! - date.taken));
          if (series.counted.length > 0 && quantity > left) return { soldOut: Math.max(0, left) };
        } else if (event.capacity !== null) {
          const left = event.capacity - (await repo.seatsTaken(eventId, now, { userId }));
          // Refused after the transaction: saying why may read other modules' rows on another connection.
          if (quantity > left) return { soldOut: left };
        }
        const issued = await service.issueInTransaction(tx, { eventId, userId, orderId: null, quantity, now, dateId: series?.dateId ?? null });
        const contact = await repo.userContact(userId);
        await service.mailTickets(tx, userId, eventId, issued, {
          contact: contact ?? null,
          event: { id: event.id, title: event.title, startsAt: event.startsAt, location: event.location },
        });
        return { message: ticketMessages.registered, issued };
      }));
      if (result.soldOut !== undefined) throw await soldOutError(deps.soldOut, userId, eventId, result.soldOut);
      if (result.issued.length > 0) void service.afterIssue(userId, eventId, result.issued, undefined, { mailed: true });
      return { message: result.message };
    },

    async listMine(userId: string) {
      const rows = await createTicketsRepository(db).listForUser(userId);
      const now = new Date();
      return rows.map((row) => toMyTicket(row, now));
    },

    /** GET /api/tickets/mine/paged: a page of the caller's tickets, each with its place among that event's tickets. */
    async pageMine(userId: string, query: { limit: number; cursor?: CursorKey | undefined }) {
      const repo = createTicketsRepository(db);
      const [rows, total] = await Promise.all([repo.pageForUser(userId, query.cursor, query.limit), repo.countForUser(userId)]);
      const page = toPage(rows, query.limit, total, (row) => [row.startsAtMicros, row.id]);
      const now = new Date();
      return { ...page, items: page.items.map((row) => ({ ...toMyTicket(row, now), position: { index: row.indexForEvent, of: row.countForEvent } })) };
    },

    /**
     * POST /api/tickets/:id/transfer: before the event starts, the holder gives a ticket to another
     * account. Under the event row lock, the ticket is voided ('transferred') and the recipient gets a
     * new ticket with a newly signed code on the same order, of the same type and price (`carriedOver`:
     * the money trail stays); the old code is refused at the door. The recipient is emailed the new ticket with its QR.
     */
    async transfer(user: AuthUser, ticketId: string, to: string) {
      const found = await createTicketsRepository(db).findById(ticketId);
      if (!found || found.userId !== user.id) throw AppError.notFound('ticket_not_found', ticketMessages.ticketNotFound);
      const recipient = await findAccountByLogin(db, to);
      if (!recipient) throw AppError.notFound('unknown_recipient', ticketMessages.unknownRecipient);
      if (recipient.id === user.id) throw new AppError(400, 'transfer_to_self', ticketMessages.toSelf);
      const now = new Date();
      const eventId = found.eventId;
      // A deadlock with a cancel of the same ticket (or of its event) runs the transfer again, which then finds the ticket void: a 409.
      const result = await perEvent.run(eventId, () => retryOnDeadlock(() => db.transaction(async (tx) => {
        const repo = createTicketsRepository(tx);
        const event = await repo.lockEvent(eventId);
        if (!event) throw AppError.notFound('event_not_found', ticketMessages.notFound);
        const [ticket] = await repo.lockTickets([ticketId]);
        // Read again under the lock: a transfer or cancel of the same ticket that ran first wins.
        if (!ticket || ticket.userId !== user.id) throw AppError.notFound('ticket_not_found', ticketMessages.ticketNotFound);
        if (ticket.voidedAt) throw voidedError(ticket.voidReason);
        if (ticket.checkedInAt) throw AppError.conflict('ticket_used', ticketMessages.used);
        if (event.status === 'cancelled') throw AppError.conflict('event_cancelled', ticketMessages.cancelled);
        if (hasStarted(event.startsAt, now)) throw new AppError(400, 'event_past', ticketMessages.past);
        const voided = await repo.voidTickets([ticketId], 'transferred', now);
        if (voided.length !== 1) throw AppError.conflict('ticket_void_transferred', ticketMessages.transferred);
        const [replacement] = service.prepare(eventId, 1);
        const [issued] = await repo.insert([{ ...replacement!, eventId, userId: recipient.id, transferredFrom: ticket.id, ...carriedOver(ticket) }]);
        await service.mailTickets(tx, recipient.id, eventId, [issued!], {
          contact: { email: recipient.email, username: recipient.username, language: recipient.language },
          event: { id: event.id, title: event.title, startsAt: event.startsAt, location: event.location },
        });
        await emitWebhook(tx, event.userId, 'ticket.transferred', { eventId, ticketId: ticket.id, newTicketId: issued!.id, orderId: ticket.orderId });
        return { event, issued: issued! };
      })));
      void service.afterIssue(recipient.id, eventId, [result.issued], undefined, { mailed: true });
      return {
        message: `Ticket transferred to ${recipient.username}. Your old ticket code no longer admits anyone.`,
        ticket: { _id: result.issued.id, eventId },
        to: { _id: recipient.id, username: recipient.username },
      };
    },

    async eventForStaff(actor: AuthUser, eventId: string): Promise<EventRow> {
      const event = await createTicketsRepository(db).findEvent(eventId);
      if (!event) throw AppError.notFound('event_not_found', ticketMessages.notFound);
      requireOwner(actor, event.userId, { code: 'checkin_not_organiser', message: 'Only the event organiser or an admin can do that.' });
      return event;
    },

    /**
     * Door check-in: the signature and event are checked, then the first scan wins atomically. The scan
     * is recorded (with the gate device's name when sent) so gates syncing offline scans later compare
     * against it (checkin-sync.ts).
     */
    async checkIn(actor: AuthUser, eventId: string, code: string, device: string | null = null, dateId?: string) {
      const event = await service.eventForStaff(actor, eventId);
      const claims = signer.verify(code);
      if (!claims) throw new AppError(400, 'ticket_code_invalid', ticketMessages.badCode);
      if (claims.eventId !== eventId) throw new AppError(400, 'ticket_other_event', 'This ticket is for a different event.');
      const dates = await eventSeries(db).listDates(eventId);
      if (dates.length > 0) return checkInOnDate(actor, event.userId, claims.ticketId, eventId, dates, dateId, device);
      const checked = await db.transaction(async (tx) => {
        const row = await createTicketsRepository(tx).checkIn(claims.ticketId, eventId, actor.id, device);
        if (row) {
          await createCheckinScansRepository(tx).record({ eventId, ticketId: row.id, device, scannedAt: row.checkedInAt!, deviceScannedAt: row.checkedInAt!, scannedBy: actor.id, offline: false });
          await emitWebhook(tx, event.userId, 'ticket.checked_in', { eventId, ticketId: row.id, orderId: row.orderId, checkedInAt: row.checkedInAt!.toISOString(), device });
        }
        return row;
      });
      if (checked) {
        return { message: 'Checked in', ticket: { _id: checked.id, userId: checked.userId, checkedInAt: checked.checkedInAt!.toISOString() } };
      }
      const ticket = await createTicketsRepository(db).findById(claims.ticketId);
      if (!ticket || ticket.eventId !== eventId) throw AppError.notFound('ticket_does_not_exist', 'This ticket does not exist (it may have been cancelled).');
      if (ticket.voidedAt) throw voidedError(ticket.voidReason, { voidedAt: ticket.voidedAt.toISOString(), voidReason: ticket.voidReason });
      const when = ticket.checkedInAt!.toISOString();
      throw new AppError(409, 'ticket_already_used', `This ticket was already used at ${when}.`, {
        params: { at: when },
        body: { checkedInAt: when, checkedInDevice: ticket.checkedInDevice, ticket: { _id: ticket.id, userId: ticket.userId } },
      });
    },

    /** POST /api/events/:id/checkin/sync: a gate device's offline scans, decided across devices (checkin-sync.ts). */
    async syncScans(actor: AuthUser, eventId: string, input: { sentAt?: string | undefined; scans: OfflineScan[] }) {
      await service.eventForStaff(actor, eventId);
      return checkinSync.sync(actor, eventId, input);
    },

    /** GET /api/events/:id/gate-list: what a gate device keeps to check tickets offline. */
    async gateList(actor: AuthUser, eventId: string) {
      await service.eventForStaff(actor, eventId);
      const list = await checkinSync.gateList(eventId);
      return { ...list, tickets: await withAnswers(eventId, list.tickets) };
    },

    async attendees(actor: AuthUser, eventId: string) {
      await service.eventForStaff(actor, eventId);
      const rows = await createTicketsRepository(db).listForEvent(eventId);
      return withAnswers(eventId, rows.map(toAttendee));
    },

    /** The attendee list with the checkout questions' labels, for the CSV's extra columns. */
    async attendeesWithQuestions(actor: AuthUser, eventId: string) {
      await service.eventForStaff(actor, eventId);
      const rows = await createTicketsRepository(db).listForEvent(eventId);
      const answers: Awaited<ReturnType<TicketAnswers['ticketAnswers']>> = deps.answers ? await deps.answers.ticketAnswers(eventId) : { questions: [], byTicket: new Map() };
      return { questions: answers.questions, attendees: rows.map(toAttendee).map((attendee) => ({ ...attendee, answers: answers.byTicket.get(attendee.ticketId) ?? [] })) };
    },

    /** One page of the attendees in username order, with how many hold a ticket and how many are in. */
    async attendeePage(actor: AuthUser, eventId: string, page: { limit: number; cursor?: CursorKey | undefined }) {
      await service.eventForStaff(actor, eventId);
      const repo = createTicketsRepository(db);
      const [rows, counts] = await Promise.all([repo.attendeePage(eventId, { limit: page.limit + 1, after: page.cursor }), repo.countAttendees(eventId)]);
      const result = toPage(rows, page.limit, counts.total, (row) => [row.username, row.id]);
      return { ...result, items: await withAnswers(eventId, result.items.map(toAttendee)), checkedIn: counts.checkedIn };
    },

    publicKey: () => signer.publicKey,
  };
  return service;
}

export type TicketsService = ReturnType<typeof createTicketsService>;

type AttendeeRow = Awaited<ReturnType<ReturnType<typeof createTicketsRepository>['listForEvent']>>[number];

/**
 * A guest buyer (docs/decisions/guest-checkout.md) is listed as "Guest 0722 ••• 111" with the email they gave
 * (or none), never as their placeholder account (`guest-2547…`, `2547…@guest.invalid`).
 */
const toAttendee = (row: AttendeeRow) => ({
  ticketId: row.id,
  userId: row.userId,
  username: row.guestPhone ? `Guest ${maskKenyanPhone(row.guestPhone)}` : row.username,
  email: row.guestPhone ? (row.guestEmail ?? '') : row.email,
  guest: row.guestPhone ? { phone: maskKenyanPhone(row.guestPhone), email: row.guestEmail } : null,
  orderId: row.orderId,
  checkedInAt: row.checkedInAt?.toISOString() ?? null,
  issuedAt: row.createdAt.toISOString(),
});

/** CSV with every cell quoted; cells that a spreadsheet would run as a formula are prefixed with '. */
export function toCsv(header: string[], rows: Array<Array<string | number | null>>): string {
  const cell = (value: string | number | null) => {
    let text = value === null ? '' : String(value);
    if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
    return `"${text.replace(/"/g, '""')}"`;
  };
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}
