/*
 * Runs the paid-ticket flow (../lib/payment-flow.ts, where every state and transition is): the requests and
 * timers its state asks for, the push kept in localStorage (a reload or a closed dialog loses nothing: the page
 * picks the payment up again and keeps following it), and what the page is told.
 * Signed out (`userId` null) it is a guest purchase: no token goes with the push or the polls, and there is
 * nothing to register.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { getQueuePlace, getTransactionPage, joinQueue, registerForEvent } from '../api/tickets-api';
import { confirmPayment, stkPush } from '../api/payment-client';
import { CONFIRM_BUTTON_AFTER_MS, paymentFlow, paymentOfUnansweredPush, resumedState, SUCCESS_PAUSE_MS, type PaymentAction, type PaymentTask } from '../lib/payment-flow';
import { followPayment } from '../lib/payment-updates';
import { readJson, writeJson } from '../lib/storage';
import type { AnswerInput, CheckoutQuestion } from '@tukio/shared/checkout-questions';
import type { TicketOrder } from '../lib/ticket-order';

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

/**
 * While the /payments socket follows the push (../lib/payment-updates.ts) the result comes by push, and the poll is
 * only a fallback (a result the socket missed: another instance's without Redis, a Paybill payment of the order).
 */
export const FALLBACK_POLL_MS = 15_000;

const pause = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms));

/** Makes the request `task` names and returns its answer as the flow's next action. */
async function run(task: PaymentTask, eventId: string, userId: string | null, signal: AbortSignal): Promise<PaymentAction> {
  switch (task.kind) {
    case 'join':
      return { type: 'joined', task, place: await joinQueue(eventId, task.guestPhone).catch(() => null) };
    case 'push':
      try {
        return { type: 'pushed', task, result: await stkPush({ ...task.input, eventId }), now: Date.now() };
      } catch (error) {
        return { type: 'pushFailed', task, error, now: Date.now() };
      }
    case 'queue':
      return { type: 'queueAnswered', task, place: await getQueuePlace(eventId, task.guestPhone, signal).catch(() => null) };
    case 'poll':
      try {
        return { type: 'polled', task, result: await confirmPayment(task.checkoutRequestId, signal), now: Date.now() };
      } catch (error) {
        return { type: 'pollFailed', task, error, now: Date.now() };
      }
    case 'look': {
      // Only a signed-in buyer's flow looks (a guest has no transactions to look in) or registers.
      const page = await getTransactionPage(userId!, null).catch(() => null);
      return { type: 'looked', task, found: page ? paymentOfUnansweredPush(page.items, eventId, task.pushedAt) : undefined, now: Date.now() };
    }
    case 'register': {
      // Let 'Payment successful' be seen (and announced) before the dialog goes away.
      const [answer] = await Promise.all([
        registerForEvent(eventId, userId!, task.quantity).then(
          (message): PaymentAction => ({ type: 'registered', task, message }),
          (error: unknown): PaymentAction => ({ type: 'registerFailed', task, error }),
        ),
        pause(SUCCESS_PAUSE_MS),
      ]);
      return answer;
    }
  }
}

