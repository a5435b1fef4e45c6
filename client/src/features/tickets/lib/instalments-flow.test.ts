import { beforeAll, describe, expect, it } from 'vitest';
import type { ConfirmResult } from '../api/payment-client';
import { initialState, paymentFlow, STATUS, type PaymentAction, type PaymentState, type PaymentTask } from './payment-flow';
import type { TicketOrder } from './ticket-order';
import { loadCatalogsForTests } from '../../../lib/i18n/catalogs-for-tests';

/** The payment dialog's flow when the buyer pays in instalments (docs/decisions/instalments.md). */

const NOW = Date.UTC(2026, 10, 28, 18, 0);
const plan = { depositPercent: 30, dueDate: '2026-12-10T18:00:00.000Z', cancellationFee: 50, depositAmount: 300 };
const order: TicketOrder = { quantity: 1, lines: [{ name: null, quantity: 1, price: 1000 }], discount: 0, plan };
const flow = (state: PaymentState, ...actions: PaymentAction[]) => actions.reduce(paymentFlow, state);

beforeAll(async () => {
  await loadCatalogsForTests();
});

function pushed(state: PaymentState) {
  const task = state.task as Extract<PaymentTask, { kind: 'push' }>;
  return flow(state, { type: 'pushed', task, result: { ResponseCode: '0', CheckoutRequestID: 'ws_CO_1', amount: 300, quantity: 1 }, now: NOW });
}

describe('paying in instalments', () => {
  it('sends `instalments` with the push only when chosen, and a paid deposit ends on the reservation, not registration', () => {
    const push = flow(initialState(false), { type: 'begin', order }, { type: 'acceptPrice', instalments: true }, { type: 'pay', phone: '254712345678' });
    expect(push.order?.instalments).toBe(true);
    // Admitted by the line (no busy sale): the prompt goes out with the choice.
    const joined = flow(push, { type: 'joined', task: push.task as Extract<PaymentTask, { kind: 'join' }>, place: null });
    expect((joined.task as Extract<PaymentTask, { kind: 'push' }>).input.instalments).toBe(true);

    const following = pushed(joined);
    const poll = following.task as Extract<PaymentTask, { kind: 'poll' }>;
    const reserved: ConfirmResult = { success: false, status: 'success', orderStatus: 'reserved', quantity: 1 };
    const done = flow(following, { type: 'polled', task: poll, result: reserved, now: NOW + 3000 });
    expect(done).toMatchObject({ phase: 'done', reserved: true, status: STATUS.reserved, task: null });
  });

  it('a guest, or a type without a plan, never pays in parts', () => {
    const guest = flow(initialState(true), { type: 'begin', order }, { type: 'acceptPrice', instalments: true });
    expect(guest.order?.instalments).toBe(false);
    const noPlan = flow(initialState(false), { type: 'begin', order: { ...order, plan: null } }, { type: 'acceptPrice', instalments: true });
    expect(noPlan.order?.instalments).toBe(false);
  });
});
