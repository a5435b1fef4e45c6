import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { afterTimeKey, epochMicros } from '../../db/keyset-sql.js';
import type { CursorKey } from '../../lib/keyset-page.js';
import { forumPosts, forumThreads, postVotes, users } from '../../db/schema.js';

export type ThreadRow = {
  id: string;
  eventId: string;
  title: string;
  userId: string;
  username: string;
  createdAt: Date;
  hiddenAt: Date | null;
  hiddenReason: string | null;
};

export type PostRow = {
  id: string;
  threadId: string;
  parentId: string | null;
  userId: string;
  username: string;
  content: string;
  upvotes: number;
  deletedAt: Date | null;
  createdAt: Date;
  /** The viewer's vote: 1, -1, or 0 when none. */
  myVote: number;
  hiddenAt: Date | null;
  hiddenReason: string | null;
};

/** The bare post row, read under a row lock. */
export type LockedPost = typeof forumPosts.$inferSelect;

const threadColumns = {
  id: forumThreads.id,
  eventId: forumThreads.eventId,
  title: forumThreads.title,
  userId: forumThreads.userId,
  username: users.username,
  createdAt: forumThreads.createdAt,
  hiddenAt: forumThreads.hiddenAt,
  hiddenReason: forumThreads.hiddenReason,
};

/** Ids of a thread's visible posts (soft-deleted placeholders are not counted as replies). */
const visiblePostIds = sql<string[]>`coalesce((select array_agg(fp.id order by fp.created_at, fp.id)::text[] from forum_posts fp where fp.thread_id = ${forumThreads.id} and fp.deleted_at is null), '{}'::text[])`;
const visiblePostCount = sql<number>`(select count(*)::int from forum_posts fp where fp.thread_id = ${forumThreads.id} and fp.deleted_at is null)`;

const postColumns = {
  id: forumPosts.id,
  threadId: forumPosts.threadId,
  parentId: forumPosts.parentId,
  userId: forumPosts.userId,
  username: users.username,
  content: forumPosts.content,
  upvotes: forumPosts.upvotes,
  deletedAt: forumPosts.deletedAt,
  createdAt: forumPosts.createdAt,
  myVote: sql<number>`coalesce(${postVotes.value}, 0)`,
  hiddenAt: forumPosts.hiddenAt,
  hiddenReason: forumPosts.hiddenReason,
};

const viewerVote = (viewerId: string) => and(eq(postVotes.postId, forumPosts.id), eq(postVotes.userId, viewerId));

/** Safety stop for the ancestor walk; real chains are far shorter (see MAX_POST_DEPTH). */
const ANCESTOR_WALK_LIMIT = 10_000;

