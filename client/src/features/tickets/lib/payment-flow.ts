/*
 * The paid-ticket flow as a state machine (docs/product.md, docs/payments.md "How the client should poll"):
 *
 *   idle → confirm (the price) → questions (only when the event asks any of this order: the buyer's answers go with
 *   the push, docs/decisions/checkout-questions.md) → phone → initiating: take a place in the sale's line (POST /api/events/:id/queue),
 *   then the STK push → pending: poll confirmPayment every 3 s until it leaves `pending` (at most ~2 min; a manual
 *   Confirm appears 20 s after the push) → registering (signed in: POST /api/events/register/:id) → done.
 *   A busy sale parks the buyer in `queued` (their place, asked again when the server says) until their turn sends
 *   the push by itself, or the event sells out; a push refused with 429 `waiting_room_queued` (their turn lapsed)
 *   waits the same way. A push whose answer was lost (`payment_outcome_unknown`) stays `pending` while the
 *   buyer's transactions are searched for its payment, which is then followed as any push. Any outcome but a
 *   paid one ends in `failed`, from which Try again goes back to the phone number.
 *   Signed out (`guest`) there is nothing to register: a success ends in `done` with the ticket page's link.
 *
 * Pure: every event is an action, time comes with the actions that need it (`now`), and whatever must be asked
 * next is the state's `task` (what to request, after how long), which ../hooks/use-ticket-payment.ts runs and
 * answers with another action. An answer to a task that is no longer the state's is dropped, so a late answer
 * (the buyer left the line, the payment settled meanwhile) changes nothing.
 */
import { getErrorCode, getErrorResponse, getErrorStatus, getServerMessage, isRequestError } from '../../../lib/errors';
import { t, translatedLabels } from '../../../lib/i18n';
import type { ConfirmResult, PaybillDetails, StkPushInput, StkPushResult } from '../api/payment-client';
import type { QueuePlace, TransactionRecord } from '../api/tickets-api';
import type { AnswerInput, CheckoutQuestion } from '@tukio/shared/checkout-questions';
import { answerFields } from './checkout-answers';
import { orderAmount, type TicketOrder } from './ticket-order';

/** The status lines, in the language of the moment (read when set). */
export const STATUS = translatedLabels({
  notPaid: 'tickets.statusNotPaid',
  initiated: 'tickets.statusInitiated',
  success: 'tickets.statusSuccess',
  failed: 'tickets.statusFailed',
  received: 'tickets.statusReceived',
  reserved: 'tickets.statusReserved',
  queued: 'tickets.statusQueued',
});

export const ERRORS = translatedLabels({
  initiate: 'tickets.errorInitiate',
  payment: 'tickets.errorPayment',
  confirm: 'tickets.errorConfirm',
  nothingToConfirm: 'tickets.errorNothingToConfirm',
});

export const POLL_INTERVAL_MS = 3_000;
export const CONFIRM_BUTTON_AFTER_MS = 20_000;
export const POLL_FOR_MS = 120_000;
/** How long 'Payment successful' stays on screen before the purchase is reported done. */
export const SUCCESS_PAUSE_MS = 1_500;
/** A saved push older than this is not resumed (its seat hold has long expired). */
export const RESUME_WITHIN_MS = 15 * 60_000;
/** How long to wait before asking again after the line could not be read. */
export const QUEUE_RETRY_MS = 3_000;
/** How far the server's clock may be behind this browser's when a push's payment is looked for by time. */
const CLOCK_SKEW_MS = 60_000;
/** Said when the polling gives up. Not yet in the catalogs: shown in English in either language. */

/**
 * `paybill`: the buyer pays from the M-Pesa menu instead of the prompt (chosen, or offered after the prompt was
 * dismissed or failed, docs/decisions/paybill.md): the Paybill details are shown while the push's status is polled
 * until the order is paid or its hold runs out.
 */
export type PaymentPhase = 'idle' | 'confirm' | 'questions' | 'phone' | 'initiating' | 'queued' | 'pending' | 'paybill' | 'registering' | 'done' | 'failed';

