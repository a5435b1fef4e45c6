import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt } from '../../db/columns.js';
import { users } from '../auth/auth.schema.js';

/**
 * The moderation module's tables: only its repositories write them (docs/decisions/server-boundaries.md, "Tables").
 */
const REPORT_KINDS = ['comment', 'review', 'thread', 'post', 'message', 'user'] as const;
const REPORT_REASONS = ['spam', 'harassment', 'hate', 'scam', 'other'] as const;
const MODERATION_ACTIONS = ['dismiss', 'hide', 'unhide', 'delete', 'warn', 'suspend', 'ban', 'lift'] as const;

/**
 * A user's report of something another user wrote (or of the user). One per reporter and item; it stays
 * `open` until an administrator acts on the item, then records the outcome (the reporter is emailed it).
 * `target_user_id` is the item's author when reported, so the queue and suspensions need no lookup.
 */
export const reports = pgTable(
  'reports',
  {
    id: id().primaryKey(),
    reporterId: id('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    targetKind: text('target_kind', { enum: REPORT_KINDS }).notNull(),
    targetId: id('target_id').notNull(),
    targetUserId: id('target_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason', { enum: REPORT_REASONS }).notNull(),
    details: text('details').notNull().default(''),
    status: text('status', { enum: ['open', 'resolved'] }).notNull().default('open'),
    outcome: text('outcome', { enum: MODERATION_ACTIONS }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('reports_reporter_target_idx').on(t.reporterId, t.targetKind, t.targetId),
    index('reports_open_idx').on(t.status, t.targetKind, t.targetId),
    check('reports_kind_valid', sql`${t.targetKind} in ('comment', 'review', 'thread', 'post', 'message', 'user')`),
    check('reports_reason_valid', sql`${t.reason} in ('spam', 'harassment', 'hate', 'scam', 'other')`),
  ],
);

/** Every moderator action, append-only: who, when, on what, why. Admins read it on /admin. */
export const moderationActions = pgTable(
  'moderation_actions',
  {
    id: id().primaryKey(),
    adminId: id('admin_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    targetKind: text('target_kind', { enum: REPORT_KINDS }).notNull(),
    targetId: id('target_id').notNull(),
    /** The account the action concerned (the item's author); kept when the item itself is deleted. */
    targetUserId: id('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action', { enum: MODERATION_ACTIONS }).notNull(),
    reason: text('reason').notNull(),
    /** Suspensions: how many days. */
    days: integer('days'),
    /** What the item said when acted on (a deleted item's words stay in the log for the record). */
    excerpt: text('excerpt').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('moderation_actions_created_idx').on(t.createdAt), index('moderation_actions_target_user_idx').on(t.targetUserId)],
);
