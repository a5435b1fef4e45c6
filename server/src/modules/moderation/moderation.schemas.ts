import { z } from 'zod';
import { pageQuery, type CursorKey } from '../../lib/keyset-page.js';
import { timePageQuery } from '../../lib/time-cursor.js';
import { idParam, text } from '../../lib/validate.js';

export const REPORT_KINDS = ['comment', 'review', 'thread', 'post', 'message', 'user'] as const;
export const REPORT_REASONS = ['spam', 'harassment', 'hate', 'scam', 'other'] as const;
export const ACTIONS = ['dismiss', 'hide', 'unhide', 'delete', 'warn', 'suspend', 'ban', 'lift'] as const;

export type ReportKind = (typeof REPORT_KINDS)[number];
export type ReportReason = (typeof REPORT_REASONS)[number];
export type ModerationAction = (typeof ACTIONS)[number];

/** Longest suspension: past a year a ban says it better. */
export const MAX_SUSPENSION_DAYS = 365;
const DETAILS_MAX = 1000;
const REASON_MAX = 500;

const kind = z.enum(REPORT_KINDS, { error: `kind must be one of ${REPORT_KINDS.join(', ')}.` });

export const reportBody = z
  .object({
    kind,
    id: idParam('id'),
    reason: z.enum(REPORT_REASONS, { error: `reason must be one of ${REPORT_REASONS.join(', ')}.` }),
    details: z
      .string({ error: 'details must be text.' })
      .trim()
      .max(DETAILS_MAX, `details must be at most ${DETAILS_MAX} characters.`)
      .refine((value) => !value.includes('\u0000'), 'details must not contain null characters.')
      .optional()
      .transform((value) => value ?? ''),
  })
  // "Other" says nothing by itself: the moderator needs the reporter's words.
  .refine((body) => body.reason !== 'other' || body.details.length > 0, { message: 'Please describe the problem in details when the reason is "other".', path: ['details'] });

export const itemParams = z.object({ kind, id: idParam('id') });

export const actionBody = z
  .object({
    action: z.enum(ACTIONS, { error: `action must be one of ${ACTIONS.join(', ')}.` }),
    /** Logged, and told to the author (hide, warn, suspend, ban). */
    reason: text('reason', REASON_MAX, 3),
    days: z
      .number({ error: 'days must be a whole number of days.' })
      .int('days must be a whole number of days.')
      .min(1, 'days must be at least 1.')
      .max(MAX_SUSPENSION_DAYS, `days must be at most ${MAX_SUSPENSION_DAYS}.`)
      .optional(),
    /** Suspend or ban: also hide everything the account wrote. */
    hideContent: z.boolean({ error: 'hideContent must be true or false.' }).optional().default(false),
  })
  .refine((body) => body.action !== 'suspend' || body.days !== undefined, { message: 'days is required to suspend.', path: ['days'] });

export const logQuery = z.object({
  userId: idParam('userId').optional(),
});
export const logPageQuery = logQuery.extend(timePageQuery(20));

/** A queue page's cursor names its last item: [reports, first report in microseconds, kind, id]. */
const queueCursor = pageQuery(10, 4);
const isQueueKey = (key: CursorKey) =>
  /^\d{1,9}$/.test(key[0] ?? '') && /^-?\d{1,18}$/.test(key[1] ?? '') && (REPORT_KINDS as readonly string[]).includes(key[2] ?? '');
export const queuePageQuery = z.object({
  limit: queueCursor.limit,
  cursor: queueCursor.cursor.refine((key: CursorKey | undefined) => key === undefined || isQueueKey(key), {
    message: 'cursor is not valid: use the nextCursor of a previous answer.',
  }),
});
