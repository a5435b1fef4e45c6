import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../src/lib/app-error.js';
import { createLogger } from '../src/lib/logger.js';
import type { GuestCheckout } from '../src/modules/checkout/guest-checkout.service.js';
import { PushOutcomeUnknown, PushRefused, type PaymentGateway } from '../src/modules/checkout/payment-gateway.js';
import type { PaymentsService } from '../src/modules/checkout/payments.service.js';
import { createStartCheckoutHandler, type SaleLine } from '../src/modules/checkout/start-checkout.handler.js';

/**
 * The order of a purchase's steps (hold, prompt, record) and what each failure leaves behind, with the
 * database and the payment service replaced by recorders: which outcome releases the seats, which keeps them.
 */

const held = { orderId: 'a'.repeat(24), amount: 400, due: 400, discount: 0, quantity: 2, holdExpiresAt: new Date(Date.now() + 300_000).toISOString(), accountReference: 'Tukio', transactionDesc: 'Tickets', eventTitle: 'Gig' };
const request = { eventId: 'b'.repeat(24), quantity: 2, phone: '254712345678' };
const buyer = { userId: 'c'.repeat(24) };

function setUp(options: { hold?: () => Promise<typeof held>; push?: PaymentGateway['stkPush'] } = {}) {
  const payments = {
    createOrder: vi.fn(options.hold ?? (async () => held)),
    abandonOrder: vi.fn(async () => ({ released: true })),
    recordPush: vi.fn(async (push: { checkoutRequestId: string }) => ({ paymentId: 'd'.repeat(24), checkoutRequestId: push.checkoutRequestId })),
  };
  const gateway = {
    stkPush: vi.fn(options.push ?? (async () => ({ checkoutRequestId: 'ws_CO_1', merchantRequestId: 'm-1', customerMessage: 'Success' }))),
    stkQuery: vi.fn(async () => ({ settled: false })),
  };
  const line = { admit: vi.fn(async () => undefined), timeHold: <T>(hold: () => Promise<T>) => hold(), observePush: vi.fn() } satisfies SaleLine;
  const handler = createStartCheckoutHandler({
    payments: payments as unknown as PaymentsService,
    guests: {} as GuestCheckout,
    line,
    gateway,
    logger: createLogger('silent'),
  });
  return { handler, payments, gateway, line };
}

describe('starting a checkout', () => {
  it('holds, sends the prompt for the held amount, records the push and times the whole push', async () => {
    const { handler, payments, gateway, line } = setUp();
    const { order, push } = await handler.handle(buyer, request);
    expect(order).toBe(held);
    expect(push.checkoutRequestId).toBe('ws_CO_1');
    expect(line.admit).toHaveBeenCalledWith(request.eventId, buyer);
    expect(gateway.stkPush).toHaveBeenCalledWith({ orderId: held.orderId, amount: 400, phone: request.phone, accountReference: 'Tukio', transactionDesc: 'Tickets' });
    expect(payments.recordPush).toHaveBeenCalledWith({ orderId: held.orderId, checkoutRequestId: 'ws_CO_1', merchantRequestId: 'm-1' });
    expect(line.observePush).toHaveBeenCalledTimes(1);
    expect(payments.abandonOrder).not.toHaveBeenCalled();
  });

  it('asks the prompt for what is due now: the deposit of an order paid in instalments, not its whole amount', async () => {
    const reserved = { ...held, amount: 1000, due: 300 };
    const { handler, gateway } = setUp({ hold: async () => reserved });
    await handler.handle(buyer, request);
    expect(gateway.stkPush).toHaveBeenCalledWith(expect.objectContaining({ orderId: held.orderId, amount: 300 }));
  });

  it('releases the seats and sends no prompt when the buyer stopped waiting while they were held', async () => {
    const gaveUp = new AbortController();
    const { handler, payments, gateway } = setUp({
      hold: async () => {
        gaveUp.abort();
        return held;
      },
    });
    const failure = await handler.handle(buyer, request, gaveUp.signal).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(payments.abandonOrder).toHaveBeenCalledWith(held.orderId, expect.any(String));
    expect(gateway.stkPush).not.toHaveBeenCalled();
  });

  it('holds nothing for a buyer who already has an answer', async () => {
    const gaveUp = new AbortController();
    gaveUp.abort();
    const { handler, payments } = setUp();
    await expect(handler.handle(buyer, request, gaveUp.signal)).rejects.toMatchObject({ status: 503 });
    expect(payments.createOrder).not.toHaveBeenCalled();
  });

  it("releases the seats when M-Pesa refuses the prompt, passing on its reason and code", async () => {
    const { handler, payments } = setUp({
      push: async () => {
        throw new PushRefused(409, 'mpesa_prompt_pending', 'a prompt is already pending on this phone (M-Pesa 1001).', { errorCode: '500.001.1001' });
      },
    });
    const failure = (await handler.handle(buyer, request).catch((error: unknown) => error)) as AppError;
    expect(failure).toMatchObject({ status: 409, code: 'mpesa_prompt_pending', message: 'Failed to initiate payment: a prompt is already pending on this phone (M-Pesa 1001).' });
    expect(failure.details?.body).toEqual({ errorCode: '500.001.1001' });
    expect(payments.abandonOrder).toHaveBeenCalledWith(held.orderId, expect.any(String));
    expect(payments.recordPush).not.toHaveBeenCalled();
  });

  it('keeps the seats held when the prompt may have gone out, and says so', async () => {
    const { handler, payments } = setUp({
      push: async () => {
        throw new PushOutcomeUnknown(true);
      },
    });
    await expect(handler.handle(buyer, request)).rejects.toMatchObject({ status: 504, code: 'payment_outcome_unknown' });
    expect(payments.abandonOrder).not.toHaveBeenCalled();
  });

  it('passes on a refused hold with its code after the stkPush words', async () => {
    const { handler, gateway } = setUp({
      hold: async () => {
        throw AppError.conflict('sold_out', 'Only 1 ticket left.');
      },
    });
    await expect(handler.handle(buyer, request)).rejects.toMatchObject({ status: 409, code: 'sold_out', message: 'Failed to initiate payment: Only 1 ticket left.' });
    expect(gateway.stkPush).not.toHaveBeenCalled();
  });
});
