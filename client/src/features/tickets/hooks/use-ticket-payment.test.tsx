import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { confirmPayment, stkPush } from '../api/payment-client';
import { getQueuePlace, joinQueue, registerForEvent, type QueuePlace } from '../api/tickets-api';
import { CONFIRM_BUTTON_AFTER_MS, POLL_INTERVAL_MS, SUCCESS_PAUSE_MS } from '../lib/payment-flow';
import type { TicketOrder } from '../lib/ticket-order';
import { useTicketPayment, type TicketPaymentOptions } from './use-ticket-payment';

vi.mock('../api/payment-client', () => ({ confirmPayment: vi.fn(), stkPush: vi.fn() }));
vi.mock('../api/tickets-api', () => ({ joinQueue: vi.fn(), getQueuePlace: vi.fn(), getTransactionPage: vi.fn(), registerForEvent: vi.fn() }));

const NOW = Date.UTC(2026, 10, 28, 18, 0);
const PHONE = '254712345678';
const STORAGE_KEY = 'tukio-payment:u1:e1';
const order: TicketOrder = { quantity: 2, lines: [{ name: null, quantity: 2, price: 1000 }], discount: 0 };
const admitted: QueuePlace = { inLine: false, admitted: true, position: 0, etaSeconds: 0, pollAfterMs: 0, soldOut: false };

/** Lets `ms` pass on the fake clock, running the timers, requests and renders due meanwhile. */
async function wait(ms = 0) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

function renderPayment(options: Partial<TicketPaymentOptions> = {}) {
  const page = { onPurchased: vi.fn(), onBackgroundOutcome: vi.fn(), isOpen: vi.fn(() => true), ...options };
  const { result, unmount } = renderHook(() => useTicketPayment({ eventId: 'e1', userId: 'u1', ...page }));
  return { result, unmount, page };
}

/** Get Ticket, accept the price, Pay. */
async function buy(result: { current: ReturnType<typeof useTicketPayment> }) {
  act(() => result.current.begin(order));
  act(() => result.current.acceptPrice());
  act(() => result.current.pay(PHONE));
  // The line, then the push.
  await wait();
  await wait();
}

