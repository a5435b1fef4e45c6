/*
 * Turns the server's payout summary and statements into what the Payouts page shows: which balances, in which
 * order, with which catalog keys (payouts.*). Pure, so the page stays a layout and the rules are tested here.
 */
import type { EventPayoutRow, EventPayoutStatus, EventStatement, PayoutSummary, PayoutWaitingFor } from '../api/payouts-api';

export type Tone = 'positive' | 'neutral' | 'warning' | 'negative';

/** A catalog key and its parameters (the component translates it). */
export interface Message {
  key: string;
  params?: Record<string, string | number>;
}

export interface BalanceTile {
  id: 'available' | 'pending' | 'onHold' | 'inFlight' | 'paid';
  label: string;
  hint: string;
  amount: number;
  tone: Tone;
}

/** The five balances, payable now first; each always shown (a zero says "nothing here" too). */
export function balanceTiles(summary: PayoutSummary): BalanceTile[] {
  return [
    { id: 'available', label: 'payouts.available', hint: 'payouts.availableHint', amount: summary.available, tone: summary.available > 0 ? 'positive' : 'neutral' },
    { id: 'pending', label: 'payouts.pending', hint: 'payouts.pendingHint', amount: summary.pending, tone: 'neutral' },
    { id: 'onHold', label: 'payouts.onHold', hint: 'payouts.onHoldHint', amount: summary.onHold, tone: summary.onHold > 0 ? 'warning' : 'neutral' },
    { id: 'inFlight', label: 'payouts.inFlight', hint: 'payouts.inFlightHint', amount: summary.inFlight, tone: 'neutral' },
    { id: 'paid', label: 'payouts.paid', hint: 'payouts.paidHint', amount: summary.paid, tone: 'neutral' },
  ];
}

const WAITING: Record<PayoutWaitingFor, string> = {
  nothing_payable: 'payouts.waitingNothingPayable',
  below_minimum: 'payouts.waitingBelowMinimum',
  no_destination: 'payouts.waitingNoDestination',
  destination_held: 'payouts.waitingDestinationHeld',
  payout_open: 'payouts.waitingPayoutOpen',
  payout_failed: 'payouts.waitingPayoutFailed',
};

/** The line under the balances: the next payout, or why none is made now. */
export function nextPayoutMessage(summary: PayoutSummary): Message & { tone: Tone } {
  if (summary.nextPayout && summary.nextPayout.amount > 0 && !summary.waitingFor) return { key: 'payouts.nextPayout', params: { amount: summary.nextPayout.amount }, tone: 'positive' };
  const key = summary.waitingFor ? WAITING[summary.waitingFor] : WAITING.nothing_payable;
  const tone: Tone = summary.waitingFor === 'payout_failed' || summary.waitingFor === 'no_destination' ? 'warning' : 'neutral';
  return { key, tone };
}

const STATUS: Record<EventPayoutStatus, { label: string; tone: Tone }> = {
  available: { label: 'payouts.statusAvailable', tone: 'positive' },
  early: { label: 'payouts.statusEarly', tone: 'positive' },
  pending: { label: 'payouts.statusPending', tone: 'neutral' },
  on_hold: { label: 'payouts.statusOnHold', tone: 'warning' },
  awaiting_refunds: { label: 'payouts.statusAwaitingRefunds', tone: 'warning' },
  negative: { label: 'payouts.statusNegative', tone: 'negative' },
  settled: { label: 'payouts.statusSettled', tone: 'neutral' },
};

export interface EventDisplayRow {
  eventId: string;
  title: string;
  startsAt: string;
  status: { label: string; tone: Tone };
  /** What Tukio owes for it now; negative: owed back. */
  owed: number;
  paidOut: number;
  /** Why this event's money is (or is not) paid now. Dates are ISO strings the component formats. */
  note: Message & { date?: string };
}

function eventNote(row: EventPayoutRow): EventDisplayRow['note'] {
  switch (row.status) {
    case 'available':
      return { key: 'payouts.noteAvailable', params: { amount: row.available } };
    case 'early':
      return { key: 'payouts.noteEarly', params: { amount: row.available, rest: row.pending }, date: row.payableFrom };
    case 'pending':
      return { key: 'payouts.notePending', date: row.payableFrom };
    case 'on_hold':
      return { key: 'payouts.noteOnHold' };
    case 'awaiting_refunds':
      return { key: 'payouts.noteAwaitingRefunds' };
    case 'negative':
      return { key: 'payouts.noteNegative', params: { amount: row.negative || -row.owed } };
    case 'settled':
      return { key: 'payouts.noteSettled' };
  }
}

/** One row per event, as the server orders them; unknown statuses (a newer server) read as pending. */
export function eventRows(summary: PayoutSummary): EventDisplayRow[] {
  return summary.events.map((row) => ({
    eventId: row.eventId,
    title: row.title,
    startsAt: row.startsAt,
    status: STATUS[row.status] ?? STATUS.pending,
    owed: row.owed,
    paidOut: row.paidOut,
    note: eventNote(row),
  }));
}

export interface StatementLine {
  label: string;
  /** Signed as it counts toward the net (fees and refunds negative). */
  amount: number;
  /** A total: shown bold, with a rule above. */
  total?: boolean;
  hint?: string;
}

/**
 * The statement's figures top to bottom: gross − fees − refunds (+ adjustments when any) = net; then paid out
 * and the balance. M-Pesa's charges are borne by Tukio (docs/decisions/fees.md), so they are shown apart, not
 * subtracted.
 */
export function statementLines(statement: EventStatement): { figures: StatementLine[]; mpesaCharges: number } {
  const figures: StatementLine[] = [
    { label: 'payouts.grossSales', amount: statement.grossSales },
    { label: 'payouts.fees', amount: -statement.fees },
    { label: 'payouts.refunds', amount: -statement.refunds },
  ];
  if (statement.adjustments !== 0) figures.push({ label: 'payouts.adjustments', amount: statement.adjustments });
  figures.push(
    { label: 'payouts.net', amount: statement.net, total: true },
    { label: 'payouts.paidOut', amount: -statement.paidOut },
    { label: statement.balance < 0 ? 'payouts.balanceOwedBack' : 'payouts.balance', amount: statement.balance, total: true, hint: statement.balance < 0 ? 'payouts.balanceOwedBackHint' : undefined },
  );
  return { figures, mpesaCharges: statement.mpesaCharges };
}

/** Shillings with a real minus sign in front (−Ksh.300), so an amount owed back reads as one. */
export function signedShillings(amount: number, format: (amount: number) => string): string {
  // A zero (−0 included, from subtracting nothing) has no sign.
  if (amount === 0) return format(0);
  return amount < 0 ? `−${format(-amount)}` : format(amount);
}

/** The badge class of a tone (client/src/styles/global.css). */
export const BADGE: Record<Tone, string> = { positive: 'badge--success', neutral: 'badge--neutral', warning: 'badge--pending', negative: 'badge--failed' };
