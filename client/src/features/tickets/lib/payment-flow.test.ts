import { describe, expect, it } from 'vitest';
import type { ConfirmResult } from '../api/payment-client';
import type { QueuePlace, TransactionRecord } from '../api/tickets-api';
import {
  CONFIRM_BUTTON_AFTER_MS,
  ERRORS,
  initialState,
  POLL_FOR_MS,
  POLL_INTERVAL_MS,
  QUEUE_RETRY_MS,
  RESUME_WITHIN_MS,
  STATUS,
  outcomeDetail,
  paymentFlow,
  resumedState,
  type PaymentAction,
  type PaymentState,
  type PaymentTask,
} from './payment-flow';
import type { TicketOrder } from './ticket-order';
import { loadCatalogsForTests, switchLanguageForTests } from '../../../lib/i18n/catalogs-for-tests';

const NOW = Date.UTC(2026, 10, 28, 18, 0);
const PHONE = '254712345678';
const order: TicketOrder = {
  quantity: 2,
  items: [{ typeId: 'vip', quantity: 2 }],
  promoCode: 'KARIBU',
  lines: [{ name: 'VIP', quantity: 2, price: 1500 }],
  discount: 500,
};

const flow = (state: PaymentState, ...actions: PaymentAction[]) => actions.reduce(paymentFlow, state);
/** The task the state waits on, of the kind expected. */
function taskOf<K extends PaymentTask['kind']>(state: PaymentState, kind: K): Extract<PaymentTask, { kind: K }> {
  expect(state.task?.kind).toBe(kind);
  return state.task as Extract<PaymentTask, { kind: K }>;
}
/** A failed request as the API client reports it. */
const httpError = (status: number, data: unknown) => ({ isHttpError: true, message: `HTTP ${status}`, response: { status, data } });
const place = (fields: Partial<QueuePlace> = {}): QueuePlace => ({ inLine: true, admitted: false, position: 4, etaSeconds: 30, pollAfterMs: 2_000, soldOut: false, ...fields });
const answer = (fields: Partial<ConfirmResult>): ConfirmResult => ({ success: false, status: 'pending', ...fields });

const atPhone = (guest = false) => flow(initialState(guest), { type: 'begin', order }, { type: 'acceptPrice' });
const joining = (guest = false) => flow(atPhone(guest), { type: 'pay', phone: PHONE, ...(guest ? { email: 'wanjiru@example.com' } : {}) });
const pushing = (guest = false) => {
  const state = joining(guest);
  return paymentFlow(state, { type: 'joined', task: taskOf(state, 'join'), place: place({ admitted: true, inLine: false, position: 0 }) });
};
/** Following push ws_CO_1, sent at NOW. */
const following = (guest = false) => {
  const state = pushing(guest);
  return paymentFlow(state, { type: 'pushed', task: taskOf(state, 'push'), result: { ResponseCode: '0', CheckoutRequestID: 'ws_CO_1', amount: 2500, quantity: 2 }, now: NOW });
};
const polled = (state: PaymentState, result: ConfirmResult, now = NOW + POLL_INTERVAL_MS) => paymentFlow(state, { type: 'polled', task: taskOf(state, 'poll'), result, now });
const queuedState = () => {
  const state = joining();
  return paymentFlow(state, { type: 'joined', task: taskOf(state, 'join'), place: place() });
};
/** Signed in, the push's answer lost at NOW: looking for its payment. */
const looking = () => {
  const state = pushing();
  const lost = httpError(502, { msg: 'Your M-Pesa prompt may have been sent: watch your phone.', code: 'payment_outcome_unknown' });
  return paymentFlow(state, { type: 'pushFailed', task: taskOf(state, 'push'), error: lost, now: NOW });
};

