/*
 * The paid-ticket flow (docs/product.md, docs/payments.md "How the client should poll"):
 *   confirm price → phone → POST stkPush → 'Payment initiated…' → poll POST confirmPayment every 3 s
 *   until status !== 'pending' (at most ~2 min; a manual Confirm appears 20 s after the push)
 *   → 'Payment successful' → POST /api/events/register/:id → done.
 * Before the push the buyer takes their place in the sale's line (POST /api/events/:id/queue: admitted at
 * once while nobody waits). In a busy sale the dialog shows their place, asks GET /api/events/:id/queue
 * when the server says, and sends the push by itself once it is their turn (or says the event sold out);
 * a push refused with 429 `waiting_room_queued` (their turn lapsed) waits the same way.
 * The push in progress is kept in localStorage, so a reload or a closed dialog loses nothing: the
 * page picks the payment up again and keeps following it.
 * Signed out (`userId` null) it is a guest purchase: no token goes with the push or the polls, there is
 * nothing to register, and a success ends on the ticket page link the SMS also carries.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { getErrorResponse, getErrorStatus, getServerMessage, isRequestError } from '../../../lib/errors';
import { getQueuePlace, getTransactionPage, joinQueue, registerForEvent, type TransactionRecord } from '../api/tickets-api';
import { confirmPayment, stkPush, type ConfirmResult } from '../api/payment-client';
import { readJson, writeJson } from '../lib/storage';
import { orderAmount, type TicketOrder } from '../lib/ticket-order';
import { t, translatedLabels } from '../../../lib/i18n';

/** The status lines, in the language of the moment (read when set). */
export const STATUS = translatedLabels({
  notPaid: 'tickets.statusNotPaid',
  initiated: 'tickets.statusInitiated',
  success: 'tickets.statusSuccess',
  failed: 'tickets.statusFailed',
  received: 'tickets.statusReceived',
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
const RESUME_WITHIN_MS = 15 * 60_000;

export type PaymentPhase = 'idle' | 'confirm' | 'phone' | 'initiating' | 'queued' | 'pending' | 'registering' | 'done' | 'failed';

export interface PaymentState {
  phase: PaymentPhase;
  /** The status line (a polite live region). */
  status: string;
  /** The server's words about the outcome (resultDesc), or a hint while waiting. */
  detail: string | null;
  /** What went wrong (an alert). `busy` = Daraja 1001, a prompt is already pending on the phone. */
  error: { kind: 'busy' | 'phone' | 'general'; message: string } | null;
  checkoutRequestId: string | null;
  /** Tickets in this order. */
  quantity: number;
  /** What was chosen (types, promo code), for the dialog's summary; null for a payment picked up after a reload. */
  order: TicketOrder | null;
  /** What the phone is asked for, as the server priced it. */
  amount: number | null;
  phone: string | null;
  /** The offline simulator's phone page for this prompt (none with real M-Pesa). */
  simulatorUrl: string | null;
  startedAt: number | null;
  /** The polling gave up after ~2 minutes; only the Confirm button is left. */
  stoppedWaiting: boolean;
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
}

interface SavedPush {
  checkoutRequestId: string;
  quantity: number;
  amount: number | null;
  phone: string;
  startedAt: number;
  simulatorUrl?: string | null;
}

const initialState = (quantity = 1): PaymentState => ({
  phase: 'idle',
  status: STATUS.notPaid,
  detail: null,
  error: null,
  checkoutRequestId: null,
  quantity,
  order: null,
  amount: null,
  phone: null,
  simulatorUrl: null,
  startedAt: null,
  stoppedWaiting: false,
  confirmVisible: false,
  confirming: false,
  guestTicketPath: null,
  queue: null,
  pushUnknown: false,
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

/** The server's resultDesc without the words the status line already says. */
export function outcomeDetail(result: Pick<ConfirmResult, 'resultDesc' | 'resultdDesc'>): string | null {
  const text = (result.resultDesc ?? result.resultdDesc ?? '').trim();
  const rest = text.replace(/^(Payment successful\.|Payment failed or cancelled:)\s*/i, '');
  if (!rest) return null;
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** How long to wait before asking again after the line could not be read. */
const QUEUE_RETRY_MS = 3_000;

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

/** How far the server's clock may be behind this browser's when a push's payment is looked for by time. */
const CLOCK_SKEW_MS = 60_000;

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

export interface TicketPaymentOptions {
  eventId: string;
  /** Null: a signed-out guest buys by phone. */
  userId: string | null;
  /** Whether the dialog is showing (outcomes reached while it is closed are reported by `onBackgroundOutcome`). */
  isOpen: () => boolean;
  /** Payment confirmed and registration answered: close the dialog and mark the page registered. */
  onPurchased: (message: string, quantity: number, registrationFailed: string | null) => void;
  /** A payment followed in the background (dialog closed) ended without tickets. */
  onBackgroundOutcome: (status: string, detail: string | null) => void;
}

export function useTicketPayment(options: TicketPaymentOptions) {
  const { eventId, userId } = options;
  const storageKey = `tukio-payment:${userId ?? 'guest'}:${eventId}`;
  const [state, setState] = useState<PaymentState>(initialState);
  const optionsRef = useRef(options);
  useEffect(() => {
    optionsRef.current = options;
  });
  /** The CheckoutRequestID being followed; anything answering for another id is stale. */
  const activeRef = useRef<string | null>(null);
  const timersRef = useRef<number[]>([]);
  const inflightRef = useRef<AbortController | null>(null);
  const settlingRef = useRef(false);
  /** Looking for the payment of a push whose answer was lost (no CheckoutRequestID to follow yet). */
  const lookingRef = useRef(false);
  /** Tickets in the order being bought or followed. */
  const quantityRef = useRef(1);
  /** The order Get Ticket was pressed for (what the push asks the server to sell). */
  const orderRef = useRef<TicketOrder | null>(null);
  /** The wait in a sale's line in progress (replaced or cleared when the buyer leaves it). */
  const queueRef = useRef<{ timer: number; controller: AbortController } | null>(null);
  const leaveLine = useCallback(() => {
    if (!queueRef.current) return;
    window.clearTimeout(queueRef.current.timer);
    queueRef.current.controller.abort();
    queueRef.current = null;
  }, []);
  useEffect(() => leaveLine, [leaveLine]);

  const clearTimers = useCallback(() => {
    for (const timer of timersRef.current) window.clearTimeout(timer);
    timersRef.current = [];
  }, []);

  const later = useCallback((fn: () => void, ms: number) => {
    timersRef.current.push(window.setTimeout(fn, ms));
  }, []);

  const stopFollowing = useCallback(() => {
    activeRef.current = null;
    lookingRef.current = false;
    clearTimers();
    inflightRef.current?.abort();
    inflightRef.current = null;
  }, [clearTimers]);

  useEffect(() => stopFollowing, [stopFollowing]);

  const register = useCallback(
    async (quantity: number) => {
      if (userId === null) return;
      setState((s) => ({ ...s, phase: 'registering' }));
      const shownAt = Date.now();
      let message: string = STATUS.success;
      let failure: string | null = null;
      try {
        message = await registerForEvent(eventId, userId, quantity);
      } catch (error) {
        // The tickets were issued with the payment; only the registration call failed.
        failure = getServerMessage(error) ?? 'the registration could not be confirmed';
      }
      // Let 'Payment successful' be seen (and announced) before the dialog goes away.
      const rest = shownAt + SUCCESS_PAUSE_MS - Date.now();
      if (rest > 0) await new Promise((resolve) => window.setTimeout(resolve, rest));
      setState((s) => ({ ...s, phase: 'done' }));
      optionsRef.current.onPurchased(message, quantity, failure);
    },
    [eventId, userId],
  );

  /** Applies a confirmPayment answer; true when the payment has left `pending`. */
  const settle = useCallback(
    (id: string, result: ConfirmResult): boolean => {
      if (activeRef.current !== id) return true;
      if (result.status === 'pending') {
        setState((s) => ({ ...s, detail: t('tickets.waitingForMpesa'), error: null }));
        return false;
      }
      if (settlingRef.current) return true;
      settlingRef.current = true;
      stopFollowing();
      writeJson(storageKey, null);
      const detail = outcomeDetail(result);
      if (typeof result.quantity === 'number' && result.quantity > 0) quantityRef.current = result.quantity;
      if (result.status === 'success' && result.success) {
        const quantity = quantityRef.current;
        if (userId === null) {
          // A guest has nothing to register: the tickets went to the phone, and the page links to them too.
          const guestTicketPath = result.ticketToken ? `/t/${encodeURIComponent(result.ticketToken)}` : null;
          setState((s) => ({ ...s, phase: 'done', status: STATUS.success, detail, error: null, confirmVisible: false, quantity, guestTicketPath }));
          return true;
        }
        setState((s) => ({ ...s, status: STATUS.success, detail, error: null, confirmVisible: false, quantity }));
        void register(quantity);
        return true;
      }
      const status = result.status === 'success' ? STATUS.received : STATUS.failed;
      setState((s) => ({ ...s, phase: 'failed', status, detail, error: null, confirmVisible: false, confirming: false }));
      if (!optionsRef.current.isOpen()) optionsRef.current.onBackgroundOutcome(status, detail);
      return true;
    },
    [register, stopFollowing, storageKey, userId],
  );

  const poll = useCallback(
    async (id: string, deadline: number) => {
      if (activeRef.current !== id) return;
      const controller = new AbortController();
      inflightRef.current = controller;
      let done = false;
      try {
        done = settle(id, await confirmPayment(id, controller.signal));
      } catch (error) {
        if (controller.signal.aborted || activeRef.current !== id) return;
        if (getErrorStatus(error) === 404 || getErrorStatus(error) === 400) {
          stopFollowing();
          writeJson(storageKey, null);
          setState((s) => ({ ...s, phase: 'failed', error: { kind: 'general', message: getServerMessage(error) ?? ERRORS.nothingToConfirm } }));
          return;
        }
        // A dropped connection or a busy server: say so, keep trying until the deadline.
        setState((s) => ({ ...s, error: { kind: 'general', message: ERRORS.confirm } }));
      } finally {
        if (inflightRef.current === controller) inflightRef.current = null;
      }
      if (done || activeRef.current !== id) return;
      if (Date.now() + POLL_INTERVAL_MS > deadline) {
        clearTimers();
        setState((s) => ({
          ...s,
          stoppedWaiting: true,
          confirmVisible: true,
          detail: 'M-Pesa has not confirmed this payment yet. If you entered your PIN, press Confirm to check again.',
        }));
        return;
      }
      later(() => void poll(id, deadline), POLL_INTERVAL_MS);
    },
    [clearTimers, later, settle, stopFollowing, storageKey],
  );

  /** Starts following a push: polling every 3 s, the Confirm button after 20 s. */
  const follow = useCallback(
    (push: SavedPush, immediately: boolean) => {
      stopFollowing();
      settlingRef.current = false;
      activeRef.current = push.checkoutRequestId;
      quantityRef.current = push.quantity;
      const elapsed = Date.now() - push.startedAt;
      const deadline = Math.max(push.startedAt + POLL_FOR_MS, Date.now() + POLL_INTERVAL_MS);
      later(() => void poll(push.checkoutRequestId, deadline), immediately ? 0 : POLL_INTERVAL_MS);
      if (elapsed < CONFIRM_BUTTON_AFTER_MS) {
        later(() => setState((s) => (s.checkoutRequestId === push.checkoutRequestId ? { ...s, confirmVisible: true } : s)), CONFIRM_BUTTON_AFTER_MS - elapsed);
      }
      setState((s) => ({
        ...s,
        phase: 'pending',
        status: STATUS.initiated,
        detail: t('tickets.waitingForMpesa'),
        error: null,
        checkoutRequestId: push.checkoutRequestId,
        quantity: push.quantity,
        amount: push.amount,
        phone: push.phone,
        simulatorUrl: httpLink(push.simulatorUrl),
        startedAt: push.startedAt,
        stoppedWaiting: false,
        confirmVisible: elapsed >= CONFIRM_BUTTON_AFTER_MS,
        confirming: false,
        pushUnknown: false,
      }));
    },
    [later, poll, stopFollowing],
  );

  /**
   * The push's answer was lost after it reached the payment service: say the prompt may be on the phone, and
   * (signed in) look for its payment among the buyer's transactions every few seconds, then follow it as any
   * push. A guest has no list to look in: their tickets come by SMS if they pay.
   */
  const lookForUnansweredPush = useCallback(
    (message: string, phone: string, quantity: number) => {
      stopFollowing();
      const pushedAt = Date.now();
      if (userId === null) {
        setState((s) => ({ ...s, phase: 'failed', status: message, detail: t('tickets.outcomeUnknownGuest'), error: null, pushUnknown: true }));
        return;
      }
      lookingRef.current = true;
      const deadline = pushedAt + POLL_FOR_MS;
      setState((s) => ({ ...s, phase: 'pending', status: message, detail: t('tickets.lookingForPayment'), error: null, checkoutRequestId: null, phone, startedAt: pushedAt, confirmVisible: false, stoppedWaiting: false, pushUnknown: true }));
      const look = async () => {
        if (!lookingRef.current) return;
        try {
          const found = paymentOfUnansweredPush((await getTransactionPage(userId, null)).items, eventId, pushedAt);
          if (!lookingRef.current) return;
          if (found) {
            const push: SavedPush = { checkoutRequestId: found.checkoutRequestId, quantity: found.quantity ?? quantity, amount: found.amount, phone, startedAt: pushedAt };
            writeJson(storageKey, push);
            follow(push, true);
            return;
          }
        } catch {
          // A dropped connection or a busy server: keep looking until the deadline.
        }
        if (Date.now() + POLL_INTERVAL_MS > deadline) {
          lookingRef.current = false;
          setState((s) => ({ ...s, stoppedWaiting: true, detail: t('tickets.lookingGaveUp') }));
          return;
        }
        later(() => void look(), POLL_INTERVAL_MS);
      };
      later(() => void look(), POLL_INTERVAL_MS);
    },
    [eventId, follow, later, stopFollowing, storageKey, userId],
  );

  // A push started before a reload (or in another tab) is picked up again.
  useEffect(() => {
    const saved = readJson<SavedPush>(storageKey);
    if (!saved || typeof saved.checkoutRequestId !== 'string' || typeof saved.startedAt !== 'number') return;
    if (Date.now() - saved.startedAt > RESUME_WITHIN_MS) {
      writeJson(storageKey, null);
      return;
    }
    follow(saved, true);
  }, [follow, storageKey]);

  /** Get Ticket: show the price for confirmation. */
  const begin = useCallback((order: TicketOrder) => {
    if (activeRef.current || lookingRef.current) return; // a push is being followed: the dialog shows it instead
    quantityRef.current = order.quantity;
    orderRef.current = order;
    setState((s) => (s.phase === 'idle' || s.phase === 'failed' || s.phase === 'done' ? { ...initialState(order.quantity), phase: 'confirm', phone: s.phone, order } : s));
  }, []);

  /** The price was accepted: ask for the phone number. */
  const acceptPrice = useCallback(() => setState((s) => ({ ...s, phase: 'phone', status: STATUS.notPaid, error: null })), []);

  /** Send the STK push. `phone` is already normalised (254 + 9 digits); `email` only from a guest. */
  const pay = useCallback(
    async (phone: string, email?: string, admitted = false) => {
      const quantity = quantityRef.current;
      const order = orderRef.current;
      setState((s) => ({ ...s, phase: 'initiating', phone, error: null, detail: null }));
      if (!admitted) {
        // One light request first: in a busy sale the buyer waits in line instead of every push being refused.
        const place = await joinQueue(eventId, userId === null ? phone : null).catch(() => null);
        if (place && !place.admitted) {
          setState((s) => ({ ...s, phase: 'queued', status: STATUS.queued, detail: null, error: null, queue: { position: place.position ?? 1, etaSeconds: place.etaSeconds } }));
          waitForTurn(phone, email, place.pollAfterMs);
          return;
        }
      }
      try {
        const result = await stkPush({
          eventId,
          phone,
          quantity,
          ...(order?.items ? { items: order.items } : {}),
          ...(order?.promoCode ? { promoCode: order.promoCode } : {}),
          amount: order ? orderAmount(order) : 0,
          ...(email ? { email } : {}),
        });
        if (result?.ResponseCode !== '0' || !result.CheckoutRequestID) {
          setState((s) => ({ ...s, phase: 'phone', error: { kind: 'general', message: ERRORS.initiate } }));
          return;
        }
        const push: SavedPush = {
          checkoutRequestId: result.CheckoutRequestID,
          quantity: typeof result.quantity === 'number' ? result.quantity : quantity,
          amount: typeof result.amount === 'number' ? result.amount : null,
          phone,
          startedAt: Date.now(),
          simulatorUrl: httpLink(result.simulatorUrl),
        };
        writeJson(storageKey, push);
        follow(push, false);
      } catch (error) {
        if (isOutcomeUnknown(error)) {
          lookForUnansweredPush(getServerMessage(error) ?? t('errors.payment_outcome_unknown'), phone, quantity);
          return;
        }
        const place = queuedPlace(error);
        if (place) {
          setState((s) => ({ ...s, phase: 'queued', status: STATUS.queued, detail: null, error: null, queue: place }));
          waitForTurn(phone, email, 0);
          return;
        }
        setState((s) => ({ ...s, phase: 'phone', status: STATUS.notPaid, error: initiateError(error) }));
      }
    },
    // waitForTurn is declared below and calls pay back: both read each other through a ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [eventId, follow, lookForUnansweredPush, storageKey, userId],
  );

  /**
   * In the line: asks for the buyer's place after `afterMs` (then whenever the server says), and sends
   * the push again once it is their turn; a sold-out event ends the wait.
   */
  const waitForTurn = (phone: string, email: string | undefined, afterMs: number) => {
    leaveLine();
    const controller = new AbortController();
    const timer = window.setTimeout(async () => {
      let next = QUEUE_RETRY_MS;
      try {
        const place = await getQueuePlace(eventId, userId === null ? phone : null, controller.signal);
        if (controller.signal.aborted) return;
        if (place.admitted || !place.inLine) {
          queueRef.current = null;
          // Admitted: straight to the push (a lapsed place, not in line any more, joins again first).
          void payRef.current(phone, email, place.admitted);
          return;
        }
        if (place.soldOut) {
          queueRef.current = null;
          setState((s) => ({ ...s, phase: 'failed', status: STATUS.failed, queue: null, error: { kind: 'general', message: t('errors.sold_out') } }));
          return;
        }
        setState((s) => ({ ...s, error: null, queue: { position: place.position ?? 1, etaSeconds: place.etaSeconds } }));
        next = place.pollAfterMs;
      } catch {
        if (controller.signal.aborted) return;
        // A dropped connection or a busy server: the place is kept on the server, so keep asking.
        setState((s) => ({ ...s, error: { kind: 'general', message: t('tickets.queueCheckFailed') } }));
      }
      if (queueRef.current?.controller === controller) waitForTurn(phone, email, next);
    }, afterMs);
    queueRef.current = { timer, controller };
  };
  const payRef = useRef(pay);
  useEffect(() => {
    payRef.current = pay;
  });

  /** The manual Confirm button: ask now instead of waiting for the next poll. */
  const confirmNow = useCallback(async () => {
    const id = activeRef.current;
    if (!id) {
      setState((s) => ({ ...s, error: { kind: 'general', message: ERRORS.nothingToConfirm } }));
      return;
    }
    setState((s) => ({ ...s, confirming: true, error: null }));
    try {
      const result = await confirmPayment(id);
      if (!settle(id, result)) setState((s) => ({ ...s, detail: outcomeDetail(result) ?? s.detail }));
    } catch (error) {
      const status = getErrorStatus(error);
      const message = status === 404 || status === 400 ? (getServerMessage(error) ?? ERRORS.nothingToConfirm) : ERRORS.confirm;
      setState((s) => ({ ...s, error: { kind: 'general', message } }));
    } finally {
      setState((s) => ({ ...s, confirming: false }));
    }
  }, [settle]);

  /** After a failure: back to the phone number (the number typed is kept). */
  const retry = useCallback(() => {
    setState((s) => ({ ...initialState(s.quantity), phase: 'phone', phone: s.phone, order: s.order }));
  }, []);

  /** Dialog closed before paying: forget the attempt and leave the line (a push in progress keeps being followed). */
  const dismiss = useCallback(() => {
    leaveLine();
    setState((s) => (s.phase === 'confirm' || s.phase === 'phone' || s.phase === 'failed' || s.phase === 'queued' ? { ...initialState(s.quantity), phone: s.phone } : s));
  }, [leaveLine]);

  return { state, begin, acceptPrice, pay, confirmNow, retry, dismiss };
}
