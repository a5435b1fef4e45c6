import { describe, expect, it } from 'vitest';
import { eventEndsAt, payableNow, type EventMoney, type OrganiserPayoutState } from '../src/modules/payouts/payable-now.js';

/** The "what is payable now" rule (docs/decisions/payouts.md, "Schedule"), without a database. */

const rules = { delayDays: 3, earlySharePercent: 50, minAmount: 100 };
const HOUR = 60 * 60 * 1000;
// Events start at 19:00 Nairobi wall clock on 1 March; they end at midnight (wall clock), payable 3 days later.
const startsAt = new Date('2026-03-01T19:00:00Z');
// 4 March 00:00 wall clock is 3 March 21:00 UTC: the instant the event's net becomes payable.
const payableInstant = new Date('2026-03-04T21:00:00Z');
const before = new Date(payableInstant.getTime() - HOUR);
const after = new Date(payableInstant.getTime() + HOUR);

const event = (overrides: Partial<EventMoney> = {}): EventMoney => ({
  eventId: 'e1',
  owed: 1000,
  paidOut: 0,
  startsAt,
  cancelled: false,
  refundsUnpaid: 0,
  held: false,
  ...overrides,
});
const organiser = (overrides: Partial<OrganiserPayoutState> = {}): OrganiserPayoutState => ({ earlyPayouts: false, destination: { heldUntil: null }, blockedBy: null, ...overrides });

describe('payableNow', () => {
  it('an event ends at the end of the Nairobi day it starts', () => {
    expect(eventEndsAt(startsAt).toISOString()).toBe('2026-03-02T00:00:00.000Z');
  });

  it('pays an event PAYOUT_DELAY_DAYS after it ends, not a moment before', () => {
    const early = payableNow([event()], organiser(), rules, before);
    expect(early).toMatchObject({ total: 0, send: null, wait: 'nothing_payable', events: [{ status: 'pending', payable: 0 }] });
    expect(payableNow([event()], organiser(), rules, payableInstant)).toMatchObject({ total: 1000, send: { amount: 1000, legs: [{ eventId: 'e1', amount: 1000 }] }, wait: null });
  });

  it('a trusted organiser gets EARLY_PAYOUT_SHARE of the net before the date, less what was paid already', () => {
    expect(payableNow([event()], organiser({ earlyPayouts: true }), rules, before).events[0]).toMatchObject({ status: 'early', payable: 500 });
    // 500 of 1000 already paid early: nothing more until the date.
    expect(payableNow([event({ owed: 500, paidOut: 500 })], organiser({ earlyPayouts: true }), rules, before).events[0]).toMatchObject({ status: 'pending', payable: 0 });
    // More sales since: half of everything (1001 + 500) less the 500 paid, rounded down.
    expect(payableNow([event({ owed: 1001, paidOut: 500 })], organiser({ earlyPayouts: true }), rules, before).events[0]).toMatchObject({ payable: 250 });
    expect(payableNow([event({ cancelled: true })], organiser({ earlyPayouts: true }), rules, before).events[0]).toMatchObject({ status: 'pending', payable: 0 });
  });

  it('a cancelled event pays nothing until every refund of it is paid', () => {
    expect(payableNow([event({ cancelled: true, refundsUnpaid: 2, owed: 300 })], organiser(), rules, after).events[0]).toMatchObject({ status: 'awaiting_refunds', payable: 0 });
    expect(payableNow([event({ cancelled: true, refundsUnpaid: 0, owed: 300 })], organiser(), rules, after).events[0]).toMatchObject({ status: 'available', payable: 300 });
  });

  it('a held event pays nothing', () => {
    expect(payableNow([event({ held: true })], organiser(), rules, after)).toMatchObject({ total: 0, wait: 'nothing_payable', events: [{ status: 'on_hold' }] });
  });

  it('a negative balance is netted from the next payout, and alone sends nothing', () => {
    const owing = event({ eventId: 'e0', owed: -200 });
    const plan = payableNow([owing, event({ eventId: 'e2' })], organiser(), rules, after);
    expect(plan.send).toEqual({ amount: 800, legs: [{ eventId: 'e0', amount: -200 }, { eventId: 'e2', amount: 1000 }] });
    expect(payableNow([owing], organiser(), rules, after)).toMatchObject({ total: -200, send: null, wait: 'nothing_payable', events: [{ status: 'negative' }] });
    // Recovered only from what is payable now: an event not yet payable does not cover it.
    expect(payableNow([owing, event({ eventId: 'e2' })], organiser(), rules, before)).toMatchObject({ send: null, wait: 'nothing_payable' });
  });

  it('waits for the minimum, a destination, the end of its hold and the open payout', () => {
    expect(payableNow([event({ owed: 99 })], organiser(), rules, after)).toMatchObject({ send: null, wait: 'below_minimum' });
    expect(payableNow([event()], organiser({ destination: null }), rules, after)).toMatchObject({ send: null, wait: 'no_destination' });
    expect(payableNow([event()], organiser({ destination: { heldUntil: new Date(after.getTime() + HOUR) } }), rules, after)).toMatchObject({ send: null, wait: 'destination_held' });
    expect(payableNow([event()], organiser({ destination: { heldUntil: new Date(after.getTime() - HOUR) } }), rules, after).send).toMatchObject({ amount: 1000 });
    expect(payableNow([event()], organiser({ blockedBy: 'open' }), rules, after)).toMatchObject({ send: null, wait: 'payout_open' });
    expect(payableNow([event()], organiser({ blockedBy: 'failed' }), rules, after)).toMatchObject({ send: null, wait: 'payout_failed' });
  });

  it("never sends more than M-Pesa's limit per transaction: the rest follows, the oldest event first", () => {
    const older = event({ eventId: 'a', owed: 200_000, startsAt: new Date('2026-02-01T19:00:00Z') });
    const newer = event({ eventId: 'b', owed: 100_000 });
    expect(payableNow([newer, older], organiser(), rules, after).send).toEqual({ amount: 250_000, legs: [{ eventId: 'a', amount: 200_000 }, { eventId: 'b', amount: 50_000 }] });
  });
});