describe('the payment flow up to the push', () => {
  it('confirms the price, takes the phone number, joins the line and then sends the push for the order', () => {
    const confirm = paymentFlow(initialState(false), { type: 'begin', order });
    expect(confirm).toMatchObject({ phase: 'confirm', quantity: 2, order, task: null });
    const phone = paymentFlow(confirm, { type: 'acceptPrice' });
    expect(phone).toMatchObject({ phase: 'phone', status: 'Not yet paid', error: null });

    const joiningState = paymentFlow(phone, { type: 'pay', phone: PHONE });
    expect(joiningState).toMatchObject({ phase: 'initiating', phone: PHONE, detail: null, error: null });
    // Signed in, the line knows the buyer by their token: no phone goes with it.
    expect(taskOf(joiningState, 'join')).toEqual({ kind: 'join', afterMs: 0, guestPhone: null });

    const sending = paymentFlow(joiningState, { type: 'joined', task: taskOf(joiningState, 'join'), place: place({ admitted: true, position: 0 }) });
    expect(sending.phase).toBe('initiating');
    expect(taskOf(sending, 'push')).toEqual({
      kind: 'push',
      afterMs: 0,
      input: { phone: PHONE, quantity: 2, items: order.items, promoCode: 'KARIBU', amount: 2500 },
    });
  });

  it('sends the push anyway when the line cannot be asked', () => {
    const state = joining();
    expect(paymentFlow(state, { type: 'joined', task: taskOf(state, 'join'), place: null }).task?.kind).toBe('push');
  });

  it("a guest's line and push carry the phone and the email", () => {
    const state = joining(true);
    expect(taskOf(state, 'join').guestPhone).toBe(PHONE);
    expect(taskOf(pushing(true), 'push').input.email).toBe('wanjiru@example.com');
  });

  it('follows the push it sent: polls in 3 s, keeps the push for a reload, says the prompt is on its way', () => {
    const state = following();
    expect(state).toMatchObject({
      phase: 'pending',
      status: 'Payment initiated. Please complete the payment on your phone.',
      detail: 'Waiting for M-Pesa… Enter your M-Pesa PIN on your phone to pay.',
      amount: 2500,
      quantity: 2,
      phone: PHONE,
      confirmVisible: false,
      deadline: NOW + POLL_FOR_MS,
      push: { checkoutRequestId: 'ws_CO_1', quantity: 2, amount: 2500, phone: PHONE, startedAt: NOW, simulatorUrl: null },
    });
    expect(taskOf(state, 'poll')).toEqual({ kind: 'poll', afterMs: POLL_INTERVAL_MS, checkoutRequestId: 'ws_CO_1' });
  });

  it('shows only an http(s) simulator link', () => {
    const state = pushing();
    const push = (simulatorUrl: string) =>
      paymentFlow(state, { type: 'pushed', task: taskOf(state, 'push'), result: { ResponseCode: '0', CheckoutRequestID: 'ws_CO_1', simulatorUrl }, now: NOW }).simulatorUrl;
    expect(push('http://localhost:5002/phone/ws_CO_1')).toBe('http://localhost:5002/phone/ws_CO_1');
    expect(push('javascript:alert(1)')).toBeNull();
  });

  it('goes back to the phone number when the push is refused, saying why', () => {
    const state = pushing();
    const task = taskOf(state, 'push');
    const refused = (error: unknown) => paymentFlow(state, { type: 'pushFailed', task, error, now: NOW });

    expect(paymentFlow(state, { type: 'pushed', task, result: { ResponseCode: '1', CheckoutRequestID: '' }, now: NOW })).toMatchObject({
      phase: 'phone',
      error: { kind: 'general', message: ERRORS.initiate },
      task: null,
    });
    expect(refused(httpError(409, { msg: 'A prompt is already pending', errorCode: '500.001.1001' })).error).toEqual({
      kind: 'busy',
      message: `${ERRORS.initiate}: A prompt is already pending`,
    });
    expect(refused(httpError(400, { msg: 'Invalid phone number', field: 'phone' })).error?.kind).toBe('phone');
    // No answer at all (network): the general payment error.
    expect(refused(new Error('Network Error'))).toMatchObject({ phase: 'phone', status: STATUS.notPaid, error: { kind: 'general', message: ERRORS.payment } });
  });
});

