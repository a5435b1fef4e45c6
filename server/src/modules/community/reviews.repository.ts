import { and, desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { reviews, users } from '../../db/schema.js';

const reviewColumns = {
  id: reviews.id,
  eventId: reviews.eventId,
  userId: reviews.userId,
  username: users.username,
  content: reviews.content,
  rating: reviews.rating,
  createdAt: reviews.createdAt,
  updatedAt: reviews.updatedAt,
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

    async delete(id: string): Promise<void> {
      await db.delete(reviews).where(eq(reviews.id, id));
    },
  };
}
