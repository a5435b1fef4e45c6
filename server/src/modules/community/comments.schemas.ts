import { COMMENT_MAX_LENGTH } from '@tukio/shared/limits';
import { z } from 'zod';
import { idParam } from '../../lib/validate.js';
import { freeText } from './community.shared.js';

/** The client's message when a comment cannot be posted (docs/product.md, "Messages users see"). */
export const EMPTY_COMMENT = 'Comment field empty';

const commentText = freeText({ field: 'Comment', max: COMMENT_MAX_LENGTH, empty: EMPTY_COMMENT });

export const eventIdParams = z.object({ eventId: idParam('eventId') });
export const commentIdParams = z.object({ commentId: idParam('commentId') });

export const addCommentBody = z.object({
  content: commentText,
  eventId: idParam('eventId'),
  userId: z.unknown().optional(),
});

/** The contract's edit call sends `text`; the REST-shaped one sends `content`. Either is accepted on both paths. */
export const updateCommentBody = z
  .object({ text: z.unknown().optional(), content: z.unknown().optional() })
  .transform((body) => ({ content: body.text !== undefined ? body.text : body.content }))
  .pipe(z.object({ content: commentText }));
