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
