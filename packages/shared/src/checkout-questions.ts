/**
 * Checkout questions (docs/decisions/checkout-questions.md): what an organiser asks buyers at checkout, and the one
 * rule for whether an answer is acceptable, shared by the payment dialog (which checks before the prompt) and the
 * API server (which decides). Browser-safe: no imports but the phone rule.
 */
import { normaliseKenyanPhone } from './phone.js';

export const QUESTION_KINDS = ['text', 'choice', 'yes_no', 'phone', 'email'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** Asked once for the whole order, or once for every ticket it applies to (a name on each ticket). */
export const QUESTION_SCOPES = ['order', 'attendee'] as const;
export type QuestionScope = (typeof QUESTION_SCOPES)[number];

export const QUESTION_LIMITS = { questionsPerEvent: 20, label: 200, option: 100, options: 20, answer: 500 } as const;

/** A question as buyers and organisers see it. `ticketTypeId` null: asked of every ticket type. */
export interface CheckoutQuestion {
  _id: string;
  label: string;
  kind: QuestionKind;
  options: string[];
  required: boolean;
  per: QuestionScope;
  ticketTypeId: string | null;
}

/** One answer as a buyer sends it: `attendee` is the 0-based seat among those the question applies to (0 for `order`). */
export interface AnswerInput {
  questionId: string;
  attendee?: number | undefined;
  value: string;
}

/** Why an answer is refused: the server's `params.kind` and the client's message key. */
export type AnswerProblem = 'required' | 'too_long' | 'not_one_of' | 'invalid_phone' | 'invalid_email' | 'invalid_yes_no';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The stored form of an answer, or why it is not acceptable. An empty answer is `''` (fine for an optional
 * question). Phones become 254XXXXXXXXX as everywhere in Tukio; emails are lower-cased; yes/no is `yes` or `no`.
 */
export function normaliseAnswer(question: Pick<CheckoutQuestion, 'kind' | 'options' | 'required'>, raw: unknown): { value: string } | { problem: AnswerProblem } {
  const text = typeof raw === 'string' ? raw.trim() : typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : '';
  if (text === '') return question.required ? { problem: 'required' } : { value: '' };
  if (text.length > QUESTION_LIMITS.answer) return { problem: 'too_long' };
  switch (question.kind) {
    case 'text':
      return { value: text };
    case 'choice':
      return question.options.includes(text) ? { value: text } : { problem: 'not_one_of' };
    case 'yes_no': {
      const lower = text.toLowerCase();
      if (lower === 'yes' || lower === 'true') return { value: 'yes' };
      if (lower === 'no' || lower === 'false') return { value: 'no' };
      return { problem: 'invalid_yes_no' };
    }
    case 'phone': {
      const phone = normaliseKenyanPhone(text);
      return phone ? { value: phone } : { problem: 'invalid_phone' };
    }
    case 'email':
      return EMAIL.test(text) ? { value: text.toLowerCase() } : { problem: 'invalid_email' };
  }
}

/** The seats of an order in ticket order (its types, one entry per seat), as the tickets will be issued. */
export type OrderSeats = Array<string | null>;

/** How many times a question is asked of an order with these seats (0: it does not apply). */
export function timesAsked(question: Pick<CheckoutQuestion, 'per' | 'ticketTypeId'>, seats: OrderSeats): number {
  const applies = question.ticketTypeId === null ? seats.length : seats.filter((type) => type === question.ticketTypeId).length;
  if (question.per === 'order') return applies > 0 ? 1 : 0;
  return applies;
}
