import type { ErrorRequestHandler } from 'express';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { appErrorBody } from '../../lib/error-handler.js';
import type { AuthUser } from '../auth/index.js';
import { canSeeEvent } from '../events/index.js';
import type { EventRefsRepository } from './event-refs.repository.js';

/** `{_id, username}`: how an author is shown on comments, reviews, threads and posts. */
export interface UserRef {
  _id: string;
  username: string;
}

export const userRef = (row: { userId: string; username: string }): UserRef => ({ _id: row.userId, username: row.username });

/**
 * Free text as typed: only the ends are trimmed, nothing is escaped or stripped (clients render it
 * as text). NUL is refused because PostgreSQL text cannot hold it.
 */
export const freeText = (options: { field: string; max: number; empty: string; allowEmpty?: boolean }) =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? options.empty : `${options.field} must be text.`) })
    .trim()
    .min(options.allowEmpty ? 0 : 1, options.empty)
    .max(options.max, `${options.field} must be at most ${options.max} characters.`)
    .refine((value) => !value.includes('\u0000'), `${options.field} must not contain null characters.`);

/**
 * Failures of these routes carry `status:false` next to `{msg, message}`, so a client that checks
 * `status` (as the contract's success bodies invite) reads them right. Statuses stay real 4xx.
 */
export const statusFalseOnError: ErrorRequestHandler = (error, _req, res, next) => {
  if (!(error instanceof AppError) || error.status >= 500) {
    next(error);
    return;
  }
  res.status(error.status).json({ status: false, ...appErrorBody(error) });
};

export const eventNotFound = 'Event not found.';

/**
 * The event, when the viewer may see it (`canSeeEvent`, the rule of GET /api/events/:id); otherwise
 * the same 404 as for an unknown id. Routes that reach the event through a comment, review, thread or
 * post pass that thing's own not-found error, so a hidden event's content looks missing too.
 */
export async function requireVisibleEvent(
  eventRefs: EventRefsRepository,
  eventId: string,
  viewer: AuthUser | undefined,
  notFound: () => AppError = () => AppError.notFound('event_not_found', eventNotFound),
) {
  const event = await eventRefs.find(eventId);
  if (!event || !canSeeEvent(event, viewer)) throw notFound();
  return event;
}

/** PostgreSQL unique violation (both drivers report the SQLSTATE as `code`). */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let i = 0; i < 3 && current && typeof current === 'object'; i++) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** What others see in place of words a moderator hid (docs/decisions/moderation.md). */
export const HIDDEN_CONTENT = '[hidden by a moderator]';

/** The moderation columns every piece of community content carries. */
export interface HiddenColumns {
  userId: string;
  hiddenAt: Date | null;
  hiddenReason: string | null;
}

/** The fields a view gains: `hidden` always; `hiddenReason` only for whom the real text is shown. */
export interface HiddenFields {
  hidden: boolean;
  hiddenReason?: string;
}

/**
 * Words as the viewer may see them: hidden ones are replaced for everyone but their author (who sees
 * them with the moderator's reason, to understand and appeal) and administrators.
 */
export function moderatedText(row: HiddenColumns, text: string, viewer: { id: string; role: string } | undefined): { text: string } & HiddenFields {
  if (!row.hiddenAt) return { text, hidden: false };
  if (viewer && (viewer.id === row.userId || viewer.role === 'admin')) return { text, hidden: true, hiddenReason: row.hiddenReason ?? '' };
  return { text: HIDDEN_CONTENT, hidden: true };
}
