/**
 * The arithmetic of paying in parts (docs/decisions/instalments.md), pure so it is tested on its own: an order's
 * deposit and cancellation fee from its ticket type's plan, how a payment towards a reservation is applied, and
 * which reminder is due when.
 */

import { realInstant } from '../../lib/event-clock.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Reminders go out this many days before the due date, each once. */
export const REMINDER_DAYS = [7, 3, 1] as const;
export type ReminderDay = (typeof REMINDER_DAYS)[number];

/** The deposit of `amount` at `percent`, rounded up to whole shillings. */
export function depositFor(amount: number, percent: number): number {
  return Math.ceil((amount * percent) / 100);
}

/** A ticket type's plan as the checkout reads it: the due date is the organiser's wall clock. */
export interface TypePlan {
  depositPercent: number;
  dueDate: string;
  cancellationFee: number;
}

/** What an order on an instalment plan owes when, snapshotted when its seats are held. */
export interface OrderPlan {
  deposit: number;
  /** A real instant. */
  dueAt: Date;
  cancellationFee: number;
}

/**
 * The order's plan: its deposit is the percent of the whole order (fee included) rounded up, never less than the
 * platform fee (so the deposit carries the whole fee, and later payments none) and always leaving at least a shilling
 * for later; the cancellation fee is the type's per ticket, kept below the deposit. The due date, a wall-clock time,
 * becomes a real instant (Nairobi is UTC+3 all year).
 */
export function orderPlan(plan: TypePlan, order: { amount: number; quantity: number; feeAmount: number }): OrderPlan {
  const deposit = Math.min(Math.max(depositFor(order.amount, plan.depositPercent), order.feeAmount, 1), order.amount - 1);
  const cancellationFee = Math.max(0, Math.min(plan.cancellationFee * order.quantity, deposit - 1));
  return { deposit, dueAt: realInstant(new Date(plan.dueDate)), cancellationFee };
}

/**
 * How a payment of `amount` goes towards a reservation that still owes `balance`: what is applied (the rest, an
 * overpayment, is refunded), what is left owing after it, and whether that pays the order.
 */
export function applyToReservation(amount: number, balance: number): { applied: number; overpaid: number; balanceAfter: number; paysOff: boolean } {
  const applied = Math.max(0, Math.min(amount, balance));
  return { applied, overpaid: amount - applied, balanceAfter: balance - applied, paysOff: balance - applied === 0 };
}

/**
 * What a reservation that lapses gives back: everything paid towards it but the cancellation fee (never more than
 * was paid, never less than nothing).
 */
export function lapseRefund(paid: number, cancellationFee: number): { refund: number; kept: number } {
  const kept = Math.min(paid, Math.max(0, cancellationFee));
  return { refund: paid - kept, kept };
}

/**
 * The reminder due at `now` for a balance due at `dueAt`: the nearest of 7, 3 and 1 days before whose moment has come
 * (a reservation made 2 days before its due date gets only the 1-day one); none before the first or after the due date.
 */
export function reminderDue(dueAt: Date, now: Date): ReminderDay | undefined {
  const left = dueAt.getTime() - now.getTime();
  if (left <= 0) return undefined;
  const due = REMINDER_DAYS.filter((days) => left <= days * DAY_MS);
  return due.length > 0 ? due[due.length - 1] : undefined;
}