/** A push being followed, as localStorage keeps it so that a reload or a closed dialog loses nothing. */
export interface SavedPush {
  checkoutRequestId: string;
  quantity: number;
  amount: number | null;
  phone: string;
  startedAt: number;
  simulatorUrl?: string | null;
  /** The order's Paybill details, when the server offers paying from the M-Pesa menu. */
  paybill?: PaybillDetails | null;
}

/** The next request the flow makes, `afterMs` from when it is set (each carries what the request needs). */
export type PaymentTask = JoinTask | PushTask | QueueTask | PollTask | LookTask | RegisterTask;
/** POST the sale's line. */
export interface JoinTask { kind: 'join'; afterMs: number; guestPhone: string | null }
/** The STK push (the event id is the hook's). */
export interface PushTask { kind: 'push'; afterMs: number; input: Omit<StkPushInput, 'eventId'> }
/** GET the buyer's place in the line. */
export interface QueueTask { kind: 'queue'; afterMs: number; guestPhone: string | null }
/** confirmPayment for the push followed. */
export interface PollTask { kind: 'poll'; afterMs: number; checkoutRequestId: string }
/** The buyer's transactions, searched for the payment of a push whose answer was lost. */
export interface LookTask { kind: 'look'; afterMs: number; pushedAt: number }
/** Register the paid tickets, keeping 'Payment successful' on screen at least SUCCESS_PAUSE_MS. */
export interface RegisterTask { kind: 'register'; afterMs: number; quantity: number }

/** What the page is told once: the purchase is done, or a payment ended without tickets (shown if the dialog is closed). */
export type PaymentNotice =
  | { kind: 'purchased'; message: string; quantity: number; registrationFailed: string | null }
  | { kind: 'outcome'; status: string; detail: string | null };

export interface PaymentState {
  phase: PaymentPhase;
  /** The status line (a polite live region). */
  status: string;
  /** The server's words about the outcome (resultDesc), or a hint while waiting. */
  detail: string | null;
  /** What went wrong (an alert). `busy` = Daraja 1001, a prompt is already pending on the phone. */
  error: { kind: 'busy' | 'phone' | 'general'; message: string } | null;
  /** Tickets in this order. */
  quantity: number;
  /** What was chosen (types, promo code), for the dialog's summary; null for a payment picked up after a reload. */
  order: TicketOrder | null;
  /** What the phone is asked for, as the server priced it. */
  amount: number | null;
  phone: string | null;
  /** A guest's optional email, sent with the push. */
  email: string | null;
  /** The event's checkout questions (empty: the questions step is skipped). */
  questions: CheckoutQuestion[];
  /** The buyer's answers, sent with the push; null until the questions step was passed (or when none is asked). */
  answers: AnswerInput[] | null;
  /** The offline simulator's phone page for this prompt (none with real M-Pesa). */
  simulatorUrl: string | null;
  confirmVisible: boolean;
  confirming: boolean;
  /** A guest's paid order: its ticket page (/t/<token>), shown instead of registering. */
  guestTicketPath: string | null;
  /** In a busy sale's line: the buyer's place and the wait left. */
  queue: { position: number; etaSeconds: number } | null;
  /**
   * The payment service took the push and never answered (`payment_outcome_unknown`): a prompt may be on the
   * phone, and the dialog looks for the payment in the buyer's transactions until it can follow it.
   */
  pushUnknown: boolean;
  /** Signed out: bought by phone, nothing to register. */
  guest: boolean;
  /** The push being followed until its outcome is known (what a reload picks up); null otherwise. */
  push: SavedPush | null;
  /** When polling (or looking for a lost push's payment) gives up. */
  deadline: number;
  /** The next request; null while the flow waits for the buyer (or has given up asking). */
  task: PaymentTask | null;
  notice: PaymentNotice | null;
  /** The deposit of an instalment plan was paid: the seats are reserved, the rest is paid from /profile (docs/decisions/instalments.md). */
  reserved: boolean;
}