describe('following a push', () => {
  it('keeps polling while M-Pesa says pending, then registers a signed-in buyer and reports the purchase', () => {
    const first = following();
    const stillPending = polled(first, answer({ status: 'pending' }));
    expect(stillPending.phase).toBe('pending');
    expect(stillPending.task).not.toBe(first.task); // a new poll, 3 s on
    expect(taskOf(stillPending, 'poll').afterMs).toBe(POLL_INTERVAL_MS);

    const paid = polled(stillPending, answer({ success: true, status: 'success', quantity: 3, resultDesc: 'Payment successful. Receipt QWE123.' }));
    expect(paid).toMatchObject({ phase: 'registering', status: 'Payment successful', detail: 'Receipt QWE123.', quantity: 3, push: null });
    expect(taskOf(paid, 'register')).toEqual({ kind: 'register', afterMs: 0, quantity: 3 });

    const done = paymentFlow(paid, { type: 'registered', task: taskOf(paid, 'register'), message: 'Registered successfully' });
    expect(done).toMatchObject({ phase: 'done', task: null, notice: { kind: 'purchased', message: 'Registered successfully', quantity: 3, registrationFailed: null } });
  });

  it('reports a purchase whose registration call failed, with the reason (the tickets were issued)', () => {
    const paid = polled(following(), answer({ success: true, status: 'success' }));
    const done = paymentFlow(paid, { type: 'registerFailed', task: taskOf(paid, 'register'), error: httpError(500, { msg: 'Database unavailable' }) });
    expect(done).toMatchObject({ phase: 'done', notice: { kind: 'purchased', message: STATUS.success, quantity: 2, registrationFailed: 'Database unavailable' } });
  });

  it("ends a guest's paid order on its ticket page, with nothing to register", () => {
    const done = polled(following(true), answer({ success: true, status: 'success', ticketToken: 'tok/1' }));
    expect(done).toMatchObject({ phase: 'done', status: STATUS.success, guestTicketPath: '/t/tok%2F1', task: null, push: null, notice: null });
  });

  it('fails with M-Pesa’s words when the payment is cancelled, and tells the page', () => {
    const failed = polled(following(), answer({ status: 'cancelled', resultDesc: 'Payment failed or cancelled: request cancelled by user' }));
    expect(failed).toMatchObject({
      phase: 'failed',
      status: 'Payment failed or cancelled',
      detail: 'Request cancelled by user',
      push: null,
      task: null,
      notice: { kind: 'outcome', status: 'Payment failed or cancelled', detail: 'Request cancelled by user' },
    });
    // Paid but no tickets issued (e.g. sold out meanwhile): received, not successful.
    expect(polled(following(), answer({ status: 'success', success: false })).status).toBe(STATUS.received);
  });

  it('a retry after a failure goes back to the phone number, keeping the number and the order', () => {
    const failed = polled(following(), answer({ status: 'failed' }));
    const again = paymentFlow(failed, { type: 'retry' });
    expect(again).toMatchObject({ phase: 'phone', phone: PHONE, order, quantity: 2, status: STATUS.notPaid, error: null, detail: null, notice: null, task: null });
    const joiningAgain = paymentFlow(again, { type: 'pay', phone: PHONE });
    expect(joiningAgain.phase).toBe('initiating');
    expect(joiningAgain.task?.kind).toBe('join');
  });

  it('stops when the payment service does not know the push (404), saying so', () => {
    const state = following();
    const gone = paymentFlow(state, { type: 'pollFailed', task: taskOf(state, 'poll'), error: httpError(404, { msg: 'No such payment' }), now: NOW + 3_000 });
    expect(gone).toMatchObject({ phase: 'failed', error: { kind: 'general', message: 'No such payment' }, push: null, task: null });
  });

  it('keeps polling through a dropped connection, and gives up after about two minutes leaving the Confirm button', () => {
    const state = following();
    const dropped = paymentFlow(state, { type: 'pollFailed', task: taskOf(state, 'poll'), error: new Error('Network Error'), now: NOW + 3_000 });
    expect(dropped).toMatchObject({ phase: 'pending', error: { kind: 'general', message: ERRORS.confirm } });
    expect(taskOf(dropped, 'poll').afterMs).toBe(POLL_INTERVAL_MS);

    const late = polled(dropped, answer({ status: 'pending' }), NOW + POLL_FOR_MS - POLL_INTERVAL_MS + 1);
    expect(late).toMatchObject({
      phase: 'pending',
      task: null,
      confirmVisible: true,
      detail: 'M-Pesa has not confirmed this payment yet. If you entered your PIN, press Confirm to check again.',
    });
    // The push is still kept: a reload follows it again.
    expect(late.push?.checkoutRequestId).toBe('ws_CO_1');
  });

  it('shows the Confirm button when its time comes, for the push followed only', () => {
    const state = following();
    expect(paymentFlow(state, { type: 'confirmButtonDue', checkoutRequestId: 'ws_CO_1' }).confirmVisible).toBe(true);
    expect(paymentFlow(state, { type: 'confirmButtonDue', checkoutRequestId: 'ws_CO_old' })).toBe(state);
  });

  it('the manual Confirm asks now: a pending answer keeps the polling, a final one settles it', () => {
    const pressed = paymentFlow(following(), { type: 'confirmPressed' });
    expect(pressed).toMatchObject({ confirming: true, error: null });

    const pending = paymentFlow(pressed, { type: 'confirmed', checkoutRequestId: 'ws_CO_1', result: answer({ resultDesc: 'the request is being processed' }) });
    expect(pending).toMatchObject({ phase: 'pending', confirming: false, detail: 'The request is being processed' });
    expect(pending.task).toBe(pressed.task);

    const paid = paymentFlow(pressed, { type: 'confirmed', checkoutRequestId: 'ws_CO_1', result: answer({ success: true, status: 'success' }) });
    expect(paid).toMatchObject({ phase: 'registering', confirming: false });

    const failed = (error: unknown) => paymentFlow(pressed, { type: 'confirmFailed', checkoutRequestId: 'ws_CO_1', error }).error?.message;
    expect(failed(httpError(404, {}))).toBe(ERRORS.nothingToConfirm);
    expect(failed(new Error('timeout'))).toBe(ERRORS.confirm);
  });

  it('has nothing to confirm before a push is followed', () => {
    expect(paymentFlow(atPhone(), { type: 'confirmPressed' })).toMatchObject({ confirming: false, error: { message: ERRORS.nothingToConfirm } });
  });

  it('keeps following when the dialog is closed or Get Ticket pressed again', () => {
    const state = following();
    expect(paymentFlow(state, { type: 'dismiss' })).toBe(state);
    expect(paymentFlow(state, { type: 'begin', order })).toBe(state);
  });
});

