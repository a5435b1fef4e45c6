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
    fee: null,
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
      fee: 0,
      feeMode: 'absorbed',
      promoId: null,
      dateId: null,
    });
  });

  it('on a series, prices for the date picked or the one a type is for, and refuses a missing, past or mixed date', () => {
    const series = facts({
      event: { status: 'approved', startsAt: new Date('2026-11-28T18:00:00Z'), isPaid: true, title: 'Comedy nights' },
      types: [
        { id: 'ga', name: 'Regular', price: 500, salesStart: null, salesEnd: null, maxPerOrder: 10 },
        { id: 'sat', name: 'Saturday', price: 700, salesStart: null, salesEnd: null, maxPerOrder: 10, dateId: 'd2' },
        { id: 'pass', name: 'Pass', price: 1200, salesStart: null, salesEnd: null, maxPerOrder: 10, allDates: true },
      ],
      dates: [
        { id: 'd0', startsAt: new Date('2026-11-28T18:00:00Z') },
        { id: 'd1', startsAt: later },
        { id: 'd2', startsAt: new Date('2026-12-27T18:00:00Z') },
      ],
    });
    const ga = [{ typeId: 'ga', quantity: 1 }];
    // The series' first date has passed, but it is on sale for its later dates.
    expect(priceOrder(series, { items: ga, quantity: 1, dateId: 'd1' }, wallNow).priced?.dateId).toBe('d1');
    expect(priceOrder(series, { items: [{ typeId: 'sat', quantity: 1 }], quantity: 1 }, wallNow).priced?.dateId).toBe('d2');
    expect(priceOrder(series, { items: [{ typeId: 'pass', quantity: 2 }], quantity: 2 }, wallNow).priced?.dateId).toBeNull();
    expect(priceOrder(series, { items: ga, quantity: 1 }, wallNow).refusal).toEqual({ reason: 'date_required' });
    expect(priceOrder(series, { items: ga, quantity: 1, dateId: 'd0' }, wallNow).refusal).toEqual({ reason: 'date_past' });
    expect(priceOrder(series, { items: ga, quantity: 1, dateId: 'nope' }, wallNow).refusal).toEqual({ reason: 'date_not_found' });
    expect(priceOrder(series, { items: [{ typeId: 'sat', quantity: 1 }], quantity: 1, dateId: 'd1' }, wallNow).refusal).toEqual({ reason: 'type_other_date', typeName: 'Saturday' });
    expect(priceOrder(series, { items: [...ga, { typeId: 'pass', quantity: 1 }], quantity: 2, dateId: 'd1' }, wallNow).refusal).toEqual({ reason: 'date_mixed' });
    // An event with one date takes no date.
    expect(priceOrder(facts(), { items: ga, quantity: 1, dateId: 'd1' }, wallNow).refusal).toEqual({ reason: 'no_dates' });
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

describe('priceOrder: the platform fee (docs/decisions/fees.md)', () => {
  const fee = (percentBp: number, fixed: number, minimum: number, mode: 'absorbed' | 'on_top') => ({ fee: { percentBp, fixed, minimum, mode } });
  const two = { items: [{ typeId: 'ga', quantity: 2 }], quantity: 2 };

  it('absorbed: the fee comes out of the price, so the buyer pays the ticket price', () => {
    expect(priceOrder(facts(fee(500, 0, 0, 'absorbed')), two, wallNow).priced).toMatchObject({ subtotal: 200, amount: 200, fee: 10, feeMode: 'absorbed' });
  });

  it('on top: the buyer pays the fee beside the price, and M-Pesa is asked for both', () => {
    expect(priceOrder(facts(fee(500, 0, 0, 'on_top')), two, wallNow).priced).toMatchObject({ subtotal: 200, amount: 210, fee: 10, feeMode: 'on_top' });
  });

  it('fixed shillings and the minimum count per paid ticket', () => {
    expect(priceOrder(facts(fee(0, 7, 0, 'on_top')), two, wallNow).priced).toMatchObject({ fee: 14, amount: 214 });
    // 5 % of 200 is 10, less than 2 × 15.
    expect(priceOrder(facts(fee(500, 0, 15, 'on_top')), two, wallNow).priced).toMatchObject({ fee: 30, amount: 230 });
  });

  it('rounds the percentage of each line to the nearest shilling, halves up', () => {
    const types = [{ id: 'x', name: 'X', price: 105, salesStart: null, salesEnd: null, maxPerOrder: 10 }];
    // 2.5 % of 1,050 is 26.25 → 26; of 1,260 (12 × 105) would be 31.5 → 32.
    expect(priceOrder(facts({ types, ...fee(250, 0, 0, 'on_top') }), { items: [{ typeId: 'x', quantity: 10 }], quantity: 10 }, wallNow).priced?.fee).toBe(26);
    const twelve = [{ ...types[0]!, maxPerOrder: 12 }];
    expect(priceOrder(facts({ types: twelve, ...fee(250, 0, 0, 'on_top') }), { items: [{ typeId: 'x', quantity: 12 }], quantity: 12 }, wallNow).priced?.fee).toBe(32);
  });

  it('charges no fee on free tickets in an order with paid ones, and takes it of the discounted price', () => {
    const types = [...facts().types, { id: 'free', name: 'Free', price: 0, salesStart: null, salesEnd: null, maxPerOrder: 5 }];
    const order = { items: [{ typeId: 'ga', quantity: 1 }, { typeId: 'free', quantity: 3 }], quantity: 4 };
    expect(priceOrder(facts({ types, ...fee(1000, 5, 0, 'on_top') }), order, wallNow).priced).toMatchObject({ fee: 15, amount: 115 });
    // 10 % off a Ksh 100 ticket: the fee is 10 % of 90.
    const promoted = priceOrder(facts({ types, promo: promo('percent', 10), ...fee(1000, 0, 0, 'on_top') }), { ...order, promoCode: 'KARIBU' }, wallNow).priced;
    expect(promoted).toMatchObject({ discount: 10, fee: 9, amount: 99 });
  });

  it('an absorbed fee never takes more than the tickets cost; a fee on top counts toward the M-Pesa limit', () => {
    expect(priceOrder(facts(fee(0, 500, 0, 'absorbed')), two, wallNow).priced).toMatchObject({ amount: 200, fee: 200 });
    const types = [{ id: 'table', name: 'Table', price: 125_000, salesStart: null, salesEnd: null, maxPerOrder: 5 }];
    const tables = { items: [{ typeId: 'table', quantity: 2 }], quantity: 2 };
    expect(priceOrder(facts({ types, ...fee(100, 0, 0, 'absorbed') }), tables, wallNow).priced).toMatchObject({ amount: 250_000, fee: 2500 });
    expect(priceOrder(facts({ types, ...fee(100, 0, 0, 'on_top') }), tables, wallNow).refusal).toEqual({ reason: 'amount_too_large', amount: 252_500 });
  });
});
