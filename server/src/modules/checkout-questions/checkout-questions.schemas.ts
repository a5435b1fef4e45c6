import { QUESTION_KINDS, QUESTION_LIMITS, QUESTION_SCOPES } from '@tukio/shared/checkout-questions';
import { z } from 'zod';
import { idParam, text } from '../../lib/validate.js';

export const eventParams = z.object({ id: idParam('Event id') });
export const questionParams = z.object({ id: idParam('Event id'), questionId: idParam('Question id') });
export const orderParams = z.object({ orderId: idParam('Order id') });

/** The signed capability a guest's SMS link carries (`/t/<token>`). */
export const guestLinkParams = z.object({ token: z.string().min(1).max(100) });

/** A question as the organiser writes it. */
export const questionBody = z
  .object({
    label: text('Question', QUESTION_LIMITS.label),
    kind: z.enum(QUESTION_KINDS, { error: `Kind must be one of ${QUESTION_KINDS.join(', ')}.` }),
    options: z.array(text('Option', QUESTION_LIMITS.option), { error: 'Options must be a list.' }).max(QUESTION_LIMITS.options, `At most ${QUESTION_LIMITS.options} options.`).default([]),
    required: z.boolean({ error: 'Required must be true or false.' }).default(false),
    per: z.enum(QUESTION_SCOPES, { error: 'Per must be order or attendee.' }).default('order'),
    ticketTypeId: idParam('Ticket type id').nullable().default(null),
  })
  .refine((question) => question.kind !== 'choice' || (question.options.length >= 2 && new Set(question.options).size === question.options.length), {
    message: 'A choice question needs at least two different options.',
    path: ['options'],
  });
export type QuestionInput = z.infer<typeof questionBody>;

export const reorderBody = z.object({ ids: z.array(idParam('Question id'), { error: 'ids must be a list.' }).max(QUESTION_LIMITS.questionsPerEvent) });

/** A buyer's answers; checked against the event's questions by the service (the rule is shared with the client). */
export const answerInput = z.object({
  questionId: idParam('Question id'),
  attendee: z.int('Attendee must be a whole number.').min(0).max(99).optional(),
  value: z.union([z.string().max(QUESTION_LIMITS.answer * 2), z.boolean(), z.number()]),
});
export const answersBody = z.object({ answers: z.array(answerInput, { error: 'answers must be a list.' }).max(500) });
