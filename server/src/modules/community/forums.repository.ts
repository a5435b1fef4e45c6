import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { afterTimeKey, epochMicros } from '../../db/keyset-sql.js';
import type { CursorKey } from '../../lib/keyset-page.js';
import { users } from '../auth/index.js';
import { forumPosts, forumThreads, postVotes } from './community.schema.js';

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

    /** The newest `perPost` direct replies of each given post (newest first overall), with the viewer's vote. */
    async latestReplies(parentIds: string[], viewerId: string, perPost: number): Promise<PostRow[]> {
      if (parentIds.length === 0) return [];
      // Per parent, the first `perPost` entries of forum_posts_parent_idx read backwards: a post with
      // thousands of replies costs what one with three does.
      const latest = sql`(select r.id from forum_posts parent cross join lateral (
          select c.id from forum_posts c where c.parent_id = parent.id order by c.created_at desc, c.id desc limit ${perPost}
        ) r where parent.id in (${sql.join(parentIds.map((id) => sql`${id}`), sql`, `)}))`;
      return db
        .select(postColumns)
        .from(forumPosts)
        .innerJoin(users, eq(users.id, forumPosts.userId))
        .leftJoin(postVotes, viewerVote(viewerId))
        .where(sql`${forumPosts.id} in ${latest}`)
        .orderBy(desc(forumPosts.createdAt), desc(forumPosts.id));
    },

    /**
     * How many direct replies each given post has ("[deleted]" placeholders that keep replies
     * included: they are listed too). Posts without replies are absent from the map.
     */
    async replyCounts(postIds: string[]): Promise<Map<string, number>> {
      if (postIds.length === 0) return new Map();
      const rows = await db
        .select({ parentId: forumPosts.parentId, n: sql<number>`count(*)::int` })
        .from(forumPosts)
        .where(inArray(forumPosts.parentId, postIds))
        .groupBy(forumPosts.parentId);
      return new Map(rows.map((row) => [row.parentId!, Number(row.n)]));
    },

    /** A post's direct replies newest first: `limit` after the cursor, with the viewer's vote and creation times in microseconds. */
    async replyPage(postId: string, viewerId: string, page: { limit: number; after: CursorKey | undefined }): Promise<Array<PostRow & { createdMicros: string }>> {
      return db
        .select({ ...postColumns, createdMicros: epochMicros(forumPosts.createdAt) })
        .from(forumPosts)
        .innerJoin(users, eq(users.id, forumPosts.userId))
        .leftJoin(postVotes, viewerVote(viewerId))
        .where(and(eq(forumPosts.parentId, postId), afterTimeKey('desc', forumPosts.createdAt, forumPosts.id, page.after)))
        .orderBy(desc(forumPosts.createdAt), desc(forumPosts.id))
        .limit(page.limit);
    },

    /** The post's thread, without a lock (reads). */
    async findPostThread(postId: string): Promise<string | undefined> {
      const [row] = await db.select({ threadId: forumPosts.threadId }).from(forumPosts).where(eq(forumPosts.id, postId)).limit(1);
      return row?.threadId;
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