export function useTicketPayment(options: TicketPaymentOptions) {
  const { eventId, userId } = options;
  // One flow per buyer and event: ticket-purchase.tsx mounts a new one when either changes.
  const storageKey = `tukio-payment:${userId ?? 'guest'}:${eventId}`;
  // A push started before a reload (or in another tab) is picked up again.
  const [state, dispatch] = useReducer(paymentFlow, null, () => resumedState(readJson(storageKey), Date.now(), userId === null));
  const optionsRef = useRef(options);
  useEffect(() => {
    optionsRef.current = options;
  });

  useEffect(() => {
    writeJson(storageKey, state.push);
  }, [storageKey, state.push]);

  // The page may go away while a push is on its way (Back pressed within that second): its answer is still kept
  // for the next visit, or a prompt the buyer pays would be followed by nobody until the tickets turn up.
  const latest = useRef({ state, mounted: true });
  useEffect(() => {
    latest.current.state = state;
  });
  useEffect(() => {
    const current = latest.current;
    current.mounted = true;
    return () => {
      current.mounted = false;
    };
  }, []);

  // The pending push is followed on the /payments socket: its result wakes the waiting poll at once, and while the
  // socket follows, the poll waits FALLBACK_POLL_MS instead of 3 s. Closed once the outcome is known (the phase moves on).
  const follow = useRef<{ following: boolean; missed: boolean; wake: (() => void) | null; retime: (() => void) | null }>({ following: false, missed: false, wake: null, retime: null });
  const followedId = state.phase === 'pending' && !state.pushUnknown ? (state.push?.checkoutRequestId ?? null) : null;
  useEffect(() => {
    if (!followedId) return;
    const current = follow.current;
    const follower = followPayment(followedId, {
      onFollowing: (following) => {
        current.following = following;
        current.retime?.();
      },
      // A result pushed while no poll waits (one is in flight) is kept for the next.
      onSettled: () => (current.wake ? current.wake() : (current.missed = true)),
    });
    return () => {
      follower.close();
      current.following = false;
      current.missed = false;
    };
  }, [followedId]);

  // The next request, after its delay. A newer task (or leaving) clears the timer and aborts the request; an
  // answer that still comes is the old task's, which the flow ignores.
  const { task } = state;
  useEffect(() => {
    if (!task) return;
    const controller = new AbortController();
    const current = follow.current;
    const polling = task.kind === 'poll';
    const setAt = Date.now();
    let timer = 0;
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      window.clearTimeout(timer);
      if (current.wake === start) current.wake = null;
      void run(task, eventId, userId, controller.signal).then((action) => {
        if (latest.current.mounted) dispatch(action);
        else if (task.kind === 'push' && latest.current.state.task === task) writeJson(storageKey, paymentFlow(latest.current.state, action).push);
      });
    };
    // A poll waits longer while the socket follows the push; the timer is set again when that changes.
    const schedule = () => {
      if (started) return;
      window.clearTimeout(timer);
      const delay = polling && current.following ? Math.max(task.afterMs, FALLBACK_POLL_MS) : task.afterMs;
      timer = window.setTimeout(start, Math.max(0, delay - (Date.now() - setAt)));
    };
    schedule();
    if (polling) {
      current.wake = start;
      current.retime = schedule;
      if (current.missed) {
        current.missed = false;
        start();
      }
    }
    return () => {
      window.clearTimeout(timer);
      if (current.wake === start) current.wake = null;
      if (current.retime === schedule) current.retime = null;
      controller.abort();
    };
  }, [task, eventId, userId, storageKey]);

  // The manual Confirm appears 20 s after the push.
  const awaitingConfirmButton = state.phase === 'pending' && !state.confirmVisible ? state.push : null;
  useEffect(() => {
    if (!awaitingConfirmButton) return;
    const { checkoutRequestId, startedAt } = awaitingConfirmButton;
    const timer = window.setTimeout(() => dispatch({ type: 'confirmButtonDue', checkoutRequestId }), CONFIRM_BUTTON_AFTER_MS - (Date.now() - startedAt));
    return () => window.clearTimeout(timer);
  }, [awaitingConfirmButton]);

  const { notice } = state;
  useEffect(() => {
    const page = optionsRef.current;
    if (notice?.kind === 'purchased') page.onPurchased(notice.message, notice.quantity, notice.registrationFailed);
    else if (notice?.kind === 'outcome' && !page.isOpen()) page.onBackgroundOutcome(notice.status, notice.detail);
  }, [notice]);

  const checkoutRequestId = state.phase === 'pending' ? (state.push?.checkoutRequestId ?? null) : null;
  /** The manual Confirm button: ask now instead of waiting for the next poll. */
  const confirmNow = useCallback(async () => {
    dispatch({ type: 'confirmPressed' });
    if (!checkoutRequestId) return;
    try {
      dispatch({ type: 'confirmed', checkoutRequestId, result: await confirmPayment(checkoutRequestId) });
    } catch (error) {
      dispatch({ type: 'confirmFailed', checkoutRequestId, error });
    }
  }, [checkoutRequestId]);

  const actions = useMemo(
    () => ({
      /** Get Ticket: show the price for confirmation. */
      begin: (order: TicketOrder, questions?: CheckoutQuestion[]) => dispatch({ type: 'begin', order, questions }),
      /** The checkout questions answered: ask for the phone number. */
      answer: (answers: AnswerInput[]) => dispatch({ type: 'answered', answers }),
      /** Back from the phone number to the answers. */
      editAnswers: () => dispatch({ type: 'editAnswers' }),
      /** The price was accepted: ask for the phone number. */
      acceptPrice: (instalments?: boolean) => dispatch({ type: 'acceptPrice', instalments }),
      /** Send the STK push. `phone` is already normalised (254 + 9 digits); `email` only from a guest. */
      pay: (phone: string, email?: string) => dispatch({ type: 'pay', phone, email }),
      /** Pay from the M-Pesa menu (Paybill) instead of the prompt: its details shown, the payment still awaited. */
      usePaybill: () => dispatch({ type: 'usePaybill', now: Date.now() }),
      /** After a failure: back to the phone number (the number typed is kept). */
      retry: () => dispatch({ type: 'retry' }),
      /** Dialog closed before paying: forget the attempt and leave the line (a push in progress keeps being followed). */
      dismiss: () => dispatch({ type: 'dismiss' }),
    }),
    [],
  );

  return { state, confirmNow, ...actions };
}
