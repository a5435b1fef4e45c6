import { describe, expect, it } from 'vitest';
import type { EventStatement, PayoutSummary } from '../api/payouts-api';
import { balanceTiles, eventRows, nextPayoutMessage, signedShillings, statementLines } from './payout-rows';

const summary = (over: Partial<PayoutSummary> = {}): PayoutSummary => ({
  currency: 'KES',
  pending: 0,
  available: 0,
  onHold: 0,
  inFlight: 0,
  paid: 0,
  negativeBalance: 0,
  nextPayout: null,
  waitingFor: 'nothing_payable',
  events: [],
  ...over,
});

const event = { eventId: 'e1', title: 'Jazz', startsAt: '2026-12-01T15:00:00.000Z', owed: 0, available: 0, pending: 0, onHold: 0, negative: 0, paidOut: 0, payableFrom: '2026-12-04T15:00:00.000Z' };

describe('balanceTiles', () => {
  it('lists the five balances, payable now first, marking what needs attention', () => {
    const tiles = balanceTiles(summary({ available: 900, pending: 100, onHold: 50, inFlight: 20, paid: 3000 }));
    expect(tiles.map((tile) => [tile.id, tile.amount, tile.tone])).toEqual([
      ['available', 900, 'positive'],
      ['pending', 100, 'neutral'],
      ['onHold', 50, 'warning'],
      ['inFlight', 20, 'neutral'],
      ['paid', 3000, 'neutral'],
    ]);
  });
});

describe('nextPayoutMessage', () => {
  it('names the next payout when one is due', () => {
    expect(nextPayoutMessage(summary({ nextPayout: { amount: 900 }, waitingFor: null }))).toEqual({ key: 'payouts.nextPayout', params: { amount: 900 }, tone: 'positive' });
  });

  it('says why nothing is paid now, a failed payout or a missing destination as warnings', () => {
    expect(nextPayoutMessage(summary({ waitingFor: 'below_minimum' }))).toEqual({ key: 'payouts.waitingBelowMinimum', tone: 'neutral' });
    expect(nextPayoutMessage(summary({ waitingFor: 'payout_failed' })).tone).toBe('warning');
    expect(nextPayoutMessage(summary({ waitingFor: 'no_destination' })).key).toBe('payouts.waitingNoDestination');
  });
});

describe('eventRows', () => {
  it('explains each event: pending until its payout date, early part paid, negative recovered from next sales', () => {
    const rows = eventRows(
      summary({
        events: [
          { ...event, status: 'pending', owed: 1000, pending: 1000 },
          { ...event, eventId: 'e2', status: 'early', owed: 1000, available: 500, pending: 500 },
          { ...event, eventId: 'e3', status: 'negative', owed: -300, negative: 300 },
        ],
      }),
    );
    expect(rows.map((row) => [row.eventId, row.status.label, row.note])).toEqual([
      ['e1', 'payouts.statusPending', { key: 'payouts.notePending', date: event.payableFrom }],
      ['e2', 'payouts.statusEarly', { key: 'payouts.noteEarly', params: { amount: 500, rest: 500 }, date: event.payableFrom }],
      ['e3', 'payouts.statusNegative', { key: 'payouts.noteNegative', params: { amount: 300 } }],
    ]);
    expect(rows[2]!.status.tone).toBe('negative');
  });
});

describe('statementLines', () => {
  const statement: EventStatement = {
    eventId: 'e1',
    title: 'Jazz',
    currency: 'KES',
    grossSales: 2000,
    fees: 100,
    mpesaCharges: 14,
    refunds: 0,
    adjustments: 0,
    net: 1900,
    paidOut: 1900,
    balance: 0,
    payouts: [],
  };

  it('subtracts fees and refunds to the net, leaves M-Pesa charges apart (Tukio bears them), hides zero adjustments', () => {
    const { figures, mpesaCharges } = statementLines(statement);
    expect(figures.map((line) => [line.label, line.amount])).toEqual([
      ['payouts.grossSales', 2000],
      ['payouts.fees', -100],
      ['payouts.refunds', -0],
      ['payouts.net', 1900],
      ['payouts.paidOut', -1900],
      ['payouts.balance', 0],
    ]);
    expect(mpesaCharges).toBe(14);
  });

  it('names a negative balance as owed back, and shows adjustments when any', () => {
    const { figures } = statementLines({ ...statement, adjustments: -50, refunds: 600, net: 1250, balance: -650 });
    expect(figures.map((line) => line.label)).toContain('payouts.adjustments');
    expect(figures.at(-1)).toMatchObject({ label: 'payouts.balanceOwedBack', amount: -650, hint: 'payouts.balanceOwedBackHint' });
  });
});

describe('signedShillings', () => {
  it('puts the minus sign before the currency', () => {
    const format = (amount: number) => `Ksh.${amount}`;
    expect(signedShillings(-300, format)).toBe('−Ksh.300');
    expect(signedShillings(300, format)).toBe('Ksh.300');
    expect(signedShillings(-0, format)).toBe('Ksh.0');
  });
});
