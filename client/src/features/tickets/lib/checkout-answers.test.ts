import type { CheckoutQuestion } from '@tukio/shared/checkout-questions';
import { describe, expect, it } from 'vitest';
import { answerFields, checkAnswers, valuesOf } from './checkout-answers';
import { initialState, paymentFlow, type PaymentAction, type PaymentState, type PaymentTask } from './payment-flow';
import type { TicketOrder } from './ticket-order';

const question = (fields: Partial<CheckoutQuestion> & Pick<CheckoutQuestion, '_id' | 'kind'>): CheckoutQuestion => ({ label: fields._id, options: [], required: false, per: 'order', ticketTypeId: null, ...fields });
const name = question({ _id: 'name', label: 'Name on ticket', kind: 'text', required: true, per: 'attendee' });
const size = question({ _id: 'size', label: 'T-shirt size', kind: 'choice', options: ['S', 'M', 'L'] });
const dinner = question({ _id: 'dinner', label: 'VIP dinner?', kind: 'yes_no', required: true, per: 'attendee', ticketTypeId: 'vip' });
const phone = question({ _id: 'phone', label: 'Emergency phone', kind: 'phone' });
const email = question({ _id: 'email', label: 'Work email', kind: 'email' });

const order: TicketOrder = { quantity: 3, items: [{ typeId: 'regular', quantity: 2 }, { typeId: 'vip', quantity: 1 }], lines: [], discount: 0 };
const flow = (state: PaymentState, ...actions: PaymentAction[]) => actions.reduce(paymentFlow, state);
function taskOf<K extends PaymentTask['kind']>(state: PaymentState, kind: K): Extract<PaymentTask, { kind: K }> {
  expect(state.task?.kind).toBe(kind);
  return state.task as Extract<PaymentTask, { kind: K }>;
}

describe('the fields an order asks', () => {
  it('a per-attendee question once per ticket it applies to, a per-order one once', () => {
    const fields = answerFields([name, size, dinner], order);
    expect(fields.map((field) => field.key)).toEqual(['name:0', 'name:1', 'name:2', 'size:0', 'dinner:0']);
    expect(fields[0]).toMatchObject({ attendee: 0, times: 3 });
    // No VIP seat: the VIP question is not asked.
    expect(answerFields([dinner], { quantity: 2, items: [{ typeId: 'regular', quantity: 2 }] })).toEqual([]);
    // A one-type event (no items): every seat is of its only type.
    expect(answerFields([dinner, size], { quantity: 2 }).map((field) => field.key)).toEqual(['dinner:0', 'dinner:1', 'size:0']);
  });
});

describe('checking the answers as the server will', () => {
  const fields = answerFields([name, size, phone, email], { quantity: 2 });
  it('sends normalised answers and leaves out empty optional ones', () => {
    const checked = checkAnswers(fields, { 'name:0': ' Achieng ', 'name:1': 'Baraka', 'size:0': 'M', 'phone:0': '0712 345 678', 'email:0': 'A@Example.com' });
    expect(checked).toEqual({
      answers: [
        { questionId: 'name', attendee: 0, value: 'Achieng' },
        { questionId: 'name', attendee: 1, value: 'Baraka' },
        { questionId: 'size', attendee: 0, value: 'M' },
        { questionId: 'phone', attendee: 0, value: '254712345678' },
        { questionId: 'email', attendee: 0, value: 'a@example.com' },
      ],
    });
    expect(checkAnswers(fields, { 'name:0': 'A', 'name:1': 'B' })).toEqual({ answers: [{ questionId: 'name', attendee: 0, value: 'A' }, { questionId: 'name', attendee: 1, value: 'B' }] });
  });
  it('names each field that is missing or of the wrong kind', () => {
    expect(checkAnswers(fields, { 'name:0': 'A', 'size:0': 'XXL', 'phone:0': '12345', 'email:0': 'nope' })).toEqual({
      problems: { 'name:1': 'required', 'size:0': 'not_one_of', 'phone:0': 'invalid_phone', 'email:0': 'invalid_email' },
    });
  });
  it('reads saved answers back into the fields', () => {
    expect(valuesOf([{ questionId: 'name', attendee: 1, value: 'Baraka' }, { questionId: 'size', value: 'S' }])).toEqual({ 'name:1': 'Baraka', 'size:0': 'S' });
  });
});

describe('the questions step of the payment flow', () => {
  const answers = [{ questionId: 'name', attendee: 0, value: 'Achieng' }];
  const atQuestions = () => flow(initialState(false), { type: 'begin', order: { quantity: 1, lines: [], discount: 0 }, questions: [name] }, { type: 'acceptPrice' });

  it('comes after the price only when the event asks something of the order', () => {
    expect(atQuestions().phase).toBe('questions');
    expect(flow(initialState(false), { type: 'begin', order: { quantity: 1, lines: [], discount: 0 } }, { type: 'acceptPrice' }).phase).toBe('phone');
    expect(flow(initialState(false), { type: 'begin', order: { quantity: 1, items: [{ typeId: 'regular', quantity: 1 }], lines: [], discount: 0 }, questions: [dinner] }, { type: 'acceptPrice' }).phase).toBe('phone');
    // Paying is not possible from the questions step.
    expect(paymentFlow(atQuestions(), { type: 'pay', phone: '254712345678' }).phase).toBe('questions');
  });

  it('sends the answers with the push, and keeps them through a change and a retry', () => {
    const answered = paymentFlow(atQuestions(), { type: 'answered', answers });
    expect(answered).toMatchObject({ phase: 'phone', answers });
    expect(paymentFlow(answered, { type: 'editAnswers' }).phase).toBe('questions');
    const joining = paymentFlow(answered, { type: 'pay', phone: '254712345678' });
    const pushing = paymentFlow(joining, { type: 'joined', task: taskOf(joining, 'join'), place: null });
    expect(taskOf(pushing, 'push').input.answers).toEqual(answers);
    const failed = paymentFlow(pushing, { type: 'pushed', task: taskOf(pushing, 'push'), result: { ResponseCode: '1' } as never, now: 0 });
    expect(failed.phase).toBe('phone');
    expect(failed.answers).toEqual(answers);
  });

  it('goes back to the questions when the server refuses an answer, and sends none without questions', () => {
    const answered = paymentFlow(atQuestions(), { type: 'answered', answers });
    const joining = paymentFlow(answered, { type: 'pay', phone: '254712345678' });
    const pushing = paymentFlow(joining, { type: 'joined', task: taskOf(joining, 'join'), place: null });
    const refusal = { isHttpError: true, message: 'HTTP 400', response: { status: 400, data: { message: 'Failed to initiate payment: Please answer “Name on ticket”.', code: 'answer_required', params: { question: 'Name on ticket' } } } };
    const back = paymentFlow(pushing, { type: 'pushFailed', task: taskOf(pushing, 'push'), error: refusal, now: 0 });
    expect(back.phase).toBe('questions');
    expect(back.error?.message).toContain('Name on ticket');

    const plain = flow(initialState(false), { type: 'begin', order: { quantity: 1, lines: [], discount: 0 } }, { type: 'acceptPrice' }, { type: 'pay', phone: '254712345678' });
    const plainPush = paymentFlow(plain, { type: 'joined', task: taskOf(plain, 'join'), place: null });
    expect(taskOf(plainPush, 'push').input).not.toHaveProperty('answers');
  });
});
