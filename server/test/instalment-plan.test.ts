import { describe, expect, it } from 'vitest';
import { applyToReservation, depositFor, lapseRefund, orderPlan, reminderDue } from '../src/modules/checkout/instalment-plan.js';

/** The arithmetic of paying in parts (docs/decisions/instalments.md), on its own. */

const DAY_MS = 24 * 60 * 60 * 1000;

describe('an order’s plan', () => {
  it('rounds the deposit up, carries at least the fee, and always leaves something for later', () => {
    expect(depositFor(1000, 30)).toBe(300);
    expect(depositFor(999, 30)).toBe(300);
    const plan = { depositPercent: 30, dueDate: '2026-12-10T18:00:00.000Z', cancellationFee: 50 };
    expect(orderPlan(plan, { amount: 1000, quantity: 1, feeAmount: 40 })).toMatchObject({ deposit: 300, cancellationFee: 50 });
    // A fee above the percent: the deposit carries all of it.
    expect(orderPlan(plan, { amount: 200, quantity: 1, feeAmount: 80 }).deposit).toBe(80);
    // 90% of 2 shillings rounds up to all of it: a shilling is left for later.
    expect(orderPlan({ ...plan, depositPercent: 90 }, { amount: 2, quantity: 1, feeAmount: 0 }).deposit).toBe(1);
  });

  it('charges the cancellation fee per ticket, below the deposit, and reads the due date as Nairobi wall clock', () => {
    const plan = { depositPercent: 10, dueDate: '2026-12-10T18:00:00.000Z', cancellationFee: 60 };
    const order = orderPlan(plan, { amount: 3000, quantity: 3, feeAmount: 0 });
    expect(order.cancellationFee).toBe(180);
    expect(orderPlan({ ...plan, cancellationFee: 500 }, { amount: 3000, quantity: 3, feeAmount: 0 }).cancellationFee).toBe(299);
    expect(order.dueAt.toISOString()).toBe('2026-12-10T15:00:00.000Z');
  });
});

describe('payments towards a reservation', () => {
  it('applies up to the balance and says what is overpaid', () => {
    expect(applyToReservation(400, 700)).toEqual({ applied: 400, overpaid: 0, balanceAfter: 300, paysOff: false });
    expect(applyToReservation(300, 300)).toEqual({ applied: 300, overpaid: 0, balanceAfter: 0, paysOff: true });
    expect(applyToReservation(500, 420)).toEqual({ applied: 420, overpaid: 80, balanceAfter: 0, paysOff: true });
  });

  it('a lapse gives back what was paid less the fee, never more than was paid', () => {
    expect(lapseRefund(500, 50)).toEqual({ refund: 450, kept: 50 });
    expect(lapseRefund(30, 50)).toEqual({ refund: 0, kept: 30 });
    expect(lapseRefund(300, 0)).toEqual({ refund: 300, kept: 0 });
  });
});

describe('reminders', () => {
  const dueAt = new Date('2026-12-20T12:00:00.000Z');
  const before = (days: number, ms = 0) => new Date(dueAt.getTime() - days * DAY_MS + ms);
  it('is the nearest of 7, 3 and 1 days whose moment has come', () => {
    expect(reminderDue(dueAt, before(8))).toBeUndefined();
    expect(reminderDue(dueAt, before(7, -1))).toBeUndefined();
    expect(reminderDue(dueAt, before(7))).toBe(7);
    expect(reminderDue(dueAt, before(4))).toBe(7);
    expect(reminderDue(dueAt, before(3))).toBe(3);
    expect(reminderDue(dueAt, before(1, 1))).toBe(1);
    expect(reminderDue(dueAt, dueAt)).toBeUndefined();
  });
});
