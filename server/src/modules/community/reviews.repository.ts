import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { afterTimeKey, epochMicros } from '../../db/keyset-sql.js';
import type { CursorKey } from '../../lib/keyset-page.js';
import { users } from '../auth/index.js';
import { tickets } from '../tickets/index.js';
import { reviews } from './community.schema.js';

const reviewColumns = {
  id: reviews.id,
  eventId: reviews.eventId,
  userId: reviews.userId,
  username: users.username,
  content: reviews.content,
  rating: reviews.rating,
  createdAt: reviews.createdAt,
  updatedAt: reviews.updatedAt,
  hiddenAt: reviews.hiddenAt,
  hiddenReason: reviews.hiddenReason,
  organiserReply: reviews.organiserReply,
  organiserRepliedAt: reviews.organiserRepliedAt,
  /** The author's ticket to the event was scanned at the door (any of their tickets, transferred ones included). */
  verifiedAttendee: sql<boolean>`exists (select 1 from ${tickets} where ${tickets.eventId} = ${reviews.eventId} and ${tickets.userId} = ${reviews.userId} and ${tickets.checkedInAt} is not null)`,
};

export type ReviewRow = {
  id: string;
  eventId: string;
  userId: string;
  username: string;
  content: string;
  rating: number;
  createdAt: Date;
  updatedAt: Date;
  hiddenAt: Date | null;
  hiddenReason: string | null;
  organiserReply: string | null;
  organiserRepliedAt: Date | null;
  verifiedAttendee: boolean;
};

export function createReviewsRepository(db: Executor) {
  return {
    /** Newest first. */
    async listForEvent(eventId: string): Promise<ReviewRow[]> {
      return db
        .select(reviewColumns)
        .from(reviews)
        .innerJoin(users, eq(users.id, reviews.userId))
        .where(eq(reviews.eventId, eventId))
        .orderBy(desc(reviews.createdAt), desc(reviews.id));
    },

    /** Newest first: `limit` rows after the cursor, each with its creation time in microseconds (the next cursor). */
    async pageForEvent(eventId: string, page: { limit: number; after: CursorKey | undefined }): Promise<Array<ReviewRow & { createdMicros: string }>> {
      return db
        .select({ ...reviewColumns, createdMicros: epochMicros(reviews.createdAt) })
        .from(reviews)
        .innerJoin(users, eq(users.id, reviews.userId))
        .where(and(eq(reviews.eventId, eventId), afterTimeKey('desc', reviews.createdAt, reviews.id, page.after)))
        .orderBy(desc(reviews.createdAt), desc(reviews.id))
        .limit(page.limit);
    },

    /** How many reviews the event has, and the sum and number of the ratings that count (not hidden by a moderator). */
    async statsForEvent(eventId: string): Promise<{ total: number; ratingSum: number; rated: number }> {
      const [row] = await db
        .select({
          total: count(),
          ratingSum: sql<number>`coalesce(sum(${reviews.rating}) filter (where ${reviews.hiddenAt} is null), 0)::int`,
          rated: sql<number>`(count(*) filter (where ${reviews.hiddenAt} is null))::int`,
        })
        .from(reviews)
        .where(eq(reviews.eventId, eventId));
      return row ?? { total: 0, ratingSum: 0, rated: 0 };
    },

    async findById(id: string): Promise<ReviewRow | undefined> {
      const [row] = await db.select(reviewColumns).from(reviews).innerJoin(users, eq(users.id, reviews.userId)).where(eq(reviews.id, id)).limit(1);
      return row;
    },

    async exists(eventId: string, userId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: reviews.id })
        .from(reviews)
        .where(and(eq(reviews.eventId, eventId), eq(reviews.userId, userId)))
        .limit(1);
      return Boolean(row);
    },

    /** The unique (event, user) index is the final word on "one review per user per event". */
    async insert(values: { eventId: string; userId: string; content: string; rating: number }): Promise<string> {
      const id = newId();
      await db.insert(reviews).values({ id, ...values });
      return id;
    },

    async update(id: string, changes: { content?: string | undefined; rating?: number | undefined }): Promise<void> {
      await db
        .update(reviews)
        .set({
          ...(changes.content !== undefined ? { content: changes.content } : {}),
          ...(changes.rating !== undefined ? { rating: changes.rating } : {}),
          updatedAt: new Date(),
        })
        .where(eq(reviews.id, id));
    },

    /** The organiser's answer, once: false when there already is one. */
    async setReply(id: string, content: string): Promise<boolean> {
      const rows = await db
        .update(reviews)
        .set({ organiserReply: content, organiserRepliedAt: new Date() })
        .where(and(eq(reviews.id, id), isNull(reviews.organiserReply)))
        .returning({ id: reviews.id });
      return rows.length > 0;
    },

    async delete(id: string): Promise<void> {
      await db.delete(reviews).where(eq(reviews.id, id));
    },
  };
}
