import { and, eq, gt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { comments, forumPosts, forumThreads, reviews } from './community.schema.js';
import type { ContentKind } from './moderation.repository.js';

/** The counts the spam brakes need: how much a user posted lately, and where the same words went. */
export function createSpamRepository(db: Executor) {
  return {
    async postedSince(kind: ContentKind, userId: string, since: Date): Promise<number> {
      const table = { comment: comments, review: reviews, thread: forumThreads, post: forumPosts }[kind];
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(table)
        .where(and(eq(table.userId, userId), gt(table.createdAt, since)));
      return row?.n ?? 0;
    },

    /**
     * Other events on which the user said the same thing (ignoring case and spacing) since `since`, in
     * comments or forum posts.
     */
    async eventsWithSameText(userId: string, text: string, exceptEventId: string, since: Date): Promise<number> {
      const normal = (column: unknown) => sql`lower(regexp_replace(${column}, '\\s+', ' ', 'g'))`;
      const wanted = text.toLowerCase().replace(/\s+/g, ' ');
      // A raw query: the time goes as text (drivers differ on Date parameters).
      const after = since.toISOString();
      const result = (await db.execute(sql`
        select count(distinct event_id)::int as n from (
          select ${comments.eventId} as event_id from ${comments}
            where ${comments.userId} = ${userId} and ${comments.createdAt} > ${after}::timestamptz and ${normal(comments.content)} = ${wanted}
          union all
          select ${forumThreads.eventId} as event_id from ${forumPosts} join ${forumThreads} on ${forumThreads.id} = ${forumPosts.threadId}
            where ${forumPosts.userId} = ${userId} and ${forumPosts.createdAt} > ${after}::timestamptz and ${normal(forumPosts.content)} = ${wanted}
        ) same where event_id <> ${exceptEventId}`)) as unknown as { rows: Array<{ n: number }> };
      return Number(result.rows[0]?.n ?? 0);
    },
  };
}
