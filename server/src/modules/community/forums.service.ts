import type { Database, Executor } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { requireOwner } from '../../lib/auth.js';
import { toPage, type CursorKey, type Page } from '../../lib/keyset-page.js';
import type { AuthUser } from '../auth/index.js';
import { ticketRegistrations } from '../tickets/index.js';
import { moderatedText, requireVisibleEvent, userRef } from './community.shared.js';
import { createEventRefsRepository } from './event-refs.repository.js';
import { createForumsRepository, type PostRow, type ThreadRow } from './forums.repository.js';
import { MAX_POST_DEPTH, PREVIEW_LEVELS, PREVIEW_REPLIES, SUMMARY_THREADS } from './forums.schemas.js';
import { buildPostTree, buildPreviewTrees, fitPreviewsWithin, toPostView, type PostPreview, type PostView } from './post-tree.js';
import type { SpamBrakes } from './spam-brakes.js';

export const forumMessages = {
  loginToView: 'Please log in to view the forum threads.',
  notRegistered: "You can only post in the forum if you've registered for the event",
  threadNotFound: 'Thread not found.',
  postNotFound: 'Post not found.',
  parentElsewhere: 'The post you are replying to is not in this thread.',
  parentDeleted: 'You cannot reply to a deleted post.',
  tooDeep: `Replies can nest at most ${MAX_POST_DEPTH} levels deep.`,
  voteOnDeleted: 'You cannot vote on a deleted post.',
  notAuthor: 'You can only delete your own posts.',
} as const;

const threadNotFound = () => AppError.notFound('thread_not_found', forumMessages.threadNotFound);
const postNotFound = () => AppError.notFound('post_not_found', forumMessages.postNotFound);

const threadHead = (row: ThreadRow, viewer: AuthUser | undefined) => {
  const { text, ...hidden } = moderatedText(row, row.title, viewer);
  return {
    _id: row.id,
    title: text,
    event: row.eventId,
    user: userRef(row),
    createdAt: row.createdAt.toISOString(),
    ...hidden,
  };
};