describe('late answers', () => {
  it('an answer from the line after the buyer left it changes nothing', () => {
    const inLine = queuedState();
    const task = taskOf(inLine, 'queue');
    const left = paymentFlow(inLine, { type: 'dismiss' });
    expect(left).toMatchObject({ phase: 'idle', task: null, queue: null, phone: PHONE });
    expect(paymentFlow(left, { type: 'queueAnswered', task, place: place({ admitted: true }) })).toBe(left);
  });

  it('a poll answering after the manual Confirm settled the payment changes nothing', () => {
    const state = following();
    const poll = taskOf(state, 'poll');
    const failed = paymentFlow(state, { type: 'confirmed', checkoutRequestId: 'ws_CO_1', result: answer({ status: 'failed' }) });
    expect(failed.phase).toBe('failed');
    expect(paymentFlow(failed, { type: 'polled', task: poll, result: answer({ success: true, status: 'success' }), now: NOW })).toBe(failed);
  });

  it("a Confirm answer for an earlier push does not touch the next one's", () => {
    const failed = polled(following(), answer({ status: 'failed' }));
    const retried = flow(failed, { type: 'retry' }, { type: 'pay', phone: PHONE });
    const joined = paymentFlow(retried, { type: 'joined', task: taskOf(retried, 'join'), place: null });
    const next = paymentFlow(joined, { type: 'pushed', task: taskOf(joined, 'push'), result: { ResponseCode: '0', CheckoutRequestID: 'ws_CO_2' }, now: NOW + 60_000 });
    expect(paymentFlow(next, { type: 'confirmed', checkoutRequestId: 'ws_CO_1', result: answer({ status: 'failed' }) })).toBe(next);
    expect(paymentFlow(next, { type: 'confirmFailed', checkoutRequestId: 'ws_CO_1', error: httpError(404, {}) })).toBe(next);
  });
});

