import { REVIEW_MAX_LENGTH } from '@tukio/shared/limits';
import { z } from 'zod';
import { idParam } from '../../lib/validate.js';
import { freeText } from './community.shared.js';

const RATING_MESSAGE = 'Rating must be a whole number from 1 to 5.';

/** A review may be a rating alone; text, when given, is capped. */
const reviewText = freeText({ field: 'Review', max: REVIEW_MAX_LENGTH, empty: 'Review must be text.', allowEmpty: true });

/** Form selects send "4" as often as 4; both are accepted, nothing else is. */
const rating = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*\d{1,2}\s*$/.test(value) ? Number(value) : value),
  z
    .number({ error: (issue) => (issue.input === undefined || issue.input === null ? 'Rating is required.' : RATING_MESSAGE) })
    .int(RATING_MESSAGE)
    .min(1, RATING_MESSAGE)
    .max(5, RATING_MESSAGE),
);

export const reviewIdParams = z.object({ id: idParam('reviewId') });
export const eventIdParams = z.object({ eventId: idParam('eventId') });

export const addReviewBody = z.object({
  content: reviewText.optional().transform((value) => value ?? ''),
  rating,
  eventId: idParam('eventId'),
  userId: z.unknown().optional(),
});

export const replyBody = z.object({
  content: freeText({ field: 'Answer', max: REVIEW_MAX_LENGTH, empty: 'Answer cannot be empty.' }),
});

export const updateReviewBody = z
  .object({
    content: reviewText.optional(),
    rating: rating.optional(),
    userId: z.unknown().optional(),
  })
  .refine((body) => body.content !== undefined || body.rating !== undefined, { message: 'Nothing to update: send content or rating.', path: ['content'] });
