import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { orders } from '../checkout/index.js';
import { ticketTypes } from '../ticket-types/index.js';
import { tickets } from '../tickets/index.js';
import { checkoutAnswers, checkoutQuestions, type CheckoutQuestionRow } from './checkout-questions.schema.js';

export type NewQuestion = Omit<typeof checkoutQuestions.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
export interface AnswerRow {
  questionId: string;
  attendee: number;
  answer: string;
}

/** The only code that touches the checkout-questions tables. */
export function createCheckoutQuestionsRepository(db: Executor) {
  return {
    listQuestions(eventId: string): Promise<CheckoutQuestionRow[]> {
      return db.select().from(checkoutQuestions).where(eq(checkoutQuestions.eventId, eventId)).orderBy(asc(checkoutQuestions.position), asc(checkoutQuestions.id));
    },

    async findQuestion(eventId: string, questionId: string): Promise<CheckoutQuestionRow | undefined> {
      const [row] = await db
        .select()
        .from(checkoutQuestions)
        .where(and(eq(checkoutQuestions.eventId, eventId), eq(checkoutQuestions.id, questionId)));
      return row;
    },

    async insertQuestion(question: NewQuestion): Promise<CheckoutQuestionRow> {
      const [row] = await db
        .insert(checkoutQuestions)
        .values({ id: newId(), ...question })
        .returning();
      return row!;
    },

    async updateQuestion(questionId: string, patch: Partial<NewQuestion>): Promise<void> {
      await db
        .update(checkoutQuestions)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(checkoutQuestions.id, questionId));
    },

    async deleteQuestion(questionId: string): Promise<void> {
      await db.delete(checkoutQuestions).where(eq(checkoutQuestions.id, questionId));
    },

    async setPosition(questionId: string, position: number): Promise<void> {
      await db.update(checkoutQuestions).set({ position }).where(eq(checkoutQuestions.id, questionId));
    },

    /** Whether the ticket type is one of the event's (a question may be asked of one type only). */
    async typeOfEvent(eventId: string, typeId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: ticketTypes.id })
        .from(ticketTypes)
        .where(and(eq(ticketTypes.eventId, eventId), eq(ticketTypes.id, typeId)));
      return row !== undefined;
    },

    /** The event's ticket types with what picks the default one (the cheapest on sale, first listed among equals). */
    typesOfEvent(eventId: string) {
      return db
        .select({ id: ticketTypes.id, price: ticketTypes.price, salesStart: ticketTypes.salesStart, salesEnd: ticketTypes.salesEnd })
        .from(ticketTypes)
        .where(eq(ticketTypes.eventId, eventId))
        .orderBy(asc(ticketTypes.position));
    },

    async findOrder(orderId: string) {
      const [row] = await db.select({ id: orders.id, eventId: orders.eventId, userId: orders.userId, status: orders.status }).from(orders).where(eq(orders.id, orderId));
      return row;
    },

    /** The order's seats in ticket order, by type (checkout's `tukio_order_slots`). */
    async orderSeats(orderId: string): Promise<Array<string | null>> {
      const result = await db.execute(sql`select ticket_type_id from tukio_order_slots(${orderId}) order by n`);
      return (result as unknown as { rows: Array<{ ticket_type_id: string | null }> }).rows.map((row) => row.ticket_type_id);
    },

    answersOfOrder(orderId: string): Promise<AnswerRow[]> {
      return db
        .select({ questionId: checkoutAnswers.questionId, attendee: checkoutAnswers.attendee, answer: checkoutAnswers.answer })
        .from(checkoutAnswers)
        .where(eq(checkoutAnswers.orderId, orderId));
    },

    /** Replaces an order's answers with these (inside the caller's transaction). */
    async replaceAnswers(order: { orderId: string; eventId: string; userId: string }, answers: AnswerRow[]): Promise<void> {
      await db.delete(checkoutAnswers).where(eq(checkoutAnswers.orderId, order.orderId));
      const kept = answers.filter((answer) => answer.answer !== '');
      if (kept.length === 0) return;
      await db.insert(checkoutAnswers).values(kept.map((answer) => ({ id: newId(), orderId: order.orderId, eventId: order.eventId, userId: order.userId, ...answer })));
    },

    answersOfEvent(eventId: string) {
      return db
        .select({ orderId: checkoutAnswers.orderId, questionId: checkoutAnswers.questionId, attendee: checkoutAnswers.attendee, answer: checkoutAnswers.answer })
        .from(checkoutAnswers)
        .where(eq(checkoutAnswers.eventId, eventId));
    },

    /** The event's bought tickets in issue order (a transferred ticket's replacement names the one it replaced). */
    ticketsOfOrders(eventId: string, orderIds: string[]) {
      if (orderIds.length === 0) return Promise.resolve([]);
      return db
        .select({ id: tickets.id, orderId: tickets.orderId, ticketTypeId: tickets.ticketTypeId, transferredFrom: tickets.transferredFrom })
        .from(tickets)
        .where(and(eq(tickets.eventId, eventId), isNotNull(tickets.orderId), inArray(tickets.orderId, orderIds)))
        .orderBy(asc(tickets.id));
    },
  };
}
