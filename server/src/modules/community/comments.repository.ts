import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { afterTimeKey, epochMicros } from '../../db/keyset-sql.js';
import type { CursorKey } from '../../lib/keyset-page.js';
import { users } from '../auth/index.js';
import { comments } from './community.schema.js';

const commentColumns = {
  id: comments.id,
  eventId: comments.eventId,
  userId: comments.userId,
  username: users.username,
  content: comments.content,
  createdAt: comments.createdAt,
  updatedAt: comments.updatedAt,
  hiddenAt: comments.hiddenAt,
  hiddenReason: comments.hiddenReason,
};

export type CommentRow = {
  id: string;
  eventId: string;
  userId: string;
  username: string;
  content: string;
  createdAt: Date;
  updatedAt: Date;
  hiddenAt: Date | null;
  hiddenReason: string | null;
};

export function createCommentsRepository(db: Executor) {
  return {
    /** Oldest first, the order a conversation is read in. */
    async listForEvent(eventId: string): Promise<CommentRow[]> {
      return db
        .select(commentColumns)
        .from(comments)
        .innerJoin(users, eq(users.id, comments.userId))
        .where(eq(comments.eventId, eventId))
        .orderBy(asc(comments.createdAt), asc(comments.id));
    },

    /** Newest first: `limit` rows after the cursor, each with its creation time in microseconds (the next cursor). */
    async pageForEvent(eventId: string, page: { limit: number; after: CursorKey | undefined }): Promise<Array<CommentRow & { createdMicros: string }>> {
      return db
        .select({ ...commentColumns, createdMicros: epochMicros(comments.createdAt) })
        .from(comments)
        .innerJoin(users, eq(users.id, comments.userId))
        .where(and(eq(comments.eventId, eventId), afterTimeKey('desc', comments.createdAt, comments.id, page.after)))
        .orderBy(desc(comments.createdAt), desc(comments.id))
        .limit(page.limit);
    },

    async countForEvent(eventId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(comments).where(eq(comments.eventId, eventId));
      return row?.n ?? 0;
    },

    async findById(id: string): Promise<CommentRow | undefined> {
      const [row] = await db
        .select(commentColumns)
        .from(comments)
        .innerJoin(users, eq(users.id, comments.userId))
        .where(eq(comments.id, id))
        .limit(1);
      return row;
    },

    async insert(values: { eventId: string; userId: string; content: string }): Promise<string> {
      const id = newId();
      await db.insert(comments).values({ id, ...values });
      return id;
    },

    async updateContent(id: string, content: string): Promise<void> {
      await db.update(comments).set({ content, updatedAt: new Date() }).where(eq(comments.id, id));
    },

    async delete(id: string): Promise<void> {
      await db.delete(comments).where(eq(comments.id, id));
    },
  };
}
