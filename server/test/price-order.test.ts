import { describe, expect, it } from 'vitest';
import { priceOrder, type PricingFacts } from '../src/modules/checkout/price-order.js';

// The pricing rule on its own (no database): the quote and the hold both call it.
const wallNow = new Date('2026-12-01T12:00:00Z');
const later = new Date('2026-12-20T18:00:00Z');

function facts(overrides: Partial<PricingFacts> = {}): PricingFacts {
  return {
    event: { status: 'approved', startsAt: later, isPaid: true, title: 'Sauti Sol live' },
    types: [
      { id: 'vip', name: 'VIP', price: 1000, salesStart: null, salesEnd: null, maxPerOrder: 4 },
      { id: 'ga', name: 'Regular', price: 100, salesStart: null, salesEnd: null, maxPerOrder: 10 },
      { id: 'early', name: 'Early bird', price: 80, salesStart: null, salesEnd: new Date('2026-11-30T00:00:00Z'), maxPerOrder: 10 },
    ],
    promo: null,
    ...overrides,
  };
}

const promo = (kind: 'percent' | 'fixed', value: number, extra: Partial<NonNullable<PricingFacts['promo']>> = {}): NonNullable<PricingFacts['promo']> => ({
  id: 'promo-1',
  code: 'KARIBU',
  kind,
  value,
  validFrom: null,
  validUntil: null,
  ticketTypeIds: null,
  ...extra,
});

