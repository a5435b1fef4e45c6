/*
 * Checkout questions on the API server (server/src/modules/checkout-questions, docs/decisions/checkout-questions.md):
 * what an organiser asks buyers, and a buyer's answers for one order.
 */
import type { AnswerInput, CheckoutQuestion } from '@tukio/shared/checkout-questions';
import { api } from '../../../lib/api-client';

const seg = (value: string) => encodeURIComponent(value);

/** What the organiser writes for a question: the question without its id. */
export type QuestionDraft = Omit<CheckoutQuestion, '_id'>;

/** GET /api/events/:id/questions -> the questions in the order buyers answer them. */
export async function listQuestions(eventId: string, signal?: AbortSignal): Promise<CheckoutQuestion[]> {
  const { data } = await api.get<CheckoutQuestion[]>(`/events/${seg(eventId)}/questions`, { signal });
  return Array.isArray(data) ? data : [];
}

export async function createQuestion(eventId: string, draft: QuestionDraft): Promise<CheckoutQuestion> {
  const { data } = await api.post<CheckoutQuestion>(`/events/${seg(eventId)}/questions`, draft);
  return data;
}

export async function updateQuestion(eventId: string, questionId: string, draft: QuestionDraft): Promise<CheckoutQuestion> {
  const { data } = await api.put<CheckoutQuestion>(`/events/${seg(eventId)}/questions/${seg(questionId)}`, draft);
  return data;
}

export async function deleteQuestion(eventId: string, questionId: string): Promise<void> {
  await api.delete(`/events/${seg(eventId)}/questions/${seg(questionId)}`);
}

export async function reorderQuestions(eventId: string, ids: string[]): Promise<CheckoutQuestion[]> {
  const { data } = await api.post<CheckoutQuestion[]>(`/events/${seg(eventId)}/questions/reorder`, { ids });
  return data;
}

/** An order's questions (with how often each is asked of it) and its buyer's answers. */
export interface OrderAnswers {
  orderId: string;
  eventId: string;
  editable: boolean;
  questions: Array<CheckoutQuestion & { times: number }>;
  answers: Array<{ questionId: string; attendee: number; value: string }>;
}

export async function getOrderAnswers(orderId: string, signal?: AbortSignal): Promise<OrderAnswers> {
  const { data } = await api.get<OrderAnswers>(`/me/orders/${seg(orderId)}/answers`, { signal });
  return data;
}

export async function saveOrderAnswers(orderId: string, answers: AnswerInput[]): Promise<OrderAnswers> {
  const { data } = await api.put<OrderAnswers>(`/me/orders/${seg(orderId)}/answers`, { answers });
  return data;
}

/** A guest order's questions and answers, through the signed link of its SMS (`/t/<token>`). */
export async function getGuestOrderAnswers(token: string, signal?: AbortSignal): Promise<OrderAnswers> {
  const { data } = await api.get<OrderAnswers>(`/guest-tickets/${seg(token)}/answers`, { signal });
  return data;
}

export async function saveGuestOrderAnswers(token: string, answers: AnswerInput[]): Promise<OrderAnswers> {
  const { data } = await api.put<OrderAnswers>(`/guest-tickets/${seg(token)}/answers`, { answers });
  return data;
}
