import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt } from '../../db/columns.js';
import { users } from '../auth/auth.schema.js';
import { events } from '../events/events.schema.js';

/**
 * The community module's tables: only its repositories write them (docs/decisions/server-boundaries.md, "Tables").
 */
export const comments = pgTable(
  'comments',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    /** Hidden by a moderator (docs/decisions/moderation.md): others see a placeholder, the author the text and the reason. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenReason: text('hidden_reason'),
    hiddenBy: id('hidden_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('comments_event_idx').on(t.eventId, t.createdAt, t.id)],
);

export const reviews = pgTable(
  'reviews',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    rating: integer('rating').notNull(),
    /** The organiser's one public answer to the review (docs/decisions/moderation.md); set once, never edited. */
    organiserReply: text('organiser_reply'),
    organiserRepliedAt: timestamp('organiser_replied_at', { withTimezone: true }),
    /** Hidden by a moderator (docs/decisions/moderation.md): others see a placeholder, the author the text and the reason. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenReason: text('hidden_reason'),
    hiddenBy: id('hidden_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('reviews_event_user_idx').on(t.eventId, t.userId), index('reviews_event_created_idx').on(t.eventId, t.createdAt, t.id)],
);

export const forumThreads = pgTable(
  'forum_threads',
  {
    id: id().primaryKey(),
    eventId: id('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** Hidden by a moderator (docs/decisions/moderation.md): others see a placeholder, the author the text and the reason. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenReason: text('hidden_reason'),
    hiddenBy: id('hidden_by'),
    createdAt: createdAt(),
  },
  (t) => [index('forum_threads_event_idx').on(t.eventId, t.createdAt, t.id)],
);

export const forumPosts = pgTable(
  'forum_posts',
  {
    id: id().primaryKey(),
    threadId: id('thread_id')
      .notNull()
      .references(() => forumThreads.id, { onDelete: 'cascade' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    parentId: id('parent_id'),
    content: text('content').notNull(),
    /** Net score (up minus down), kept in step with post_votes inside one transaction. */
    upvotes: integer('upvotes').notNull().default(0),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Hidden by a moderator (docs/decisions/moderation.md): others see a placeholder, the author the text and the reason. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenReason: text('hidden_reason'),
    hiddenBy: id('hidden_by'),
    createdAt: createdAt(),
  },
  (t) => [
    index('forum_posts_thread_idx').on(t.threadId, t.createdAt),
    // A post's replies are read a page at a time, newest first (forums.repository.ts `replyPage`).
    index('forum_posts_parent_idx').on(t.parentId, t.createdAt, t.id),
    index('forum_posts_thread_top_idx').on(t.threadId, t.createdAt, t.id).where(sql`${t.parentId} is null`),
  ],
);

export const postVotes = pgTable(
  'post_votes',
  {
    postId: id('post_id')
      .notNull()
      .references(() => forumPosts.id, { onDelete: 'cascade' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    value: integer('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId] })],
);
