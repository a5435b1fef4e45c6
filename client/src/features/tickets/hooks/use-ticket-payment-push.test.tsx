import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { confirmPayment, stkPush } from '../api/payment-client';
import { joinQueue, registerForEvent, type QueuePlace } from '../api/tickets-api';
import { POLL_INTERVAL_MS } from '../lib/payment-flow';
import { setPaymentSocketFactory } from '../lib/payment-updates';
import type { TicketOrder } from '../lib/ticket-order';
import { FALLBACK_POLL_MS, useTicketPayment } from './use-ticket-payment';

vi.mock('../api/payment-client', () => ({ confirmPayment: vi.fn(), stkPush: vi.fn() }));
vi.mock('../api/tickets-api', () => ({ joinQueue: vi.fn(), getQueuePlace: vi.fn(), getTransactionPage: vi.fn(), registerForEvent: vi.fn() }));

const NOW = Date.UTC(2026, 10, 28, 18, 0);
const order: TicketOrder = { quantity: 1, lines: [{ name: null, quantity: 1, price: 1000 }], discount: 0 };
const admitted: QueuePlace = { inLine: false, admitted: true, position: 0, etaSeconds: 0, pollAfterMs: 0, soldOut: false };

/** The /payments connection as the dialog uses it: what it followed, and the server's side to play. */
function fakeSocket(answer: { ok: boolean; settled?: boolean }) {
  const handlers = new Map<string, Array<(...args: unknown[]) => void>>();
  const socket = {
    followed: [] as unknown[],
    closed: false,
    on(event: string, listener: (...args: never[]) => void) {
      handlers.set(event, [...(handlers.get(event) ?? []), listener as (...args: unknown[]) => void]);
      return socket;
    },
    timeout: () => ({
      emit: (_event: string, payload: unknown, ack: (error: unknown, answer?: { ok?: boolean; settled?: boolean }) => void) => {
        socket.followed.push(payload);
        ack(null, answer);
      },
    }),
    close() {
      socket.closed = true;
    },
    fire(event: string, ...args: unknown[]) {
      handlers.get(event)?.forEach((listener) => listener(...args));
    },
  };
  return socket;
}

async function wait(ms = 0) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

/** Get Ticket, accept the price, Pay; then the socket connects and follows the push. */
async function buyFollowing(socket: ReturnType<typeof fakeSocket>) {
  setPaymentSocketFactory(async () => socket);
  const page = { onPurchased: vi.fn(), onBackgroundOutcome: vi.fn(), isOpen: vi.fn(() => true) };
  const { result } = renderHook(() => useTicketPayment({ eventId: 'e1', userId: 'u1', ...page }));
  act(() => result.current.begin(order));
  act(() => result.current.acceptPrice());
  act(() => result.current.pay('254712345678'));
  await wait();
  await wait();
  expect(result.current.state.phase).toBe('pending');
  act(() => socket.fire('connect'));
  await wait();
  return result;
}

describe('useTicketPayment with the result pushed on the /payments socket', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW });
    vi.mocked(joinQueue).mockResolvedValue(admitted);
    vi.mocked(stkPush).mockResolvedValue({ ResponseCode: '0', CheckoutRequestID: 'ws_CO_push', amount: 1000, quantity: 1 });
    vi.mocked(registerForEvent).mockResolvedValue('Registered successfully');
  });
  afterEach(() => {
    setPaymentSocketFactory(undefined);
    vi.useRealTimers();
    vi.resetAllMocks();
    localStorage.clear();
  });

  it('asks once when the result is pushed, polls only every 15 s while following, and closes the socket after', async () => {
    const socket = fakeSocket({ ok: true, settled: false });
    vi.mocked(confirmPayment).mockResolvedValueOnce({ success: false, status: 'pending' }).mockResolvedValueOnce({ success: true, status: 'success', resultDesc: 'Payment successful.' });
    const result = await buyFollowing(socket);
    expect(socket.followed).toEqual([{ checkoutRequestId: 'ws_CO_push' }]);

    // No 3-second poll while the socket follows: the fallback comes at 15 s.
    await wait(POLL_INTERVAL_MS * 2);
    expect(confirmPayment).not.toHaveBeenCalled();
    await wait(FALLBACK_POLL_MS - POLL_INTERVAL_MS * 2);
    expect(confirmPayment).toHaveBeenCalledTimes(1);

    // The result, pushed: asked at once.
    act(() => socket.fire('payment:settled', { checkoutRequestId: 'ws_CO_push' }));
    await wait();
    expect(confirmPayment).toHaveBeenCalledTimes(2);
    expect(result.current.state).toMatchObject({ phase: 'registering', status: 'Payment successful' });
    expect(socket.closed).toBe(true);
  });

  it('ignores a push about another payment', async () => {
    const socket = fakeSocket({ ok: true, settled: false });
    await buyFollowing(socket);
    act(() => socket.fire('payment:settled', { checkoutRequestId: 'ws_CO_other' }));
    await wait();
    expect(confirmPayment).not.toHaveBeenCalled();
  });

  it('asks at once when the follow says the result was recorded already', async () => {
    const socket = fakeSocket({ ok: true, settled: true });
    vi.mocked(confirmPayment).mockResolvedValueOnce({ success: true, status: 'success', resultDesc: 'Payment successful.' });
    const result = await buyFollowing(socket);
    expect(confirmPayment).toHaveBeenCalledTimes(1);
    expect(result.current.state.phase).toBe('registering');
  });

  it('polls every 3 s when the server refuses the follow', async () => {
    const refused = fakeSocket({ ok: false });
    vi.mocked(confirmPayment).mockResolvedValue({ success: false, status: 'pending' });
    await buyFollowing(refused);
    await wait(POLL_INTERVAL_MS);
    expect(confirmPayment).toHaveBeenCalledTimes(1);
    await wait(POLL_INTERVAL_MS);
    expect(confirmPayment).toHaveBeenCalledTimes(2);
  });

  it('polls every 3 s again once the socket drops', async () => {
    const dropped = fakeSocket({ ok: true, settled: false });
    vi.mocked(confirmPayment).mockResolvedValue({ success: false, status: 'pending' });
    await buyFollowing(dropped);
    await wait(POLL_INTERVAL_MS);
    expect(confirmPayment).not.toHaveBeenCalled();
    act(() => dropped.fire('disconnect'));
    // The poll was due 3 s after it was set (already past): it runs now.
    await wait();
    expect(confirmPayment).toHaveBeenCalledTimes(1);
  });
});
