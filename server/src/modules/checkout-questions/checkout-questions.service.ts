import { normaliseAnswer, QUESTION_LIMITS, timesAsked, type AnswerProblem, type CheckoutQuestion, type OrderSeats } from '@tukio/shared/checkout-questions';
import type { Database } from '../../db/database.js';
import { AppError, type ErrorCode } from '../../lib/app-error.js';
import { requireOwner } from '../../lib/auth.js';
import { hasStarted, nowAsWallClock } from '../../lib/event-clock.js';
import type { AuthUser } from '../auth/index.js';
import { canSeeEvent, findEvent } from '../events/index.js';
import { createCheckoutQuestionsRepository, type AnswerRow } from './checkout-questions.repository.js';
import type { CheckoutQuestionRow } from './checkout-questions.schema.js';
import type { QuestionInput } from './checkout-questions.schemas.js';

/** An answer as the buyer sends it, shape-checked by the route (or raw from the stkPush body). */
interface RawAnswer {
  questionId?: unknown;
  attendee?: unknown;
  value?: unknown;
}

const PROBLEMS: Record<AnswerProblem, { code: ErrorCode; message: (label: string) => string }> = {
  required: { code: 'answer_required', message: (label) => `Please answer “${label}”.` },
  not_one_of: { code: 'answer_not_an_option', message: (label) => `Choose one of the options for “${label}”.` },
  invalid_phone: { code: 'answer_invalid_phone', message: (label) => `“${label}” needs a Kenyan phone number, e.g. 0712 345 678.` },
  invalid_email: { code: 'answer_invalid_email', message: (label) => `“${label}” needs a valid email address.` },
  invalid_yes_no: { code: 'answer_invalid_yes_no', message: (label) => `Answer “${label}” with yes or no.` },
  too_long: { code: 'answer_too_long', message: (label) => `The answer to “${label}” is too long.` },
};

export const questionView = (row: CheckoutQuestionRow): CheckoutQuestion => ({
  _id: row.id,
  label: row.label,
  kind: row.kind,
  options: row.options,
  required: row.required,
  per: row.per,
  ticketTypeId: row.ticketTypeId,
});

const answerRefused = (question: CheckoutQuestion, attendee: number, problem: AnswerProblem) =>
  AppError.badRequest(PROBLEMS[problem].code, PROBLEMS[problem].message(question.label), { field: `answers.${question._id}.${attendee}`, params: { question: question.label } });

/**
 * Checks a buyer's answers against the event's questions for an order with these seats: every answer names a
 * question the order is asked and a seat it has, each answer is of its question's kind, and every required
 * question is answered for every seat it is asked of. The stored rows, or a 400 that names the question.
 */
export function checkAnswers(questions: CheckoutQuestion[], seats: OrderSeats, given: RawAnswer[]): AnswerRow[] {
  const byId = new Map(questions.map((question) => [question._id, question]));
  const values = new Map<string, string>();
  for (const raw of given) {
    const question = typeof raw.questionId === 'string' ? byId.get(raw.questionId) : undefined;
    const asked = question ? timesAsked(question, seats) : 0;
    if (!question || asked === 0) throw AppError.badRequest('answer_unknown_question', 'One of the answers is for a question this event does not ask. Reload the page and try again.', 'answers');
    const attendee = raw.attendee === undefined || raw.attendee === null ? 0 : raw.attendee;
    if (typeof attendee !== 'number' || !Number.isInteger(attendee) || attendee < 0 || attendee >= asked) {
      throw AppError.badRequest('answer_wrong_attendee', `“${question.label}” was answered for a ticket this order does not have. Reload the page and try again.`, { field: 'answers', params: { question: question.label } });
    }
    const checked = normaliseAnswer({ ...question, required: false }, raw.value);
    if ('problem' in checked) throw answerRefused(question, attendee, checked.problem);
    values.set(`${question._id}:${attendee}`, checked.value);
  }
  const rows: AnswerRow[] = [];
  for (const question of questions) {
    for (let attendee = 0; attendee < timesAsked(question, seats); attendee += 1) {
      const answer = values.get(`${question._id}:${attendee}`) ?? '';
      if (answer === '' && question.required) throw answerRefused(question, attendee, 'required');
      if (answer !== '') rows.push({ questionId: question._id, attendee, answer });
    }
  }
  return rows;
}

