import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, boolean, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt } from '../../db/columns.js';
import { users } from '../auth/auth.schema.js';
import { events } from '../events/events.schema.js';
import { orders } from '../checkout/payments.schema.js';
import { ticketTypes } from '../ticket-types/ticket-types.schema.js';

/**
 * The checkout-questions module's tables: only its repository writes them (docs/decisions/server-boundaries.md,
 * "Tables"; docs/decisions/checkout-questions.md).
 */

/** What an organiser asks buyers at checkout, in the order buyers see it. */
export const checkoutQuestions = pgTable(
  'checkout_questions',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    /** Null: asked of every ticket type; else only of orders (or tickets) of this type. */
    ticketTypeId: id('ticket_type_id').references(() => ticketTypes.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    kind: text('kind', { enum: ['text', 'choice', 'yes_no', 'phone', 'email'] }).notNull(),
    /** A choice question's options, in order; [] for the other kinds. */
    options: jsonb('options').$type<string[]>().notNull().default([]),
    required: boolean('required').notNull().default(false),
    /** Asked once per order, or once per ticket ("names on tickets"). */
    per: text('per', { enum: ['order', 'attendee'] }).notNull().default('order'),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('checkout_questions_event_idx').on(t.eventId, t.position),
    check('checkout_questions_kind_valid', sql`${t.kind} in ('text', 'choice', 'yes_no', 'phone', 'email')`),
    check('checkout_questions_per_valid', sql`${t.per} in ('order', 'attendee')`),
  ],
);

/**
 * A buyer's answers: one row per question and seat (`attendee`: the 0-based seat among those the question applies
 * to, in ticket order; 0 for a question asked once per order). Personal data of the buyer (`user_id`, a guest's
 * shadow account on the guest path): exported, erased with the account and at the event's retention.
 */
export const checkoutAnswers = pgTable(
  'checkout_answers',
  {
    id: id().primaryKey(),
    orderId: id('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    questionId: id('question_id')
      .notNull()
      .references(() => checkoutQuestions.id, { onDelete: 'cascade' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    attendee: integer('attendee').notNull().default(0),
    /** The answer in its stored form (phones 254…, emails lower-case, yes/no as `yes`/`no`). */
    answer: text('answer').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('checkout_answers_seat_idx').on(t.orderId, t.questionId, t.attendee),
    index('checkout_answers_event_idx').on(t.eventId),
    index('checkout_answers_user_idx').on(t.userId),
    check('checkout_answers_attendee_valid', sql`${t.attendee} >= 0`),
  ],
);

export type CheckoutQuestionRow = typeof checkoutQuestions.$inferSelect;
export type CheckoutAnswerRow = typeof checkoutAnswers.$inferSelect;
