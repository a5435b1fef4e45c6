import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, id } from '../../db/columns.js';
import { users } from '../auth/auth.schema.js';

/** The webhooks module's tables: only its repository writes them (docs/decisions/webhooks.md). */
export const WEBHOOK_EVENT_TYPES = ['order.paid', 'ticket.cancelled', 'ticket.transferred', 'refund.succeeded', 'ticket.checked_in', 'payout.paid'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** An organiser's receiving address and the facts it wants; removed endpoints keep their log (`removed_at`). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: id().primaryKey(),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    /** `whsec_` + base64 of 32 random bytes: the HMAC key, needed in clear to sign each delivery. */
    secret: text('secret').notNull(),
    createdAt: createdAt(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (table) => [index('webhook_endpoints_user_idx').on(table.userId)],
);

/**
 * One fact for one endpoint, written in the transaction of the fact (a rolled-back fact sends nothing) and
 * sent by the sender job: `next_attempt_at` is when it is due (a claim leases it forward while it is sent).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id().primaryKey(),
    endpointId: id('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    userId: id('user_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    /** Attempts in the current round (a "send again" starts a new round). */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index('webhook_deliveries_due_idx').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
    index('webhook_deliveries_user_idx').on(table.userId, table.createdAt),
  ],
);

/** Every HTTP attempt of a delivery, for the log. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: id().primaryKey(),
    deliveryId: id('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
  },
  (table) => [index('webhook_attempts_delivery_idx').on(table.deliveryId)],
);
