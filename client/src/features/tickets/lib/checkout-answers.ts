/*
 * The payment dialog's "questions" step (docs/decisions/checkout-questions.md), pure: which fields an order asks
 * (a per-attendee question once per ticket it applies to, a per-order one once), and whether what the buyer typed
 * is acceptable, by the rule the server applies (@tukio/shared/checkout-questions).
 */
import { normaliseAnswer, timesAsked, type AnswerInput, type AnswerProblem, type CheckoutQuestion } from '@tukio/shared/checkout-questions';
import type { TicketOrder } from './ticket-order';

/** One answer to give: a question, and the ticket it is for (`attendee`, 0-based; 0 for a per-order question). */
export interface AnswerField {
  key: string;
  question: CheckoutQuestion;
  attendee: number;
  /** How many times the question is asked of this order (a per-attendee field says "Ticket n of times"). */
  times: number;
}

export const answerKey = (questionId: string, attendee: number) => `${questionId}:${attendee}`;

/**
 * The fields an order asks, question by question. Without `items` (a one-type event) every seat is of the event's
 * only type, so a question of that type is asked of every seat.
 */
export function answerFields(questions: CheckoutQuestion[], order: Pick<TicketOrder, 'quantity' | 'items'>): AnswerField[] {
  const seats = (question: CheckoutQuestion) =>
    order.items && order.items.length > 0 ? order.items.flatMap((item) => Array.from({ length: item.quantity }, () => item.typeId)) : Array.from({ length: order.quantity }, () => question.ticketTypeId);
  return questions.flatMap((question) => {
    const times = timesAsked(question, seats(question));
    return Array.from({ length: times }, (_, attendee) => ({ key: answerKey(question._id, attendee), question, attendee, times }));
  });
}

/** The answers to send, or each refused field's problem (keyed as `answerKey`). */
export function checkAnswers(fields: AnswerField[], values: Record<string, string>): { answers: AnswerInput[] } | { problems: Record<string, AnswerProblem> } {
  const answers: AnswerInput[] = [];
  const problems: Record<string, AnswerProblem> = {};
  for (const field of fields) {
    const checked = normaliseAnswer(field.question, values[field.key] ?? '');
    if ('problem' in checked) problems[field.key] = checked.problem;
    else if (checked.value !== '') answers.push({ questionId: field.question._id, attendee: field.attendee, value: checked.value });
  }
  return Object.keys(problems).length > 0 ? { problems } : { answers };
}

/** What the buyer typed before, from answers given earlier (a retry, or the profile's edit). */
export function valuesOf(answers: Array<{ questionId: string; attendee?: number | undefined; value: string }>): Record<string, string> {
  return Object.fromEntries(answers.map((answer) => [answerKey(answer.questionId, answer.attendee ?? 0), answer.value]));
}
