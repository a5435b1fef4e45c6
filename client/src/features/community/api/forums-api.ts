/* Event forums (server/src/modules/community/forums.routes.ts). All but the summary need a login. */
import type { ListPage } from '../../../hooks/use-paged-list';
import { api } from '../../../lib/api-client';
import { pagePath } from '../../../lib/page-path';
import type {
  CommunityEventRef,
  ForumPost,
  ForumThreadHead,
  ForumThreadListItem,
  ForumThreadSummary,
  Vote,
} from '../types';

const seg = (value: string) => encodeURIComponent(value);

/** GET /api/forums/summary/:eventId (public) -> {threads}, the 3 newest. */
export async function getForumSummary(eventId: string, signal?: AbortSignal): Promise<ForumThreadSummary[]> {
  const { data } = await api.get<{ threads?: ForumThreadSummary[] }>(`/forums/summary/${seg(eventId)}`, {
    signal,
    skipSessionReset: true,
  });
  return Array.isArray(data?.threads) ? data.threads : [];
}

/** GET /api/forums/threads/:eventId/paged (auth) -> one page of the threads, newest first, with reply counts. 401 when logged out. */
export async function getThreadPage(eventId: string, cursor: string | null, signal?: AbortSignal): Promise<ListPage<ForumThreadListItem>> {
  const { data } = await api.get<ListPage<ForumThreadListItem>>(pagePath(`/forums/threads/${seg(eventId)}/paged`, cursor), { signal });
  return { ...data, items: data.items.map(normalizeThreadItem) };
}

/** POST /api/forums/add-thread (auth, registered) {title, eventId, userId} -> 201 {status, thread}. */
export async function addThread(input: { title: string; eventId: string; userId: string }): Promise<ForumThreadListItem> {
  const { data } = await api.post<{ status: boolean; thread: ForumThreadListItem }>('/forums/add-thread', input);
  return normalizeThreadItem(data.thread);
}

/** One page of a thread's top-level posts (each with its reply tree), the thread's head and its visible post count. */
export interface ForumPostPage extends ListPage<ForumPost> {
  thread: ForumThreadHead;
  /** Visible posts in the whole thread, replies included (`total` counts the top-level posts). */
  posts: number;
}

/**
 * GET /api/forums/thread/:threadId/posts (auth) -> a page of top-level posts, newest first; 404 when missing.
 * The first page is a plain path (no query parameters), so the answer fetched early for the page serves it.
 */
export async function getThreadPosts(threadId: string, cursor: string | null, signal?: AbortSignal): Promise<ForumPostPage> {
  const { data } = await api.get<ForumPostPage>(pagePath(`/forums/thread/${seg(threadId)}/posts`, cursor), { signal });
  return { ...data, items: normalizePosts(data.items) };
}

/**
 * GET /api/forums/posts/:postId/replies (auth) -> a page of a post's replies, newest first, each with the
 * newest of its own; `total` is the post's reply count. 404 when the post is gone.
 */
export async function getPostReplies(postId: string, cursor: string | null, signal?: AbortSignal): Promise<ListPage<ForumPost>> {
  const { data } = await api.get<ListPage<ForumPost>>(pagePath(`/forums/posts/${seg(postId)}/replies`, cursor), { signal });
  return { ...data, items: normalizePosts(data.items) };
}

/** POST /api/forums/add-post (auth, registered) {content, threadId, parentId, userId} -> 201 {status, post}. */
export async function addPost(input: {
  content: string;
  threadId: string;
  parentId: string | null;
  userId: string;
}): Promise<ForumPost> {
  const { data } = await api.post<{ status: boolean; post: ForumPost }>('/forums/add-post', input);
  return normalizePost(data.post);
}

/**
 * PATCH /api/forums/posts/{upvote|downvote}/:postId/:userId (auth) -> {status, upvotes, myVote}.
 * The same direction again takes the vote back; the other direction switches it.
 */
export async function votePost(postId: string, userId: string, direction: 'up' | 'down'): Promise<{ upvotes: number; myVote: Vote }> {
  const path = direction === 'up' ? 'upvote' : 'downvote';
  const { data } = await api.patch<{ status: boolean; upvotes: number; myVote: number }>(
    `/forums/posts/${path}/${seg(postId)}/${seg(userId)}`,
    {},
  );
  return { upvotes: Number(data.upvotes) || 0, myVote: toVote(data.myVote) };
}

/** DELETE /api/forums/posts/:postId/:userId (author or admin) -> {status}. */
export async function deletePost(postId: string, userId: string): Promise<void> {
  await api.delete(`/forums/posts/${seg(postId)}/${seg(userId)}`);
}

/** GET /api/events/:id (public) -> the event; the forum page reads its title, date and registeredUsers. */
export async function getEventRef(eventId: string, signal?: AbortSignal): Promise<CommunityEventRef> {
  const { data } = await api.get<CommunityEventRef>(`/events/${seg(eventId)}`, { signal });
  return data;
}

function toVote(value: unknown): Vote {
  return value === 1 ? 1 : value === -1 ? -1 : 0;
}

function normalizeThreadItem(thread: ForumThreadListItem): ForumThreadListItem {
  const replies = typeof thread.replies === 'number' ? thread.replies : (thread.posts?.length ?? 0);
  return { ...thread, replies };
}

function normalizePost(post: ForumPost): ForumPost {
  const replies = normalizePosts(post.replies);
  return {
    ...post,
    user: post.user ?? { _id: '', username: '[deleted]' },
    upvotes: Number(post.upvotes) || 0,
    myVote: toVote(post.myVote),
    parent: post.parent ?? null,
    deleted: Boolean(post.deleted),
    replies,
    // A post from add-post (the contract's shape) has no count: its replies are all there are.
    replyCount: typeof post.replyCount === 'number' ? Math.max(post.replyCount, replies.length) : replies.length,
  };
}

/** Copy with defaults filled in (the server caps nesting at 100 levels, so recursion is safe). */
function normalizePosts(posts: ForumPost[] | undefined): ForumPost[] {
  return Array.isArray(posts) ? posts.map(normalizePost) : [];
}