describe('the waiting room', () => {
  it('queues the buyer with their place and asks again when the server says', () => {
    const inLine = queuedState();
    expect(inLine).toMatchObject({ phase: 'queued', status: 'You are in the line', detail: null, error: null, queue: { position: 4, etaSeconds: 30 } });
    expect(taskOf(inLine, 'queue')).toEqual({ kind: 'queue', afterMs: 2_000, guestPhone: null });

    const moved = paymentFlow(inLine, { type: 'queueAnswered', task: taskOf(inLine, 'queue'), place: place({ position: 2, etaSeconds: 10, pollAfterMs: 1_500 }) });
    expect(moved).toMatchObject({ phase: 'queued', queue: { position: 2, etaSeconds: 10 } });
    expect(taskOf(moved, 'queue').afterMs).toBe(1_500);
  });

  it('keeps asking when the place cannot be read, saying so', () => {
    const inLine = queuedState();
    const unread = paymentFlow(inLine, { type: 'queueAnswered', task: taskOf(inLine, 'queue'), place: null });
    expect(unread).toMatchObject({ phase: 'queued', error: { kind: 'general', message: 'Your place could not be checked just now. Still trying…' } });
    expect(taskOf(unread, 'queue').afterMs).toBe(QUEUE_RETRY_MS);
  });

  it('sends the push by itself when the turn arrives', () => {
    const inLine = queuedState();
    const turn = paymentFlow(inLine, { type: 'queueAnswered', task: taskOf(inLine, 'queue'), place: place({ admitted: true, position: 0 }) });
    expect(turn).toMatchObject({ phase: 'initiating', error: null, detail: null });
    expect(taskOf(turn, 'push').input).toMatchObject({ phone: PHONE, quantity: 2, amount: 2500 });
  });

  it('joins again when the place lapsed (not in line any more)', () => {
    const inLine = queuedState();
    const lapsed = paymentFlow(inLine, { type: 'queueAnswered', task: taskOf(inLine, 'queue'), place: place({ inLine: false, admitted: false, position: null }) });
    expect(lapsed.phase).toBe('initiating');
    expect(lapsed.task?.kind).toBe('join');
  });

  it('ends the wait when the event sells out', () => {
    const inLine = queuedState();
    const soldOut = paymentFlow(inLine, { type: 'queueAnswered', task: taskOf(inLine, 'queue'), place: place({ soldOut: true }) });
    expect(soldOut).toMatchObject({ phase: 'failed', status: STATUS.failed, queue: null, task: null, error: { kind: 'general' } });
  });

  it('waits in line when the push is refused because the turn lapsed (429 waiting_room_queued)', () => {
    const state = pushing();
    const refused = httpError(429, { code: 'waiting_room_queued', params: { position: 7, seconds: 45 } });
    const inLine = paymentFlow(state, { type: 'pushFailed', task: taskOf(state, 'push'), error: refused, now: NOW });
    expect(inLine).toMatchObject({ phase: 'queued', status: STATUS.queued, queue: { position: 7, etaSeconds: 45 } });
    expect(taskOf(inLine, 'queue').afterMs).toBe(0);
  });
});