export type PaymentAction =
  | { type: 'begin'; order: TicketOrder; questions?: CheckoutQuestion[] | undefined }
  | { type: 'acceptPrice'; instalments?: boolean }
  /** The questions step's answers, checked (lib/checkout-answers.ts): on to the phone number. */
  | { type: 'answered'; answers: AnswerInput[] }
  /** Back from the phone number to change the answers. */
  | { type: 'editAnswers' }
  | { type: 'pay'; phone: string; email?: string }
  /** The line's answer; null when it could not be asked (the push goes ahead). */
  | { type: 'joined'; task: JoinTask; place: QueuePlace | null }
  | { type: 'pushed'; task: PushTask; result: StkPushResult; now: number }
  | { type: 'pushFailed'; task: PushTask; error: unknown; now: number }
  /** The buyer's place; null when it could not be read. */
  | { type: 'queueAnswered'; task: QueueTask; place: QueuePlace | null }
  | { type: 'polled'; task: PollTask; result: ConfirmResult; now: number }
  | { type: 'pollFailed'; task: PollTask; error: unknown; now: number }
  /** The payment of the lost push, or undefined while it is not there (or the list could not be read). */
  | { type: 'looked'; task: LookTask; found: TransactionRecord | undefined; now: number }
  | { type: 'registered'; task: RegisterTask; message: string }
  | { type: 'registerFailed'; task: RegisterTask; error: unknown }
  | { type: 'confirmButtonDue'; checkoutRequestId: string }
  | { type: 'confirmPressed' }
  | { type: 'confirmed'; checkoutRequestId: string; result: ConfirmResult }
  | { type: 'confirmFailed'; checkoutRequestId: string; error: unknown }
  /** "Pay from the M-Pesa menu instead": the Paybill details, the push's status still polled. */
  | { type: 'usePaybill'; now: number }
  | { type: 'retry' }
  | { type: 'dismiss' };

export const initialState = (guest: boolean, quantity = 1): PaymentState => ({
  phase: 'idle',
  status: STATUS.notPaid,
  detail: null,
  error: null,
  quantity,
  order: null,
  amount: null,
  phone: null,
  email: null,
  questions: [],
  answers: null,
  simulatorUrl: null,
  confirmVisible: false,
  confirming: false,
  guestTicketPath: null,
  queue: null,
  pushUnknown: false,
  guest,
  push: null,
  deadline: 0,
  task: null,
  notice: null,
  reserved: false,
});

