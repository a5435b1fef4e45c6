import { PAYOUT_MAX_AMOUNT } from '@tukio/shared/internal-payouts';
import { nowAsWallClock } from '../../lib/event-clock.js';

/**
 * "What is payable now" (docs/decisions/payouts.md, "Schedule"): one pure function of an organiser's events'
 * money, their settings and the clock, used by the payouts job (what to send) and the organiser's summary (what
 * they see), so both always agree.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export interface EventMoney {
  eventId: string;
  /** What Tukio owes the organiser for it now (minus its organiser payable's balance); negative: they owe it back. */
  owed: number;
  /** Already paid out for it or on its way (its payout legs, net of failed payouts). */
  paidOut: number;
  /** Its start, in the stored wall-clock form (lib/event-clock.ts). */
  startsAt: Date;
  cancelled: boolean;
  /** Its refunds not yet paid to the buyers. */
  refundsUnpaid: number;
  /** An administrator holds its payouts. */
  held: boolean;
}

export interface PayoutRules {
  /** PAYOUT_DELAY_DAYS after the event ends. */
  delayDays: number;
  /** EARLY_PAYOUT_SHARE: percent of the net an early-trusted organiser may have before then. */
  earlySharePercent: number;
  /** PAYOUT_MIN_AMOUNT: less is not sent. */
  minAmount: number;
}

export interface OrganiserPayoutState {
  earlyPayouts: boolean;
  /** The confirmed destination's hold (24 h after a change), or null when there is no destination at all. */
  destination: { heldUntil: Date | null } | null;
  /** A payout of theirs is on its way (`open`), or one failed and waits for an administrator (`failed`): nothing new is made until then. */
  blockedBy: 'open' | 'failed' | null;
}

/**
 * available: payable in full now; early: part of it is (a trusted organiser, before the date); pending: not yet;
 * on_hold: an administrator holds it; awaiting_refunds: cancelled, and its refunds are not all paid; negative:
 * the organiser owes it back (netted from the next payout); settled: nothing owed.
 */
export type EventPayoutStatus = 'available' | 'early' | 'pending' | 'on_hold' | 'awaiting_refunds' | 'negative' | 'settled';

export interface EventPayable {
  eventId: string;
  status: EventPayoutStatus;
  owed: number;
  /** What a payout made now takes from it: positive pays, negative recovers, 0 nothing. */
  payable: number;
  /** When all of it becomes payable (the stored wall-clock form, like startsAt). */
  payableFrom: Date;
}

/** Why nothing is sent now although something may be owed. */
export type PayoutWait = 'nothing_payable' | 'below_minimum' | 'no_destination' | 'destination_held' | 'payout_open' | 'payout_failed';

export interface PayablePlan {
  events: EventPayable[];
  /** The sum of the events' payables (what a payout would be, before M-Pesa's per-transaction limit). */
  total: number;
  /** The payout to make now, or why none. */
  send: { amount: number; legs: Array<{ eventId: string; amount: number }> } | null;
  wait: PayoutWait | null;
}

/** Events have a start only: one is over at the end of the Nairobi day it starts (the stored wall-clock form). */
export function eventEndsAt(startsAt: Date): Date {
  return new Date(Date.UTC(startsAt.getUTCFullYear(), startsAt.getUTCMonth(), startsAt.getUTCDate() + 1));
}

function eventPayable(event: EventMoney, organiser: OrganiserPayoutState, rules: PayoutRules, wallNow: Date): EventPayable {
  const payableFrom = new Date(eventEndsAt(event.startsAt).getTime() + rules.delayDays * DAY_MS);
  const answer = (status: EventPayoutStatus, payable: number): EventPayable => ({ eventId: event.eventId, status, owed: event.owed, payable, payableFrom });
  // What they owe back is recovered from whatever is paid next, held or not.
  if (event.owed < 0) return answer('negative', event.owed);
  if (event.owed === 0) return answer('settled', 0);
  if (event.held) return answer('on_hold', 0);
  if (event.cancelled && event.refundsUnpaid > 0) return answer('awaiting_refunds', 0);
  if (wallNow.getTime() >= payableFrom.getTime()) return answer('available', event.owed);
  if (!organiser.earlyPayouts || event.cancelled) return answer('pending', 0);
  // The share of everything the event earned (what is owed now plus what was paid already), less what was paid.
  const allowed = Math.floor(((event.owed + event.paidOut) * rules.earlySharePercent) / 100) - event.paidOut;
  const early = Math.max(0, Math.min(event.owed, allowed));
  return answer(early > 0 ? 'early' : 'pending', early);
}

/**
 * The rule. A payout nets every negative event of the organiser against the payable ones, is never more than the
 * ledger says is owed (each leg is at most its event's balance), never above M-Pesa's limit per transaction (the
 * rest follows in the next payout), and is made only when it reaches the minimum, the destination is confirmed
 * and out of its hold, and no other payout of the organiser is open.
 */
export function payableNow(events: EventMoney[], organiser: OrganiserPayoutState, rules: PayoutRules, now: Date): PayablePlan {
  const wallNow = nowAsWallClock(now);
  const rows = events.map((event) => eventPayable(event, organiser, rules, wallNow));
  const total = rows.reduce((sum, row) => sum + row.payable, 0);
  const plan = (wait: PayoutWait | null, send: PayablePlan['send'] = null): PayablePlan => ({ events: rows, total, send, wait });
  if (organiser.blockedBy) return plan(organiser.blockedBy === 'open' ? 'payout_open' : 'payout_failed');
  if (total <= 0) return plan('nothing_payable');
  if (total < rules.minAmount) return plan('below_minimum');
  if (!organiser.destination) return plan('no_destination');
  if (organiser.destination.heldUntil && organiser.destination.heldUntil.getTime() > now.getTime()) return plan('destination_held');
  const amount = Math.min(total, PAYOUT_MAX_AMOUNT);
  // Every negative in full, then the payable events, the longest-payable first, until the amount is reached.
  const legs = rows.filter((row) => row.payable < 0).map((row) => ({ eventId: row.eventId, amount: row.payable }));
  let left = amount - legs.reduce((sum, leg) => sum + leg.amount, 0);
  for (const row of rows.filter((one) => one.payable > 0).sort((a, b) => a.payableFrom.getTime() - b.payableFrom.getTime() || a.eventId.localeCompare(b.eventId))) {
    if (left <= 0) break;
    const take = Math.min(row.payable, left);
    legs.push({ eventId: row.eventId, amount: take });
    left -= take;
  }
  return plan(null, { amount, legs });
}