describe('a push whose answer was lost (outcome unknown)', () => {
  const transaction: TransactionRecord = { name: 'Benga Night', eventId: 'e1', checkoutRequestId: 'ws_CO_found', phoneNumber: PHONE, amount: 2500, quantity: 2, paymentStatus: 'pending' };

  it('does not fail: says the prompt may have been sent and looks for its payment', () => {
    const state = looking();
    expect(state).toMatchObject({
      phase: 'pending',
      status: 'Your M-Pesa prompt may have been sent: watch your phone.',
      pushUnknown: true,
      push: null,
      confirmVisible: false,
      error: null,
      deadline: NOW + POLL_FOR_MS,
    });
    expect(taskOf(state, 'look')).toEqual({ kind: 'look', afterMs: POLL_INTERVAL_MS, pushedAt: NOW });
  });

  it('keeps looking until the payment is found, then follows it at once', () => {
    const state = looking();
    const notYet = paymentFlow(state, { type: 'looked', task: taskOf(state, 'look'), found: undefined, now: NOW + 3_000 });
    expect(taskOf(notYet, 'look').afterMs).toBe(POLL_INTERVAL_MS);

    const found = paymentFlow(notYet, { type: 'looked', task: taskOf(notYet, 'look'), found: transaction, now: NOW + 6_000 });
    expect(found).toMatchObject({
      phase: 'pending',
      pushUnknown: false,
      status: STATUS.initiated,
      push: { checkoutRequestId: 'ws_CO_found', quantity: 2, amount: 2500, phone: PHONE, startedAt: NOW },
    });
    expect(taskOf(found, 'poll')).toEqual({ kind: 'poll', afterMs: 0, checkoutRequestId: 'ws_CO_found' });
  });

  it('gives up looking after about two minutes', () => {
    const state = looking();
    const gaveUp = paymentFlow(state, { type: 'looked', task: taskOf(state, 'look'), found: undefined, now: NOW + POLL_FOR_MS - 1_000 });
    expect(gaveUp).toMatchObject({ phase: 'pending', task: null, pushUnknown: true });
    expect(gaveUp.detail).not.toBe(state.detail);
  });

  it('a guest, with no transactions to look in, is told their tickets come by SMS if they pay', () => {
    const state = pushing(true);
    const lost = paymentFlow(state, { type: 'pushFailed', task: taskOf(state, 'push'), error: httpError(504, { code: 'payment_outcome_unknown' }), now: NOW });
    expect(lost).toMatchObject({ phase: 'failed', pushUnknown: true, task: null, error: null });
    expect(lost.detail).toMatch(/SMS/);
  });
});

describe('a page load', () => {
  const saved = { checkoutRequestId: 'ws_CO_9', quantity: 1, amount: 800, phone: PHONE, startedAt: NOW - 30_000 };

  it('picks up a recent saved push and polls it at once (the Confirm button already due)', () => {
    const state = resumedState(saved, NOW, false);
    expect(state).toMatchObject({ phase: 'pending', quantity: 1, amount: 800, order: null, confirmVisible: true, deadline: saved.startedAt + POLL_FOR_MS });
    expect(taskOf(state, 'poll')).toEqual({ kind: 'poll', afterMs: 0, checkoutRequestId: 'ws_CO_9' });
    expect(resumedState({ ...saved, startedAt: NOW - CONFIRM_BUTTON_AFTER_MS + 1 }, NOW, false).confirmVisible).toBe(false);
  });

  it('ignores an old or malformed one', () => {
    expect(resumedState({ ...saved, startedAt: NOW - RESUME_WITHIN_MS - 1 }, NOW, false)).toEqual(initialState(false));
    expect(resumedState({ checkoutRequestId: 42 }, NOW, false)).toEqual(initialState(false));
    expect(resumedState(null, NOW, true)).toEqual(initialState(true));
  });
});

