import { describe, expect, it } from 'vitest';
import type { OrderQuote } from '../api/order-api';
import { orderAmount, singleTypeOrder } from './ticket-order';

// The platform fee in the ticket box's figures (docs/decisions/fees.md): only a fee paid on top adds to the total.
const quote = (fee: number, feeMode: 'absorbed' | 'on_top'): OrderQuote => ({ quantity: 2, subtotal: 800, discount: 0, amount: feeMode === 'on_top' ? 800 + fee : 800, promoCode: null, fee, feeMode });

describe('ticket order: the platform fee', () => {
  it('adds a fee paid on top to the total, as the server quoted it', () => {
    const order = singleTypeOrder(2, 400, quote(40, 'on_top'));
    expect(order.feeOnTop).toBe(40);
    expect(orderAmount(order)).toBe(840);
  });

  it('adds nothing for an absorbed fee, or before the server answered', () => {
    expect(orderAmount(singleTypeOrder(2, 400, quote(40, 'absorbed')))).toBe(800);
    expect(orderAmount(singleTypeOrder(2, 400))).toBe(800);
  });
});