export function createForumsRepository(db: Executor) {
  return {
    /** Newest first, each with the ids of its visible posts. */
    async threadsForEvent(eventId: string): Promise<Array<ThreadRow & { postIds: string[] }>> {
      return db
        .select({ ...threadColumns, postIds: visiblePostIds })
        .from(forumThreads)
        .innerJoin(users, eq(users.id, forumThreads.userId))
        .where(eq(forumThreads.eventId, eventId))
        .orderBy(desc(forumThreads.createdAt), desc(forumThreads.id));
    },

    /** Newest first: `limit` threads after the cursor with their reply counts and creation times in microseconds. */
    async threadPage(eventId: string, page: { limit: number; after: CursorKey | undefined }): Promise<Array<ThreadRow & { replies: number; createdMicros: string }>> {
      return db
        .select({ ...threadColumns, replies: visiblePostCount, createdMicros: epochMicros(forumThreads.createdAt) })
        .from(forumThreads)
        .innerJoin(users, eq(users.id, forumThreads.userId))
        .where(and(eq(forumThreads.eventId, eventId), afterTimeKey('desc', forumThreads.createdAt, forumThreads.id, page.after)))
        .orderBy(desc(forumThreads.createdAt), desc(forumThreads.id))
        .limit(page.limit);
    },

    async countThreads(eventId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(forumThreads).where(eq(forumThreads.eventId, eventId));
      return row?.n ?? 0;
    },

    /** The newest `limit` threads with their reply counts. */
    async threadSummaries(eventId: string, limit: number): Promise<Array<ThreadRow & { replies: number }>> {
      return db
        .select({ ...threadColumns, replies: visiblePostCount })
        .from(forumThreads)
        .innerJoin(users, eq(users.id, forumThreads.userId))
        .where(eq(forumThreads.eventId, eventId))
        .orderBy(desc(forumThreads.createdAt), desc(forumThreads.id))
        .limit(limit);
    },

    async findThread(threadId: string): Promise<ThreadRow | undefined> {
      const [row] = await db
        .select(threadColumns)
        .from(forumThreads)
        .innerJoin(users, eq(users.id, forumThreads.userId))
        .where(eq(forumThreads.id, threadId))
        .limit(1);
      return row;
    },

    async insertThread(values: { eventId: string; userId: string; title: string }) {
      const [row] = await db.insert(forumThreads).values({ id: newId(), ...values }).returning();
      return row!;
    },

    /**
     * Every post of a thread in one query, newest first, with its author and the viewer's vote,
     * so the tree is built in memory without a query per post.
     */
    async postsOfThread(threadId: string, viewerId: string): Promise<PostRow[]> {
      return db
        .select(postColumns)
        .from(forumPosts)
        .innerJoin(users, eq(users.id, forumPosts.userId))
        .leftJoin(postVotes, viewerVote(viewerId))
        .where(eq(forumPosts.threadId, threadId))
        .orderBy(desc(forumPosts.createdAt), desc(forumPosts.id));
    },

    /** Top-level posts newest first: `limit` after the cursor, with the viewer's vote and creation times in microseconds. */
    async topLevelPostPage(threadId: string, viewerId: string, page: { limit: number; after: CursorKey | undefined }): Promise<Array<PostRow & { createdMicros: string }>> {
      return db
        .select({ ...postColumns, createdMicros: epochMicros(forumPosts.createdAt) })
        .from(forumPosts)
        .innerJoin(users, eq(users.id, forumPosts.userId))
        .leftJoin(postVotes, viewerVote(viewerId))
        .where(and(eq(forumPosts.threadId, threadId), isNull(forumPosts.parentId), afterTimeKey('desc', forumPosts.createdAt, forumPosts.id, page.after)))
        .orderBy(desc(forumPosts.createdAt), desc(forumPosts.id))
        .limit(page.limit);
    },

    /** The thread's top-level posts (deleted placeholders that keep replies included), and its visible posts at any depth. */
    async countPosts(threadId: string): Promise<{ topLevel: number; visible: number }> {
      const [row] = await db
        .select({
          topLevel: sql<number>`(count(*) filter (where ${forumPosts.parentId} is null))::int`,
          visible: sql<number>`(count(*) filter (where ${forumPosts.deletedAt} is null))::int`,
        })
        .from(forumPosts)
        .where(eq(forumPosts.threadId, threadId));
      return row ?? { topLevel: 0, visible: 0 };
    },

    /** Every reply below the given posts, at any depth, newest first, with the viewer's vote. */
    async repliesBelow(postIds: string[], viewerId: string): Promise<PostRow[]> {
      if (postIds.length === 0) return [];
      const below = sql`(with recursive below(id) as (
          select id from forum_posts where parent_id in (${sql.join(postIds.map((id) => sql`${id}`), sql`, `)})
          union all
          select p.id from forum_posts p join below b on p.parent_id = b.id
        ) select id from below)`;
      return db
        .select(postColumns)
        .from(forumPosts)
        .innerJoin(users, eq(users.id, forumPosts.userId))
        .leftJoin(postVotes, viewerVote(viewerId))
        .where(sql`${forumPosts.id} in ${below}`)
        .orderBy(desc(forumPosts.createdAt), desc(forumPosts.id));
    },

    /**
     * Reads a post and locks its row until the transaction ends: 'update' for votes and deletion,
     * 'share' while a reply is attached (a concurrent delete then sees the reply).
     */
    async lockPost(postId: string, mode: 'update' | 'share'): Promise<LockedPost | undefined> {
      const [row] = await db.select().from(forumPosts).where(eq(forumPosts.id, postId)).limit(1).for(mode);
      return row;
    },

    /** How many posts lie on the path from this post up to the top level, itself included. */
    async chainLength(postId: string): Promise<number> {
      const result = (await db.execute(sql`
        with recursive chain(id, parent_id, n) as (
          select id, parent_id, 1 from forum_posts where id = ${postId}
          union all
          select p.id, p.parent_id, c.n + 1 from forum_posts p join chain c on p.id = c.parent_id where c.n < ${ANCESTOR_WALK_LIMIT}
        )
        select count(*)::int as n from chain`)) as unknown as { rows: Array<{ n: number }> };
      return Number(result.rows[0]?.n ?? 0);
    },

    async insertPost(values: { threadId: string; userId: string; parentId: string | null; content: string }) {
      const [row] = await db.insert(forumPosts).values({ id: newId(), ...values }).returning();
      return row!;
    },

    async findVote(postId: string, userId: string): Promise<number> {
      const [row] = await db
        .select({ value: postVotes.value })
        .from(postVotes)
        .where(and(eq(postVotes.postId, postId), eq(postVotes.userId, userId)))
        .limit(1);
      return row?.value ?? 0;
    },

    /** 0 removes the vote. Call with the post row locked. */
    async setVote(postId: string, userId: string, value: number): Promise<void> {
      if (value === 0) {
        await db.delete(postVotes).where(and(eq(postVotes.postId, postId), eq(postVotes.userId, userId)));
        return;
      }
      await db
        .insert(postVotes)
        .values({ postId, userId, value })
        .onConflictDoUpdate({ target: [postVotes.postId, postVotes.userId], set: { value } });
    },

    async addToScore(postId: string, delta: number): Promise<number> {
      const [row] = await db
        .update(forumPosts)
        .set({ upvotes: sql`${forumPosts.upvotes} + ${delta}` })
        .where(eq(forumPosts.id, postId))
        .returning({ upvotes: forumPosts.upvotes });
      return row!.upvotes;
    },

    async hasReplies(postId: string): Promise<boolean> {
      const [row] = await db.select({ id: forumPosts.id }).from(forumPosts).where(eq(forumPosts.parentId, postId)).limit(1);
      return Boolean(row);
    },

    /** The words go; the row stays so its replies keep their place. */
    async softDelete(postId: string): Promise<void> {
      await db.update(forumPosts).set({ content: '', deletedAt: new Date() }).where(eq(forumPosts.id, postId));
    },

    async deletePost(postId: string): Promise<void> {
      await db.delete(forumPosts).where(eq(forumPosts.id, postId));
    },
  };
}