describe('paying from the M-Pesa menu (Paybill)', () => {
  const paybill = { shortcode: '174379', account: 'K7Q2M9X', amount: 2500, holdExpiresAt: new Date(NOW + 5 * 60_000).toISOString() };
  const withPaybill = () => {
    const state = pushing();
    return paymentFlow(state, { type: 'pushed', task: taskOf(state, 'push'), result: { ResponseCode: '0', CheckoutRequestID: 'ws_CO_1', amount: 2500, quantity: 2, paybill }, now: NOW });
  };

  it('a dismissed prompt turns to the Paybill details while the seats are held, and keeps polling until the order is paid', () => {
    const dismissed = polled(withPaybill(), answer({ status: 'cancelled', orderStatus: 'cancelled', resultDesc: 'Payment failed or cancelled: the request was cancelled on the phone.' }));
    expect(dismissed).toMatchObject({ phase: 'paybill', push: { paybill }, deadline: Date.parse(paybill.holdExpiresAt) });
    expect(taskOf(dismissed, 'poll')).toMatchObject({ checkoutRequestId: 'ws_CO_1', afterMs: POLL_INTERVAL_MS });
    // Still cancelled: keep waiting for the payment from the menu.
    const still = polled(dismissed, answer({ status: 'cancelled', orderStatus: 'cancelled' }), NOW + 2 * POLL_INTERVAL_MS);
    expect(still.phase).toBe('paybill');
    const paid = polled(still, answer({ status: 'success', success: true, orderStatus: 'paid', quantity: 2 }), NOW + 3 * POLL_INTERVAL_MS);
    expect(paid).toMatchObject({ phase: 'registering', status: STATUS.success });
  });

  it('the buyer may choose the Paybill while the prompt waits; without an offer, or after the hold, a failure stays a failure', () => {
    expect(paymentFlow(withPaybill(), { type: 'usePaybill', now: NOW + 1000 })).toMatchObject({ phase: 'paybill' });
    expect(paymentFlow(following(), { type: 'usePaybill', now: NOW + 1000 }).phase).toBe('pending');
    expect(polled(following(), answer({ status: 'cancelled', orderStatus: 'cancelled' })).phase).toBe('failed');
    expect(polled(withPaybill(), answer({ status: 'failed', orderStatus: 'failed' }), NOW + 6 * 60_000).phase).toBe('failed');
  });
});

describe('outcomeDetail: what went wrong, in the buyer’s language', () => {
  it('says M-Pesa’s common outcomes from their code in English and Kiswahili, and the server’s words otherwise', async () => {
    await loadCatalogsForTests('tickets');
    const dismissed = { status: 'cancelled', resultCode: 1032, resultDesc: 'Payment failed or cancelled: the request was cancelled on the phone.' } as const;
    const unreachable = { status: 'failed', resultCode: 1037, resultDesc: 'Payment failed or cancelled: DS timeout user cannot be reached' } as const;
    const rare = { status: 'failed', resultCode: 2029, resultDesc: 'Payment failed or cancelled: some rare refusal' } as const;
    try {
      await switchLanguageForTests('sw');
      expect(outcomeDetail(dismissed)).toBe('Ombi lilighairiwa kwenye simu.');
      expect(outcomeDetail(unreachable)).toBe('Simu haikupatikana (imezimwa au haina mtandao).');
      expect(outcomeDetail(rare)).toBe('Some rare refusal');
      await switchLanguageForTests('en');
      expect(outcomeDetail(dismissed)).toBe('The request was cancelled on the phone.');
      // A success never shows a failure's words, whatever code came with it.
      expect(outcomeDetail({ status: 'success', resultCode: 0, resultDesc: 'Payment successful. Your ticket is ready.' })).toBe('Your ticket is ready.');
    } finally {
      await switchLanguageForTests('en');
    }
  });
});