describe('useTicketPayment', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW });
    vi.mocked(joinQueue).mockResolvedValue(admitted);
    vi.mocked(stkPush).mockResolvedValue({ ResponseCode: '0', CheckoutRequestID: 'ws_CO_1', amount: 2000, quantity: 2 });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.resetAllMocks();
    localStorage.clear();
  });

  it('sends the push, polls every 3 s until paid, registers and reports the purchase after the pause', async () => {
    vi.mocked(confirmPayment).mockResolvedValueOnce({ success: false, status: 'pending' }).mockResolvedValueOnce({ success: true, status: 'success', resultDesc: 'Payment successful.' });
    vi.mocked(registerForEvent).mockResolvedValue('Registered successfully');
    const { result, page } = renderPayment();

    await buy(result);
    expect(joinQueue).toHaveBeenCalledWith('e1', null);
    expect(stkPush).toHaveBeenCalledExactlyOnceWith({ eventId: 'e1', phone: PHONE, quantity: 2, amount: 2000 });
    expect(result.current.state).toMatchObject({ phase: 'pending', amount: 2000 });
    expect(JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null')).toMatchObject({ checkoutRequestId: 'ws_CO_1', quantity: 2, phone: PHONE, startedAt: NOW });

    expect(confirmPayment).not.toHaveBeenCalled();
    await wait(POLL_INTERVAL_MS);
    expect(confirmPayment).toHaveBeenCalledTimes(1);
    expect(result.current.state.phase).toBe('pending');

    await wait(POLL_INTERVAL_MS);
    expect(confirmPayment).toHaveBeenCalledTimes(2);
    expect(confirmPayment).toHaveBeenLastCalledWith('ws_CO_1', expect.any(AbortSignal));
    expect(result.current.state).toMatchObject({ phase: 'registering', status: 'Payment successful' });
    await wait();
    expect(registerForEvent).toHaveBeenCalledWith('e1', 'u1', 2);
    expect(localStorage.getItem(STORAGE_KEY)).toBeNull();

    // 'Payment successful' stays on screen a moment before the dialog goes.
    await wait(SUCCESS_PAUSE_MS - 1);
    expect(page.onPurchased).not.toHaveBeenCalled();
    await wait(1);
    expect(page.onPurchased).toHaveBeenCalledExactlyOnceWith('Registered successfully', 2, null);
    expect(result.current.state.phase).toBe('done');
    // Nothing more is asked.
    await wait(POLL_INTERVAL_MS * 3);
    expect(confirmPayment).toHaveBeenCalledTimes(2);
  });

  it('shows the Confirm button 20 s after the push', async () => {
    vi.mocked(confirmPayment).mockResolvedValue({ success: false, status: 'pending' });
    const { result } = renderPayment();
    await buy(result);
    await wait(CONFIRM_BUTTON_AFTER_MS - 1);
    expect(result.current.state.confirmVisible).toBe(false);
    await wait(1);
    expect(result.current.state.confirmVisible).toBe(true);
  });

  it('picks up the push saved before a reload and, the dialog closed, reports its failure to the page', async () => {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ checkoutRequestId: 'ws_CO_7', quantity: 1, amount: 1000, phone: PHONE, startedAt: NOW - 10_000 }));
    vi.mocked(confirmPayment).mockResolvedValue({ success: false, status: 'cancelled', resultDesc: 'Payment failed or cancelled: request cancelled by user' });
    const { result, page } = renderPayment({ isOpen: () => false });
    expect(result.current.state).toMatchObject({ phase: 'pending', quantity: 1 });

    await wait();
    expect(confirmPayment).toHaveBeenCalledExactlyOnceWith('ws_CO_7', expect.any(AbortSignal));
    expect(result.current.state.phase).toBe('failed');
    expect(page.onBackgroundOutcome).toHaveBeenCalledExactlyOnceWith('Payment failed or cancelled', 'Request cancelled by user');
    expect(localStorage.getItem(STORAGE_KEY)).toBeNull();
    await wait(POLL_INTERVAL_MS * 3);
    expect(confirmPayment).toHaveBeenCalledTimes(1);
  });

  it('does not report to the page an outcome the open dialog shows', async () => {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ checkoutRequestId: 'ws_CO_7', quantity: 1, amount: 1000, phone: PHONE, startedAt: NOW - 10_000 }));
    vi.mocked(confirmPayment).mockResolvedValue({ success: false, status: 'failed' });
    const { result, page } = renderPayment({ isOpen: () => true });
    await wait();
    expect(result.current.state).toMatchObject({ phase: 'failed', status: 'Payment failed or cancelled' });
    expect(page.onBackgroundOutcome).not.toHaveBeenCalled();
  });

  it('waits in the line and sends the push by itself at the turn', async () => {
    vi.mocked(joinQueue).mockResolvedValue({ inLine: true, admitted: false, position: 3, etaSeconds: 20, pollAfterMs: 2_000, soldOut: false });
    vi.mocked(getQueuePlace).mockResolvedValueOnce({ inLine: true, admitted: false, position: 1, etaSeconds: 5, pollAfterMs: 2_000, soldOut: false }).mockResolvedValueOnce(admitted);
    vi.mocked(confirmPayment).mockResolvedValue({ success: false, status: 'pending' });
    const { result } = renderPayment();

    await buy(result);
    expect(result.current.state).toMatchObject({ phase: 'queued', queue: { position: 3, etaSeconds: 20 } });
    await wait(2_000);
    expect(result.current.state.queue).toEqual({ position: 1, etaSeconds: 5 });
    expect(stkPush).not.toHaveBeenCalled();
    await wait(2_000);
    await wait();
    expect(stkPush).toHaveBeenCalledTimes(1);
    expect(result.current.state.phase).toBe('pending');
  });

  it('leaving the line stops asking for the place, and its late answer sends nothing', async () => {
    vi.mocked(joinQueue).mockResolvedValue({ inLine: true, admitted: false, position: 3, etaSeconds: 20, pollAfterMs: 2_000, soldOut: false });
    let answerPlace: (place: QueuePlace) => void = () => undefined;
    vi.mocked(getQueuePlace).mockImplementation(() => new Promise((resolve) => (answerPlace = resolve)));
    const { result } = renderPayment();

    await buy(result);
    await wait(2_000);
    expect(getQueuePlace).toHaveBeenCalledTimes(1);
    const signal = vi.mocked(getQueuePlace).mock.calls[0]![2]!;
    act(() => result.current.dismiss());
    expect(signal.aborted).toBe(true);
    answerPlace(admitted);
    await wait(10_000);
    expect(result.current.state.phase).toBe('idle');
    expect(getQueuePlace).toHaveBeenCalledTimes(1);
    expect(stkPush).not.toHaveBeenCalled();
  });

  it('stops polling when the page goes away', async () => {
    vi.mocked(confirmPayment).mockResolvedValue({ success: false, status: 'pending' });
    const { result, unmount } = renderPayment();
    await buy(result);
    await wait(POLL_INTERVAL_MS);
    unmount();
    await wait(POLL_INTERVAL_MS * 3);
    expect(confirmPayment).toHaveBeenCalledTimes(1);
    // Still saved: the next visit picks it up.
    expect(localStorage.getItem(STORAGE_KEY)).not.toBeNull();
  });

  it('keeps the answer of a push still on its way when the page goes away, so the next visit follows it', async () => {
    let answer: (value: Awaited<ReturnType<typeof stkPush>>) => void = () => undefined;
    vi.mocked(stkPush).mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const { result, unmount } = renderPayment();
    await buy(result);
    expect(stkPush).toHaveBeenCalledTimes(1);
    unmount();
    answer({ ResponseCode: '0', CheckoutRequestID: 'ws_CO_late', amount: 2000, quantity: 2 });
    await wait();
    expect(JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null')).toMatchObject({ checkoutRequestId: 'ws_CO_late', quantity: 2, phone: PHONE });

    const again = renderPayment();
    expect(again.result.current.state).toMatchObject({ phase: 'pending', push: { checkoutRequestId: 'ws_CO_late' } });
    again.unmount();
  });
});
