import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { users } from '../auth/index.js';
import { events } from '../events/index.js';
import { comments, forumPosts, forumThreads, reviews } from './community.schema.js';

export type ContentKind = 'comment' | 'review' | 'thread' | 'post';

/** One piece of community content as moderation sees it: the words, their author, and where they stand. */
export interface ContentRow {
  kind: ContentKind;
  id: string;
  userId: string;
  username: string;
  text: string;
  eventId: string;
  eventTitle: string;
  threadId: string | null;
  threadTitle: string | null;
  hiddenAt: Date | null;
  hiddenReason: string | null;
  deleted: boolean;
  createdAt: Date;
}

const hiddenSet = (hidden: { by: string; reason: string } | null) =>
  hidden ? { hiddenAt: new Date(), hiddenReason: hidden.reason, hiddenBy: hidden.by } : { hiddenAt: null, hiddenReason: null, hiddenBy: null };

/** Reads and moderation writes across comments, reviews and forums (the moderation module reaches them only through here). */
export function createContentModerationRepository(db: Executor) {
  return {
    async find(kind: ContentKind, id: string): Promise<ContentRow | undefined> {
      switch (kind) {
        case 'comment':
        case 'review': {
          const table = kind === 'comment' ? comments : reviews;
          const [row] = await db
            .select({
              id: table.id,
              userId: table.userId,
              username: users.username,
              text: table.content,
              eventId: table.eventId,
              eventTitle: events.title,
              hiddenAt: table.hiddenAt,
              hiddenReason: table.hiddenReason,
              createdAt: table.createdAt,
            })
            .from(table)
            .innerJoin(users, eq(users.id, table.userId))
            .innerJoin(events, eq(events.id, table.eventId))
            .where(eq(table.id, id))
            .limit(1);
          return row && { ...row, kind, threadId: null, threadTitle: null, deleted: false };
        }
        case 'thread': {
          const [row] = await db
            .select({
              id: forumThreads.id,
              userId: forumThreads.userId,
              username: users.username,
              text: forumThreads.title,
              eventId: forumThreads.eventId,
              eventTitle: events.title,
              hiddenAt: forumThreads.hiddenAt,
              hiddenReason: forumThreads.hiddenReason,
              createdAt: forumThreads.createdAt,
            })
            .from(forumThreads)
            .innerJoin(users, eq(users.id, forumThreads.userId))
            .innerJoin(events, eq(events.id, forumThreads.eventId))
            .where(eq(forumThreads.id, id))
            .limit(1);
          return row && { ...row, kind, threadId: row.id, threadTitle: row.text, deleted: false };
        }
        case 'post': {
          const [row] = await db
            .select({
              id: forumPosts.id,
              userId: forumPosts.userId,
              username: users.username,
              text: forumPosts.content,
              eventId: forumThreads.eventId,
              eventTitle: events.title,
              threadId: forumThreads.id,
              threadTitle: forumThreads.title,
              hiddenAt: forumPosts.hiddenAt,
              hiddenReason: forumPosts.hiddenReason,
              deletedAt: forumPosts.deletedAt,
              createdAt: forumPosts.createdAt,
            })
            .from(forumPosts)
            .innerJoin(users, eq(users.id, forumPosts.userId))
            .innerJoin(forumThreads, eq(forumThreads.id, forumPosts.threadId))
            .innerJoin(events, eq(events.id, forumThreads.eventId))
            .where(eq(forumPosts.id, id))
            .limit(1);
          if (!row) return undefined;
          const { deletedAt, ...rest } = row;
          return { ...rest, kind, deleted: deletedAt !== null };
        }
      }
    },

    /** The first posts of a thread, oldest first, for the moderation queue's context. */
    async threadPosts(threadId: string, limit: number) {
      return db
        .select({
          id: forumPosts.id,
          parentId: forumPosts.parentId,
          userId: forumPosts.userId,
          username: users.username,
          content: forumPosts.content,
          hiddenAt: forumPosts.hiddenAt,
          deletedAt: forumPosts.deletedAt,
          createdAt: forumPosts.createdAt,
        })
        .from(forumPosts)
        .innerJoin(users, eq(users.id, forumPosts.userId))
        .where(eq(forumPosts.threadId, threadId))
        .orderBy(asc(forumPosts.createdAt), asc(forumPosts.id))
        .limit(limit);
    },

    /** Hides (with the moderator and reason) or shows again; true when the row exists. */
    async setHidden(kind: ContentKind, id: string, hidden: { by: string; reason: string } | null): Promise<boolean> {
      const values = hiddenSet(hidden);
      const rows =
        kind === 'comment'
          ? await db.update(comments).set(values).where(eq(comments.id, id)).returning({ id: comments.id })
          : kind === 'review'
            ? await db.update(reviews).set(values).where(eq(reviews.id, id)).returning({ id: reviews.id })
            : kind === 'thread'
              ? await db.update(forumThreads).set(values).where(eq(forumThreads.id, id)).returning({ id: forumThreads.id })
              : await db.update(forumPosts).set(values).where(eq(forumPosts.id, id)).returning({ id: forumPosts.id });
      return rows.length > 0;
    },

    /** A ban or suspension "with content hidden": everything the account wrote that is still shown. */
    async hideAllBy(userId: string, hidden: { by: string; reason: string }): Promise<number> {
      const values = hiddenSet(hidden);
      const counts = await Promise.all([
        db.update(comments).set(values).where(and(eq(comments.userId, userId), isNull(comments.hiddenAt))).returning({ id: comments.id }),
        db.update(reviews).set(values).where(and(eq(reviews.userId, userId), isNull(reviews.hiddenAt))).returning({ id: reviews.id }),
        db.update(forumThreads).set(values).where(and(eq(forumThreads.userId, userId), isNull(forumThreads.hiddenAt))).returning({ id: forumThreads.id }),
        db.update(forumPosts).set(values).where(and(eq(forumPosts.userId, userId), isNull(forumPosts.hiddenAt))).returning({ id: forumPosts.id }),
      ]);
      return counts.reduce((sum, rows) => sum + rows.length, 0);
    },

    /** A thread goes with its posts (they cascade). */
    async deleteThread(id: string): Promise<void> {
      await db.delete(forumThreads).where(eq(forumThreads.id, id));
    },
  };
}
