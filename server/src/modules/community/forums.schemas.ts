import { POST_MAX_LENGTH, THREAD_TITLE_MAX_LENGTH } from '@tukio/shared/limits';
import { z } from 'zod';
import { idParam } from '../../lib/validate.js';
import { freeText } from './community.shared.js';

/**
 * Replies may nest at any depth the UI asks for (the client renders three levels and offers "Load more"
 * below). This cap only keeps a thread serialisable: JSON nesting in the thousands overflows the stack.
 */
export const MAX_POST_DEPTH = 100;
export const SUMMARY_THREADS = 3;

/*
 * Our client's paged answers (a thread's top-level posts, a post's replies) carry each listed post with a
 * preview of its replies, not its whole tree: one post with thousands of replies, or a long chain, would
 * otherwise make a single answer as large as the discussion. Each post says how many replies it has
 * (`replyCount`); the rest come a page at a time from GET /api/forums/posts/:postId/replies.
 */
/** The newest replies sent under each post: enough to follow a conversation before choosing to open more. */
export const PREVIEW_REPLIES = 3;
/** Levels of replies sent under a listed post: the thread page shows three levels (the post and two of replies) at once. */
export const PREVIEW_LEVELS = 2;

export const eventIdParams = z.object({ eventId: idParam('eventId') });
export const threadIdParams = z.object({ threadId: idParam('threadId') });
/** The path's user id is not used for identity; it is only compared with the caller where a route says so. */
export const postIdParams = z.object({ postId: idParam('postId'), userId: z.string().optional() });

export const addThreadBody = z.object({
  title: freeText({ field: 'Thread title', max: THREAD_TITLE_MAX_LENGTH, empty: 'Thread title is required.' }),
  eventId: idParam('eventId'),
  userId: z.unknown().optional(),
});

export const addPostBody = z.object({
  content: freeText({ field: 'Post content', max: POST_MAX_LENGTH, empty: 'Post content cannot be empty.' }),
  threadId: idParam('threadId'),
  // null, absent or '' all mean a top-level post.
  parentId: z.preprocess((value) => (value === '' || value === undefined ? null : value), idParam('parentId').nullable()),
  userId: z.unknown().optional(),
});