describe('priceOrder', () => {
  it('prices chosen types line by line', () => {
    const { priced } = priceOrder(facts(), { items: [{ typeId: 'vip', quantity: 1 }, { typeId: 'ga', quantity: 2 }], quantity: 3 }, wallNow);
    expect(priced).toEqual({
      lines: [
        { typeId: 'vip', quantity: 1, unitPrice: 1000, discount: 0 },
        { typeId: 'ga', quantity: 2, unitPrice: 100, discount: 0 },
      ],
      quantity: 3,
      subtotal: 1200,
      discount: 0,
      amount: 1200,
      promoId: null,
    });
  });

  it('without items buys the cheapest type on sale (an ended one is not on sale)', () => {
    const { priced } = priceOrder(facts(), { quantity: 2 }, wallNow);
    expect(priced?.lines).toEqual([{ typeId: 'ga', quantity: 2, unitPrice: 100, discount: 0 }]);
    expect(priceOrder(facts({ types: [] }), { quantity: 1 }, wallNow).refusal).toEqual({ reason: 'not_on_sale' });
  });

  it('the first listed wins among equally cheap types', () => {
    const types = [
      { id: 'a', name: 'A', price: 50, salesStart: null, salesEnd: null, maxPerOrder: 10 },
      { id: 'b', name: 'B', price: 50, salesStart: null, salesEnd: null, maxPerOrder: 10 },
    ];
    expect(priceOrder(facts({ types }), { quantity: 1 }, wallNow).priced?.lines[0]?.typeId).toBe('a');
  });

  it('refuses what the event does not allow, in the order a buyer can act on', () => {
    expect(priceOrder(facts({ event: { ...facts().event, status: 'cancelled' } }), { quantity: 1 }, wallNow).refusal).toEqual({ reason: 'cancelled' });
    expect(priceOrder(facts({ event: { ...facts().event, status: 'pending' } }), { quantity: 1 }, wallNow).refusal).toEqual({ reason: 'not_open' });
    expect(priceOrder(facts({ event: { ...facts().event, startsAt: new Date('2026-11-01T00:00:00Z') } }), { quantity: 1 }, wallNow).refusal).toEqual({ reason: 'past' });
    expect(priceOrder(facts({ event: { ...facts().event, isPaid: false } }), { quantity: 1 }, wallNow).refusal).toEqual({ reason: 'free' });
  });

  it('refuses a type that is unknown, not yet or no longer on sale, or over its per-order maximum', () => {
    const starts = new Date('2026-12-05T00:00:00Z');
    const notYet = facts({ types: [{ id: 'late', name: 'Late', price: 10, salesStart: starts, salesEnd: null, maxPerOrder: 2 }] });
    expect(priceOrder(facts(), { items: [{ typeId: 'nope', quantity: 1 }], quantity: 1 }, wallNow).refusal).toEqual({ reason: 'type_not_found', typeId: 'nope' });
    expect(priceOrder(notYet, { items: [{ typeId: 'late', quantity: 1 }], quantity: 1 }, wallNow).refusal).toEqual({ reason: 'type_not_started', typeName: 'Late', at: starts });
    expect(priceOrder(facts(), { items: [{ typeId: 'early', quantity: 1 }], quantity: 1 }, wallNow).refusal).toMatchObject({ reason: 'type_ended', typeName: 'Early bird' });
    expect(priceOrder(facts(), { items: [{ typeId: 'vip', quantity: 5 }], quantity: 5 }, wallNow).refusal).toEqual({ reason: 'type_max', typeName: 'VIP', max: 4 });
  });

  it('a free type alone is registered, not bought', () => {
    const types = [{ id: 'free', name: 'Free', price: 0, salesStart: null, salesEnd: null, maxPerOrder: 10 }];
    expect(priceOrder(facts({ types }), { items: [{ typeId: 'free', quantity: 2 }], quantity: 2 }, wallNow).refusal).toEqual({ reason: 'free' });
  });

  it('a percent code takes its share of each line it applies to', () => {
    const { priced } = priceOrder(facts({ promo: promo('percent', 15, { ticketTypeIds: ['ga'] }) }), { items: [{ typeId: 'vip', quantity: 1 }, { typeId: 'ga', quantity: 3 }], quantity: 4, promoCode: 'karibu' }, wallNow);
    expect(priced?.lines.map((line) => line.discount)).toEqual([0, 45]);
    expect(priced).toMatchObject({ subtotal: 1300, discount: 45, amount: 1255, promoId: 'promo-1' });
  });

  it('a fixed code takes its amount off each ticket, never more than the ticket, and the order still costs Ksh 1', () => {
    expect(priceOrder(facts({ promo: promo('fixed', 30) }), { items: [{ typeId: 'ga', quantity: 2 }], quantity: 2, promoCode: 'KARIBU' }, wallNow).priced).toMatchObject({ discount: 60, amount: 140 });
    expect(priceOrder(facts({ promo: promo('fixed', 500) }), { items: [{ typeId: 'ga', quantity: 2 }], quantity: 2, promoCode: 'KARIBU' }, wallNow).priced).toMatchObject({ discount: 199, amount: 1 });
    expect(priceOrder(facts({ promo: promo('percent', 100) }), { items: [{ typeId: 'ga', quantity: 1 }, { typeId: 'vip', quantity: 1 }], quantity: 2, promoCode: 'KARIBU' }, wallNow).priced).toMatchObject({
      lines: [expect.objectContaining({ discount: 100 }), expect.objectContaining({ discount: 999 })],
      amount: 1,
    });
  });

  it('refuses a code that is unknown, not valid now, or for none of the chosen types (named upper-case)', () => {
    const order = { items: [{ typeId: 'ga', quantity: 1 }], quantity: 1, promoCode: 'karibu' };
    expect(priceOrder(facts(), order, wallNow).refusal).toEqual({ reason: 'promo_unknown', code: 'KARIBU' });
    expect(priceOrder(facts({ promo: promo('percent', 10, { validUntil: wallNow }) }), order, wallNow).refusal).toEqual({ reason: 'promo_not_valid_now', code: 'KARIBU' });
    expect(priceOrder(facts({ promo: promo('percent', 10, { validFrom: later }) }), order, wallNow).refusal).toEqual({ reason: 'promo_not_valid_now', code: 'KARIBU' });
    expect(priceOrder(facts({ promo: promo('percent', 10, { ticketTypeIds: ['vip'] }) }), order, wallNow).refusal).toEqual({ reason: 'promo_not_for_types', code: 'KARIBU' });
  });

  it('refuses an order above what one M-Pesa payment can move, saying its amount', () => {
    const types = [{ id: 'table', name: 'Table', price: 150_000, salesStart: null, salesEnd: null, maxPerOrder: 5 }];
    expect(priceOrder(facts({ types }), { items: [{ typeId: 'table', quantity: 2 }], quantity: 2 }, wallNow).refusal).toEqual({ reason: 'amount_too_large', amount: 300_000 });
    expect(priceOrder(facts({ types: [{ ...types[0]!, price: 125_000 }] }), { items: [{ typeId: 'table', quantity: 2 }], quantity: 2 }, wallNow).priced?.amount).toBe(250_000);
  });
});