/** Answers to keep once the order is held (opaque to checkout). */
export interface CheckedAnswers {
  rows: AnswerRow[];
}

export function createCheckoutQuestionsService(deps: { db: Database }) {
  const { db } = deps;
  const repo = () => createCheckoutQuestionsRepository(db);

  async function visibleEvent(eventId: string, user: AuthUser | undefined) {
    const event = await findEvent(db, eventId);
    if (!event || !canSeeEvent(event, user)) throw AppError.notFound('event_not_found', 'Event not found.');
    return event;
  }

  async function ownEvent(eventId: string, user: AuthUser) {
    const event = await visibleEvent(eventId, user);
    requireOwner(user, event.userId, { code: 'questions_not_organiser', message: "Only the organiser can manage this event's checkout questions." });
    return event;
  }

  async function questionsOf(eventId: string) {
    return (await repo().listQuestions(eventId)).map(questionView);
  }

  async function checkInput(eventId: string, input: QuestionInput) {
    if (input.ticketTypeId !== null && !(await repo().typeOfEvent(eventId, input.ticketTypeId))) {
      throw AppError.badRequest('question_invalid', 'This question is not valid: the ticket type is not one of this event’s.', { field: 'ticketTypeId', params: { reason: 'ticketTypeId' } });
    }
    return { label: input.label, kind: input.kind, options: input.kind === 'choice' ? input.options : [], required: input.required, per: input.per, ticketTypeId: input.ticketTypeId };
  }

  /** The seats an order asks for, before it is held: the items, or `quantity` of the default type. */
  async function requestedSeats(request: { eventId: string; quantity: number; items?: Array<{ typeId: string; quantity: number }> | undefined }): Promise<OrderSeats> {
    if (request.items && request.items.length > 0) return request.items.flatMap((item) => Array.from({ length: item.quantity }, () => item.typeId));
    const wallNow = nowAsWallClock();
    const onSale = (await repo().typesOfEvent(request.eventId)).filter((type) => (type.salesStart === null || type.salesStart <= wallNow) && (type.salesEnd === null || type.salesEnd > wallNow));
    const cheapest = onSale.reduce<(typeof onSale)[number] | undefined>((best, type) => (!best || type.price < best.price ? type : best), undefined);
    return Array.from({ length: request.quantity }, () => cheapest?.id ?? null);
  }

  /** The order a buyer asks about: theirs (403 for anyone else, an administrator included: answers are the buyer's). */
  async function buyersOrder(user: AuthUser, orderId: string) {
    const order = await repo().findOrder(orderId);
    if (!order) throw AppError.notFound('order_not_found_for_answers', 'No such order.');
    if (order.userId !== user.id) throw AppError.forbidden('answers_not_buyer', 'Only the person who bought these tickets can change their answers.');
    const event = await findEvent(db, order.eventId);
    if (!event) throw AppError.notFound('order_not_found_for_answers', 'No such order.');
    return { order, event };
  }

  /** The order a guest's link opens (the link was checked by the caller): 404 for a forged or claimed one. */
  async function guestsOrder(orderId: string | undefined) {
    const order = orderId ? await repo().findOrder(orderId) : undefined;
    const event = order ? await findEvent(db, order.eventId) : undefined;
    if (!order || !event) throw AppError.notFound('guest_tickets_not_found', 'These tickets were not found. If you have since signed in, they are under My Tickets.');
    return { order, event };
  }

  type FoundOrder = Awaited<ReturnType<typeof buyersOrder>>;

  /** The order's questions and answers, and whether they may still change (until the event starts, unless cancelled). */
  async function answersView(order: FoundOrder['order'], event: FoundOrder['event']) {
    const orderId = order.id;
    const [questions, seats, answers] = await Promise.all([questionsOf(order.eventId), repo().orderSeats(orderId), repo().answersOfOrder(orderId)]);
    const asked = questions.map((question) => ({ ...question, times: timesAsked(question, seats) })).filter((question) => question.times > 0);
    return {
      orderId,
      eventId: order.eventId,
      editable: !hasStarted(event.startsAt) && event.status !== 'cancelled',
      questions: asked,
      answers: answers.map((answer) => ({ questionId: answer.questionId, attendee: answer.attendee, value: answer.answer })),
    };
  }

  /** Replaces the order's answers under the checkout's rules; refused (409) once the event has started. */
  async function replaceAnswers(order: FoundOrder['order'], event: FoundOrder['event'], given: RawAnswer[]) {
    if (hasStarted(event.startsAt) || event.status === 'cancelled') throw AppError.conflict('answers_locked', 'The event has started: these answers can no longer change.');
    const rows = checkAnswers(await questionsOf(order.eventId), await repo().orderSeats(order.id), given);
    await db.transaction((tx) => createCheckoutQuestionsRepository(tx).replaceAnswers({ orderId: order.id, eventId: order.eventId, userId: order.userId }, rows));
    return answersView(order, event);
  }

  const service = {
    /** The event's questions as buyers see them (any visitor of a visible event). */
    async list(eventId: string, user: AuthUser | undefined) {
      await visibleEvent(eventId, user);
      return questionsOf(eventId);
    },

    async create(eventId: string, user: AuthUser, input: QuestionInput) {
      await ownEvent(eventId, user);
      const existing = await repo().listQuestions(eventId);
      if (existing.length >= QUESTION_LIMITS.questionsPerEvent) {
        throw AppError.badRequest('question_invalid', `This question is not valid: an event asks at most ${QUESTION_LIMITS.questionsPerEvent} questions.`, { params: { reason: 'too_many' } });
      }
      const row = await repo().insertQuestion({ eventId, ...(await checkInput(eventId, input)), position: (existing.at(-1)?.position ?? -1) + 1 });
      return questionView(row);
    },

    async update(eventId: string, questionId: string, user: AuthUser, input: QuestionInput) {
      await ownEvent(eventId, user);
      if (!(await repo().findQuestion(eventId, questionId))) throw AppError.notFound('question_not_found', 'This event has no such question.');
      await repo().updateQuestion(questionId, await checkInput(eventId, input));
      return questionView((await repo().findQuestion(eventId, questionId))!);
    },

    /** Deleting a question deletes its answers too (the organiser confirms it first). */
    async remove(eventId: string, questionId: string, user: AuthUser) {
      await ownEvent(eventId, user);
      if (!(await repo().findQuestion(eventId, questionId))) throw AppError.notFound('question_not_found', 'This event has no such question.');
      await repo().deleteQuestion(questionId);
      return { message: 'Question deleted.' };
    },

    /** The questions in a new order: `ids` names every question of the event once. */
    async reorder(eventId: string, user: AuthUser, ids: string[]) {
      await ownEvent(eventId, user);
      const current = await repo().listQuestions(eventId);
      const known = new Set(current.map((question) => question.id));
      if (ids.length !== current.length || new Set(ids).size !== ids.length || ids.some((id) => !known.has(id))) {
        throw AppError.badRequest('question_invalid', 'This question is not valid: name every question of the event once, in the new order.', { field: 'ids', params: { reason: 'ids' } });
      }
      await db.transaction(async (tx) => {
        const txRepo = createCheckoutQuestionsRepository(tx);
        for (const [position, id] of ids.entries()) await txRepo.setPosition(id, position);
      });
      return questionsOf(eventId);
    },

    /**
     * Checkout's port (docs/decisions/checkout-questions.md): the answers of a purchase, checked before anything
     * is held. `answers` undefined is a client that knows nothing of questions (the original /api/stkPush): not
     * checked, nothing kept; the buyer can answer later from their tickets.
     */
    async check(request: { eventId: string; quantity: number; items?: Array<{ typeId: string; quantity: number }> | undefined }, answers: unknown): Promise<CheckedAnswers | undefined> {
      if (answers === undefined) return undefined;
      if (!Array.isArray(answers) || answers.some((answer) => typeof answer !== 'object' || answer === null)) {
        throw AppError.badRequest('validation_failed', 'answers must be a list of {questionId, attendee, value}.', { field: 'answers', params: { field: 'answers', kind: 'invalid' } });
      }
      const questions = await questionsOf(request.eventId);
      if (questions.length === 0 && answers.length === 0) return undefined;
      return { rows: checkAnswers(questions, await requestedSeats(request), answers as RawAnswer[]) };
    },

    /** Keeps the checked answers on the order just held. */
    async keep(orderId: string, checked: CheckedAnswers | undefined) {
      if (!checked || checked.rows.length === 0) return;
      const order = await repo().findOrder(orderId);
      if (!order) return;
      await repo().replaceAnswers({ orderId, eventId: order.eventId, userId: order.userId }, checked.rows);
    },

    /** A buyer's order with its questions and answers, and whether they may still change them. */
    async orderAnswers(user: AuthUser, orderId: string) {
      const { order, event } = await buyersOrder(user, orderId);
      return answersView(order, event);
    },

    /** Replaces a buyer's answers; refused (409) once the event has started. */
    async replaceOrderAnswers(user: AuthUser, orderId: string, given: RawAnswer[]) {
      const { order, event } = await buyersOrder(user, orderId);
      return replaceAnswers(order, event, given);
    },

    /**
     * A guest buyer's order, reached through the signed link their SMS carries (`orderOfGuestLink` says which order
     * it opens, undefined once forged or claimed by an account): the same view and the same rules as a member's.
     */
    async guestOrderAnswers(orderId: string | undefined) {
      const { order, event } = await guestsOrder(orderId);
      return answersView(order, event);
    },

    async replaceGuestOrderAnswers(orderId: string | undefined, given: RawAnswer[]) {
      const { order, event } = await guestsOrder(orderId);
      return replaceAnswers(order, event, given);
    },

    /**
     * The tickets module's port: each bought ticket's answers (per-order answers on every ticket of the order;
     * per-attendee ones on the ticket of that seat, a transferred ticket keeping its seat's), with the questions.
     */
    async ticketAnswers(eventId: string) {
      const questions = await questionsOf(eventId);
      const byTicket = new Map<string, Array<{ questionId: string; label: string; answer: string }>>();
      if (questions.length === 0) return { questions: [], byTicket };
      const answers = await repo().answersOfEvent(eventId);
      const orderIds = [...new Set(answers.map((answer) => answer.orderId))];
      const found = await repo().ticketsOfOrders(eventId, orderIds);
      const value = new Map(answers.map((answer) => [`${answer.orderId}:${answer.questionId}:${answer.attendee}`, answer.answer]));
      // Each original ticket's seat: its place among its order's tickets, and among those of its type.
      const seatOf = new Map<string, { seat: number; typeSeat: number }>();
      const counts = new Map<string, number>();
      for (const ticket of found.filter((row) => row.transferredFrom === null)) {
        const seat = counts.get(ticket.orderId!) ?? 0;
        const typeKey = `${ticket.orderId}:${ticket.ticketTypeId}`;
        const typeSeat = counts.get(typeKey) ?? 0;
        counts.set(ticket.orderId!, seat + 1);
        counts.set(typeKey, typeSeat + 1);
        seatOf.set(ticket.id, { seat, typeSeat });
      }
      const replaced = new Map(found.map((ticket) => [ticket.id, ticket.transferredFrom]));
      const originOf = (ticketId: string) => {
        let current = ticketId;
        for (let hops = 0; hops < 100 && replaced.get(current); hops += 1) current = replaced.get(current)!;
        return current;
      };
      for (const ticket of found) {
        const seat = seatOf.get(originOf(ticket.id));
        if (!seat) continue;
        const list: Array<{ questionId: string; label: string; answer: string }> = [];
        for (const question of questions) {
          if (question.ticketTypeId !== null && question.ticketTypeId !== ticket.ticketTypeId) continue;
          const attendee = question.per === 'order' ? 0 : question.ticketTypeId === null ? seat.seat : seat.typeSeat;
          const answer = value.get(`${ticket.orderId}:${question._id}:${attendee}`);
          // An answer emptied by retention is no answer.
          if (answer) list.push({ questionId: question._id, label: question.label, answer });
        }
        if (list.length > 0) byTicket.set(ticket.id, list);
      }
      return { questions: questions.map((question) => ({ _id: question._id, label: question.label })), byTicket };
    },
  };
  return service;
}

export type CheckoutQuestionsService = ReturnType<typeof createCheckoutQuestionsService>;