/** An http(s) link, or null: anything else from the payment service is not shown as a link. */
function httpLink(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** M-Pesa's common outcomes of a prompt, said in the buyer's language (the server's resultDesc is English). */
const MPESA_OUTCOMES: Record<number, string> = {
  1: 'tickets.mpesaInsufficientBalance',
  1001: 'tickets.mpesaBusy',
  1019: 'tickets.mpesaExpired',
  1032: 'tickets.mpesaCancelled',
  1037: 'tickets.mpesaUnreachable',
  2001: 'tickets.mpesaWrongPin',
};

/** What went wrong with the prompt: a common M-Pesa outcome in the buyer's language, else the server's resultDesc without the words the status line already says. */
export function outcomeDetail(result: Pick<ConfirmResult, 'resultDesc' | 'resultdDesc' | 'resultCode' | 'status'>): string | null {
  const known = result.status !== 'success' && result.resultCode !== undefined ? MPESA_OUTCOMES[result.resultCode] : undefined;
  if (known) return t(known);
  const text = (result.resultDesc ?? result.resultdDesc ?? '').trim();
  const rest = text.replace(/^(Payment successful\.|Payment failed or cancelled:)\s*/i, '');
  if (!rest) return null;
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** The place a `waiting_room_queued` refusal carries; null for any other failure. */
function queuedPlace(error: unknown): { position: number; etaSeconds: number } | null {
  const response = getErrorResponse(error);
  const body = (response?.data ?? {}) as { code?: unknown; params?: { position?: unknown; seconds?: unknown } };
  if (response?.status !== 429 || body.code !== 'waiting_room_queued') return null;
  const position = Number(body.params?.position);
  const etaSeconds = Number(body.params?.seconds);
  return { position: Number.isFinite(position) ? position : 1, etaSeconds: Number.isFinite(etaSeconds) ? etaSeconds : 0 };
}

/**
 * The push reached the payment service, which never answered (it died or hung): the prompt may have been sent,
 * so this is not a failure to retry at once (docs/payments.md, "Outcome unknown").
 */
export function isOutcomeUnknown(error: unknown): boolean {
  const response = getErrorResponse(error);
  return (response?.status === 502 || response?.status === 504) && (response.data as { code?: unknown } | null)?.code === 'payment_outcome_unknown';
}

/**
 * The payment an unanswered push made, among the buyer's transactions (newest first): the newest for the event
 * recorded since the push started (less the clock skew); undefined while none is there yet.
 */
export function paymentOfUnansweredPush(transactions: TransactionRecord[], eventId: string, pushedAt: number): TransactionRecord | undefined {
  return transactions.find((item) => item.eventId === eventId && item.checkoutRequestId && item.createdAt !== undefined && Date.parse(item.createdAt) >= pushedAt - CLOCK_SKEW_MS);
}

function initiateError(error: unknown): PaymentState['error'] {
  if (!isRequestError(error) || !error.response) return { kind: 'general', message: ERRORS.payment };
  const server = getServerMessage(error);
  const body = (error.response.data ?? {}) as { errorCode?: unknown; field?: unknown };
  const busy = error.response.status === 409 && (/1001/.test(String(body.errorCode ?? '')) || /\b1001\b|already pending/i.test(server ?? ''));
  const message = !server ? ERRORS.initiate : server.startsWith(ERRORS.initiate) ? server : `${ERRORS.initiate}: ${server}`;
  if (busy) return { kind: 'busy', message };
  return { kind: body.field === 'phone' ? 'phone' : 'general', message };
}

const general = (message: string): PaymentState['error'] => ({ kind: 'general', message });

/** The flow a page load starts in: following the push saved before a reload (if recent), else idle. */
export function resumedState(saved: unknown, now: number, guest: boolean): PaymentState {
  const push = saved as Partial<SavedPush> | null;
  const idle = initialState(guest);
  if (typeof push?.checkoutRequestId !== 'string' || typeof push.startedAt !== 'number' || now - push.startedAt > RESUME_WITHIN_MS) return idle;
  return follow(idle, push as SavedPush, now, 0);
}

/** Start following a push: the first poll after `firstPollMs`, then every 3 s until the deadline. */
function follow(s: PaymentState, push: SavedPush, now: number, firstPollMs: number): PaymentState {
  const simulatorUrl = httpLink(push.simulatorUrl);
  return {
    ...s,
    phase: 'pending',
    status: STATUS.initiated,
    detail: t('tickets.waitingForMpesa'),
    error: null,
    push: { ...push, simulatorUrl },
    quantity: push.quantity,
    amount: push.amount,
    phone: push.phone,
    simulatorUrl,
    confirmVisible: now - push.startedAt >= CONFIRM_BUTTON_AFTER_MS,
    confirming: false,
    pushUnknown: false,
    deadline: Math.max(push.startedAt + POLL_FOR_MS, now + POLL_INTERVAL_MS),
    task: { kind: 'poll', afterMs: firstPollMs, checkoutRequestId: push.checkoutRequestId },
  };
}

/** After a poll or a look that settled nothing: ask again in 3 s, or give up (`gaveUp`) once that would pass the deadline. */
function askAgain(s: PaymentState, task: PollTask | LookTask, now: number, gaveUp: Partial<PaymentState>): PaymentState {
  if (now + POLL_INTERVAL_MS > s.deadline) return { ...s, ...gaveUp, task: null };
  return { ...s, task: { ...task, afterMs: POLL_INTERVAL_MS } };
}

const pollingGaveUp = (): Partial<PaymentState> => ({ confirmVisible: true, detail: t('tickets.notConfirmedYet') });

/** The prompt goes out: straight to the push once the line has admitted the buyer, else joining the line first. */
function sendPrompt(s: PaymentState, admitted: boolean): PaymentState {
  const { order, phone, email } = s;
  const task: PaymentTask = admitted
    ? {
        kind: 'push',
        afterMs: 0,
        input: {
          phone: phone ?? '',
          quantity: s.quantity,
          ...(order?.items ? { items: order.items } : {}),
          ...(order?.promoCode ? { promoCode: order.promoCode } : {}),
          ...(order?.date ? { dateId: order.date._id } : {}),
          amount: order ? orderAmount(order) : 0,
          ...(email ? { email } : {}),
          ...(s.answers ? { answers: s.answers } : {}),
          ...(order?.instalments ? { instalments: true } : {}),
        },
      }
    : { kind: 'join', afterMs: 0, guestPhone: s.guest ? phone : null };
  return { ...s, phase: 'initiating', error: null, detail: null, task };
}

function queued(s: PaymentState, queue: PaymentState['queue'], afterMs: number): PaymentState {
  return { ...s, phase: 'queued', status: STATUS.queued, detail: null, error: null, queue, task: { kind: 'queue', afterMs, guestPhone: s.guest ? s.phone : null } };
}

/** A Paybill offer still open at `now`: its seats are still held. */
const paybillOpen = (push: SavedPush | null, now: number) => Boolean(push?.paybill && Date.parse(push.paybill.holdExpiresAt) > now);

/** Pay from the menu: the push's status is polled until the order is paid or its hold runs out. */
function toPaybill(s: PaymentState, push: SavedPush, detail: string | null): PaymentState {
  return {
    ...s,
    phase: 'paybill',
    detail,
    error: null,
    confirmVisible: false,
    confirming: false,
    push,
    deadline: Date.parse(push.paybill!.holdExpiresAt),
    task: { kind: 'poll', afterMs: POLL_INTERVAL_MS, checkoutRequestId: push.checkoutRequestId },
  };
}

/** A confirmPayment answer that is not `pending` for the push followed: paid, or over without tickets. */
function settle(s: PaymentState, result: ConfirmResult, now = Date.now()): PaymentState {
  const detail = outcomeDetail(result);
  // The prompt was dismissed or failed, and the seats are still held: the Paybill is offered instead of "try again".
  if (result.status !== 'success' && s.push && paybillOpen(s.push, now)) {
    return toPaybill({ ...s, status: STATUS.failed }, s.push, detail);
  }
  const over: PaymentState = { ...s, detail, error: null, confirmVisible: false, confirming: false, push: null, task: null };
  // A deposit paid (docs/decisions/instalments.md): no tickets yet, nothing to register; the rest is paid from /profile.
  if (result.status === 'success' && result.orderStatus === 'reserved') return { ...over, phase: 'done', status: STATUS.reserved, detail: t('tickets.reservedDetail'), reserved: true };
  if (result.status === 'success' && result.success) {
    const quantity = typeof result.quantity === 'number' && result.quantity > 0 ? result.quantity : s.quantity;
    // A guest has nothing to register: the tickets went to the phone, and the page links to them too.
    if (s.guest) return { ...over, phase: 'done', status: STATUS.success, quantity, guestTicketPath: result.ticketToken ? `/t/${encodeURIComponent(result.ticketToken)}` : null };
    return { ...over, phase: 'registering', status: STATUS.success, quantity, task: { kind: 'register', afterMs: 0, quantity } };
  }
  const status = result.status === 'success' ? STATUS.received : STATUS.failed;
  return { ...over, phase: 'failed', status, notice: { kind: 'outcome', status, detail } };
}

const following = (s: PaymentState, checkoutRequestId: string) => s.phase === 'pending' && s.push?.checkoutRequestId === checkoutRequestId;

export function paymentFlow(s: PaymentState, action: PaymentAction): PaymentState {
  // The answer to a request the flow no longer waits for (it moved on, or the buyer left): nothing changes.
  if ('task' in action && action.task !== s.task) return s;
  switch (action.type) {
    case 'begin':
      // While a push is followed (or being sent) the dialog shows it instead.
      return s.phase === 'idle' || s.phase === 'failed' || s.phase === 'done'
        ? { ...initialState(s.guest, action.order.quantity), phase: 'confirm', phone: s.phone, order: action.order, questions: action.questions ?? [] }
        : s;
    case 'acceptPrice':
      if (s.phase !== 'confirm') return s;
      {
        // Paying in parts only where the chosen type offers it, and only signed in (the server refuses it otherwise too).
        const order = s.order && { ...s.order, instalments: Boolean(action.instalments && s.order.plan && !s.guest) };
        // The questions step only when the event asks something of this order.
        return { ...s, phase: order && answerFields(s.questions, order).length > 0 ? 'questions' : 'phone', status: STATUS.notPaid, error: null, order };
      }
    case 'answered':
      return s.phase === 'questions' ? { ...s, phase: 'phone', answers: action.answers, error: null } : s;
    case 'editAnswers':
      return s.phase === 'phone' && s.answers ? { ...s, phase: 'questions', error: null } : s;
    case 'pay':
      return s.phase === 'phone' ? sendPrompt({ ...s, phone: action.phone, email: action.email ?? null }, false) : s;
    case 'joined':
      // One light request first: in a busy sale the buyer waits in line instead of every push being refused.
      if (action.place && !action.place.admitted) return queued(s, { position: action.place.position ?? 1, etaSeconds: action.place.etaSeconds }, action.place.pollAfterMs);
      return sendPrompt(s, true);
    case 'pushed': {
      const { result, now } = action;
      if (result?.ResponseCode !== '0' || !result.CheckoutRequestID) return { ...s, phase: 'phone', error: general(ERRORS.initiate), task: null };
      const push: SavedPush = {
        checkoutRequestId: result.CheckoutRequestID,
        quantity: typeof result.quantity === 'number' ? result.quantity : s.quantity,
        amount: typeof result.amount === 'number' ? result.amount : null,
        phone: action.task.input.phone,
        startedAt: now,
        simulatorUrl: result.simulatorUrl,
        paybill: result.paybill ?? null,
      };
      return follow(s, push, now, POLL_INTERVAL_MS);
    }
    case 'pushFailed': {
      const { error, now } = action;
      if (isOutcomeUnknown(error)) {
        // The prompt may be on the phone: not a failure. Signed in, its payment is looked for among the buyer's
        // transactions and then followed; a guest has no list to look in (their tickets come by SMS if they pay).
        const status = getServerMessage(error) ?? t('errors.payment_outcome_unknown');
        if (s.guest) return { ...s, phase: 'failed', status, detail: t('tickets.outcomeUnknownGuest'), error: null, pushUnknown: true, task: null };
        return {
          ...s,
          phase: 'pending',
          status,
          detail: t('tickets.lookingForPayment'),
          error: null,
          confirmVisible: false,
          pushUnknown: true,
          deadline: now + POLL_FOR_MS,
          task: { kind: 'look', afterMs: POLL_INTERVAL_MS, pushedAt: now },
        };
      }
      const place = queuedPlace(error);
      if (place) return queued(s, place, 0);
      // The server refused an answer (the questions changed meanwhile): back to the questions, saying which.
      const answerRefused = s.questions.length > 0 && /^answer_/.test(getErrorCode(error) ?? '');
      return { ...s, phase: answerRefused ? 'questions' : 'phone', status: STATUS.notPaid, error: initiateError(error), task: null };
    }
    case 'queueAnswered': {
      const { place } = action;
      // A dropped connection or a busy server: the place is kept on the server, so keep asking.
      if (!place) return { ...s, error: general(t('tickets.queueCheckFailed')), task: { ...action.task, afterMs: QUEUE_RETRY_MS } };
      // Admitted: straight to the push (a lapsed place, not in line any more, joins again first).
      if (place.admitted || !place.inLine) return sendPrompt(s, place.admitted);
      if (place.soldOut) return { ...s, phase: 'failed', status: STATUS.failed, queue: null, error: general(t('errors.sold_out')), task: null };
      return { ...s, error: null, queue: { position: place.position ?? 1, etaSeconds: place.etaSeconds }, task: { ...action.task, afterMs: place.pollAfterMs } };
    }
    case 'polled':
      if (s.phase === 'paybill') {
        // Waiting for the payment from the menu: only a paid order ends it (or the hold running out).
        if (action.result.status === 'success' && (action.result.success || action.result.orderStatus === 'reserved')) return settle(s, action.result, action.now);
        return askAgain(s, action.task, action.now, { detail: t('tickets.paybillExpired') });
      }
      if (action.result.status !== 'pending') return settle(s, action.result, action.now);
      return askAgain({ ...s, detail: t('tickets.waitingForMpesa'), error: null }, action.task, action.now, pollingGaveUp());
    case 'pollFailed': {
      const status = getErrorStatus(action.error);
      if (status === 404 || status === 400) return { ...s, phase: 'failed', error: general(getServerMessage(action.error) ?? ERRORS.nothingToConfirm), push: null, task: null };
      // A dropped connection or a busy server: say so, keep trying until the deadline.
      return askAgain({ ...s, error: general(ERRORS.confirm) }, action.task, action.now, pollingGaveUp());
    }
    case 'looked': {
      const { found } = action;
      if (!found) return askAgain(s, action.task, action.now, { detail: t('tickets.lookingGaveUp') });
      const push: SavedPush = { checkoutRequestId: found.checkoutRequestId, quantity: found.quantity ?? s.quantity, amount: found.amount, phone: s.phone ?? '', startedAt: action.task.pushedAt };
      return follow(s, push, action.now, 0);
    }
    case 'registered':
    case 'registerFailed': {
      // The tickets were issued with the payment: a failed registration call is only reported.
      const registrationFailed = action.type === 'registered' ? null : (getServerMessage(action.error) ?? 'the registration could not be confirmed');
      const message = action.type === 'registered' ? action.message : STATUS.success;
      return { ...s, phase: 'done', task: null, notice: { kind: 'purchased', message, quantity: action.task.quantity, registrationFailed } };
    }
    case 'confirmButtonDue':
      return following(s, action.checkoutRequestId) ? { ...s, confirmVisible: true } : s;
    case 'confirmPressed':
      return s.phase === 'pending' && s.push ? { ...s, confirming: true, error: null } : { ...s, error: general(ERRORS.nothingToConfirm) };
    case 'confirmed': {
      if (!following(s, action.checkoutRequestId)) return s;
      if (action.result.status !== 'pending') return settle(s, action.result);
      return { ...s, detail: outcomeDetail(action.result) ?? t('tickets.waitingForMpesa'), error: null, confirming: false };
    }
    case 'confirmFailed': {
      if (!following(s, action.checkoutRequestId)) return s;
      const status = getErrorStatus(action.error);
      return { ...s, confirming: false, error: general(status === 404 || status === 400 ? (getServerMessage(action.error) ?? ERRORS.nothingToConfirm) : ERRORS.confirm) };
    }
    case 'usePaybill':
      return s.phase === 'pending' && s.push && paybillOpen(s.push, action.now) ? toPaybill(s, s.push, null) : s;
    case 'retry':
      // The answers given are kept: a retry goes back to the phone number only.
      return s.phase === 'failed' ? { ...initialState(s.guest, s.quantity), phase: 'phone', phone: s.phone, order: s.order, questions: s.questions, answers: s.answers } : s;
    case 'dismiss':
      // Closed before paying: forget the attempt and leave the line (a push in progress keeps being followed).
      return s.phase === 'confirm' || s.phase === 'questions' || s.phase === 'phone' || s.phase === 'failed' || s.phase === 'queued' ? { ...initialState(s.guest, s.quantity), phone: s.phone } : s;
  }
}
