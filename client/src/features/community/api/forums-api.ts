/* Event forums (server/src/modules/community/forums.routes.ts). All but the summary need a login. */
import { api } from '../../../lib/api-client';
import type {
  CommunityEventRef,
  ForumPost,
  ForumThread,
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

/** GET /api/forums/threads/:eventId (auth) -> {thread: [...]}, newest first. 401 when logged out. */
export async function getThreads(eventId: string, signal?: AbortSignal): Promise<ForumThreadListItem[]> {
  const { data } = await api.get<{ thread?: ForumThreadListItem[] }>(`/forums/threads/${seg(eventId)}`, { signal });
  return Array.isArray(data?.thread) ? data.thread.map(normalizeThreadItem) : [];
}

/** POST /api/forums/add-thread (auth, registered) {title, eventId, userId} -> 201 {status, thread}. */
export async function addThread(input: { title: string; eventId: string; userId: string }): Promise<ForumThreadListItem> {
  const { data } = await api.post<{ status: boolean; thread: ForumThreadListItem }>('/forums/add-thread', input);
  return normalizeThreadItem(data.thread);
}

/** GET /api/forums/thread/:threadId (auth) -> {status, thread} with the post tree; 404 when missing. */
export async function getThread(threadId: string, signal?: AbortSignal): Promise<ForumThread> {
  const { data } = await api.get<{ status: boolean; thread: ForumThread }>(`/forums/thread/${seg(threadId)}`, { signal });
  const thread = data.thread;
  return { ...thread, posts: normalizePosts(thread.posts) };
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
  return {
    ...post,
    user: post.user ?? { _id: '', username: '[deleted]' },
    upvotes: Number(post.upvotes) || 0,
    myVote: toVote(post.myVote),
    parent: post.parent ?? null,
    deleted: Boolean(post.deleted),
    replies: normalizePosts(post.replies),
  };
}

/** Copy with defaults filled in (the server caps nesting at 100 levels, so recursion is safe). */
function normalizePosts(posts: ForumPost[] | undefined): ForumPost[] {
  return Array.isArray(posts) ? posts.map(normalizePost) : [];
}