export function createForumsService(deps: { db: Database; brakes?: SpamBrakes | undefined }) {
  const forums = createForumsRepository(deps.db);
  const eventRefs = createEventRefsRepository(deps.db);
  const registrations = ticketRegistrations(deps.db);

  async function requireRegistered(eventId: string, userId: string) {
    if (!(await registrations.isRegistered(eventId, userId))) throw AppError.forbidden('forum_not_registered', forumMessages.notRegistered);
  }

  /**
   * The thread, when the viewer may see its event; otherwise the 404 `notFound` makes, exactly as
   * for an unknown thread (or post), so a hidden event's forum looks missing.
   */
  async function requireVisibleThread(db: Executor, threadId: string, viewer: AuthUser, notFound: () => AppError) {
    const thread = await createForumsRepository(db).findThread(threadId);
    if (!thread) throw notFound();
    await requireVisibleEvent(createEventRefsRepository(db), thread.eventId, viewer, notFound);
    return thread;
  }

  /**
   * The views of `listed` posts (in their order) with a preview of their replies: the newest
   * PREVIEW_REPLIES of each, PREVIEW_LEVELS levels down, and every post's reply count. Trimmed to the
   * page's byte budget; returns how many of `listed` the answer sends.
   */
  async function withReplyPreviews(listed: PostRow[], viewer: AuthUser): Promise<{ items: PostPreview[]; sent: number }> {
    const below: PostRow[] = [];
    let parents = listed.map((row) => row.id);
    for (let level = 0; level < PREVIEW_LEVELS && parents.length > 0; level++) {
      const replies = await forums.latestReplies(parents, viewer.id, PREVIEW_REPLIES);
      below.push(...replies);
      parents = replies.map((row) => row.id);
    }
    const counts = await forums.replyCounts([...listed, ...below].map((row) => row.id));
    const items = buildPreviewTrees(listed, below, counts, viewer);
    const sent = fitPreviewsWithin(items);
    return { items: items.slice(0, sent), sent };
  }

  return {
    /** Newest first; `posts` holds the ids of the thread's visible posts (its length is the reply count). */
    async listThreads(viewer: AuthUser, eventId: string) {
      await requireVisibleEvent(eventRefs, eventId, viewer);
      const rows = await forums.threadsForEvent(eventId);
      return rows.map((row) => ({ ...threadHead(row, viewer), posts: row.postIds, replies: row.postIds.length }));
    },

    /** One page of the threads, newest first, with reply counts (no post ids: a busy thread's would outweigh the page). */
    async threadPage(viewer: AuthUser, eventId: string, page: { limit: number; cursor?: CursorKey | undefined }) {
      await requireVisibleEvent(eventRefs, eventId, viewer);
      const [rows, total] = await Promise.all([forums.threadPage(eventId, { limit: page.limit + 1, after: page.cursor }), forums.countThreads(eventId)]);
      const result = toPage(rows, page.limit, total, (row) => [row.createdMicros, row.id]);
      return { ...result, items: result.items.map((row) => ({ ...threadHead(row, viewer), replies: row.replies })) };
    },

    /**
     * The thread's head and one page of its top-level posts, newest first, each with a preview of its
     * replies and its reply count (the rest come from `replyPage`).
     */
    async threadPostsPage(viewer: AuthUser, threadId: string, page: { limit: number; cursor?: CursorKey | undefined }): Promise<Page<PostPreview> & { thread: ReturnType<typeof threadHead>; posts: number }> {
      const thread = await requireVisibleThread(deps.db, threadId, viewer, threadNotFound);
      const [roots, counts] = await Promise.all([forums.topLevelPostPage(threadId, viewer.id, { limit: page.limit + 1, after: page.cursor }), forums.countPosts(threadId)]);
      const { items, sent } = await withReplyPreviews(roots.slice(0, page.limit), viewer);
      return { ...toPage(roots, sent, counts.topLevel, (row) => [row.createdMicros, row.id]), items, thread: threadHead(thread, viewer), posts: counts.visible };
    },

    /**
     * One page of a post's direct replies, newest first, each with a preview of its own replies. Read
     * exactly as the thread is (the same visibility check, the same views), so nothing the thread hides
     * from the viewer is reachable here; an unknown post and a post of a forum the viewer may not see are
     * the same 404.
     */
    async replyPage(viewer: AuthUser, postId: string, page: { limit: number; cursor?: CursorKey | undefined }): Promise<Page<PostPreview>> {
      const threadId = await forums.findPostThread(postId);
      if (!threadId) throw postNotFound();
      await requireVisibleThread(deps.db, threadId, viewer, postNotFound);
      const [rows, total] = await Promise.all([forums.replyPage(postId, viewer.id, { limit: page.limit + 1, after: page.cursor }), forums.replyCounts([postId])]);
      const { items, sent } = await withReplyPreviews(rows.slice(0, page.limit), viewer);
      return { ...toPage(rows, sent, total.get(postId) ?? 0, (row) => [row.createdMicros, row.id]), items };
    },

    /** Public forum summary for the event page: the newest few threads with reply counts. */
    async summary(eventId: string, viewer: AuthUser | undefined) {
      await requireVisibleEvent(eventRefs, eventId, viewer);
      const rows = await forums.threadSummaries(eventId, SUMMARY_THREADS);
      return rows.map((row) => ({ ...threadHead(row, viewer), replies: row.replies }));
    },

    async addThread(user: AuthUser, eventId: string, title: string) {
      await requireVisibleEvent(eventRefs, eventId, user);
      await requireRegistered(eventId, user.id);
      await deps.brakes?.checkRate('thread', user);
      const held = await deps.brakes?.holdReason(user, title, eventId);
      const row = await forums.insertThread({ eventId, userId: user.id, title });
      if (held) {
        await deps.brakes!.hold('thread', row.id, user.id, held);
        return { ...threadHead({ ...row, username: user.username, hiddenAt: new Date(), hiddenReason: held }, user), posts: [] as string[], replies: 0 };
      }
      return { ...threadHead({ ...row, username: user.username }, user), posts: [] as string[], replies: 0 };
    },

    /** The thread with its whole post tree, built from one query of its posts. */
    async getThread(viewer: AuthUser, threadId: string) {
      const thread = await requireVisibleThread(deps.db, threadId, viewer, threadNotFound);
      const posts = buildPostTree(await forums.postsOfThread(threadId, viewer.id), viewer);
      return { ...threadHead(thread, viewer), posts };
    },

    async addPost(user: AuthUser, input: { threadId: string; parentId: string | null; content: string }): Promise<PostView> {
      // Outside the transaction: a refusal or a hold decision needs no lock (an unknown thread is refused below).
      const thread = await forums.findThread(input.threadId);
      await deps.brakes?.checkRate('post', user);
      const held = thread ? await deps.brakes?.holdReason(user, input.content, thread.eventId) : null;
      const view = await deps.db.transaction(async (tx) => {
        const repo = createForumsRepository(tx);
        const thread = await requireVisibleThread(tx, input.threadId, user, threadNotFound);
        if (!(await ticketRegistrations(tx).isRegistered(thread.eventId, user.id))) {
          throw AppError.forbidden('forum_not_registered', forumMessages.notRegistered);
        }
        if (input.parentId) {
          // Locked (shared) until commit, so a concurrent delete of the parent sees this reply.
          const parent = await repo.lockPost(input.parentId, 'share');
          if (!parent || parent.threadId !== thread.id) throw AppError.badRequest('forum_parent_elsewhere', forumMessages.parentElsewhere, 'parentId');
          if (parent.deletedAt) throw AppError.badRequest('forum_parent_deleted', forumMessages.parentDeleted, 'parentId');
          if ((await repo.chainLength(parent.id)) >= MAX_POST_DEPTH) throw AppError.badRequest('forum_too_deep', forumMessages.tooDeep, { field: 'parentId', params: { max: MAX_POST_DEPTH } });
        }
        const row = await repo.insertPost({ threadId: thread.id, userId: user.id, parentId: input.parentId, content: input.content });
        return toPostView({ ...row, username: user.username, myVote: 0 }, user);
      });
      if (!held) return view;
      await deps.brakes!.hold('post', view._id, user.id, held);
      return { ...view, hidden: true, hiddenReason: held };
    },

    /**
     * One vote per user per post: the same direction again takes it back, the other direction
     * switches it. The post row is locked, so the vote row and the counter move together even
     * when votes race.
     */
    async vote(user: AuthUser, postId: string, direction: 1 | -1) {
      return deps.db.transaction(async (tx) => {
        const repo = createForumsRepository(tx);
        const post = await repo.lockPost(postId, 'update');
        if (!post) throw AppError.notFound('post_not_found', forumMessages.postNotFound);
        await requireVisibleThread(tx, post.threadId, user, postNotFound);
        if (post.deletedAt) throw AppError.badRequest('vote_on_deleted_post', forumMessages.voteOnDeleted);
        const previous = await repo.findVote(postId, user.id);
        const next = previous === direction ? 0 : direction;
        await repo.setVote(postId, user.id, next);
        const upvotes = next === previous ? post.upvotes : await repo.addToScore(postId, next - previous);
        return { upvotes, myVote: next };
      });
    },

    /**
     * A post with replies keeps its place as "[deleted]"; one without replies is removed, and so is
     * any already-deleted ancestor that this leaves without replies.
     */
    async deletePost(user: AuthUser, postId: string): Promise<void> {
      await deps.db.transaction(async (tx) => {
        const repo = createForumsRepository(tx);
        const post = await repo.lockPost(postId, 'update');
        if (!post) throw AppError.notFound('post_not_found', forumMessages.postNotFound);
        await requireVisibleThread(tx, post.threadId, user, postNotFound);
        requireOwner(user, post.userId, { code: 'post_not_author', message: forumMessages.notAuthor });
        if (await repo.hasReplies(post.id)) {
          if (!post.deletedAt) await repo.softDelete(post.id);
          return;
        }
        await repo.deletePost(post.id);
        let parentId = post.parentId;
        while (parentId) {
          const parent = await repo.lockPost(parentId, 'update');
          if (!parent || !parent.deletedAt || (await repo.hasReplies(parent.id))) break;
          await repo.deletePost(parent.id);
          parentId = parent.parentId;
        }
      });
    },
  };
}

export type ForumsService = ReturnType<typeof createForumsService>;
