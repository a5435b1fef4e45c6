import { SYSTEM_USER_ID } from '../../db/ids.js';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthUser } from '../auth/index.js';
import { accountStanding } from '../auth/index.js';
import { createContentModerationRepository, type ContentKind } from './moderation.repository.js';
import { createSpamRepository } from './spam.repository.js';

/**
 * Where held content goes: the moderation queue (moderation sits above community, so app.ts passes
 * this in). The item is already hidden when it is called.
 */
export interface ReviewQueue {
  hold(kind: ContentKind, id: string, authorId: string, why: string): Promise<void>;
}

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

/** Per user and kind: at most `max` in `windowMs` (scaled by `scale`, see createSpamBrakes). */
export const POSTING_LIMITS: Record<ContentKind, { max: number; windowMs: number; noun: string; window: string }> = {
  comment: { max: 10, windowMs: 10 * MINUTE, noun: 'comments', window: '10 minutes' },
  post: { max: 20, windowMs: 10 * MINUTE, noun: 'forum posts', window: '10 minutes' },
  thread: { max: 5, windowMs: HOUR, noun: 'threads', window: 'an hour' },
  review: { max: 10, windowMs: HOUR, noun: 'reviews', window: 'an hour' },
};

/** Younger accounts' posts with links wait for a moderator. */
export const NEW_ACCOUNT_MS = 24 * HOUR;
/** The same words on this many events within a day: the next one waits for a moderator. */
export const REPEATS_BEFORE_HOLD = 2;

/** Something a browser would follow: a scheme, `www.`, or a bare domain with a common ending. */
const LINK = /\b(?:https?:\/\/|www\.)\S+|\b[a-z0-9][a-z0-9-]*\.(?:com|net|org|info|biz|xyz|top|io|co|ke|ly|me|link|click|site|online|shop)\b(?:\/\S*)?/i;

export const containsLink = (text: string) => LINK.test(text);

export const heldMessages = {
  newAccountLink: 'New accounts cannot post links straight away: this post is held until a moderator reviews it.',
  repeated: 'The same text was posted on several events: this post is held until a moderator reviews it.',
} as const;

/**
 * Spam brakes for comments, reviews and forums (docs/decisions/moderation.md): per-user posting limits
 * (429 with a clear message), and holding for review (hidden, queued for a moderator) the posts with
 * links of accounts under a day old or not yet verified, and the same text repeated across events.
 * `scale` multiplies the limits (app.ts ties it to the deployment's rate-limit setting).
 */
export function createSpamBrakes(deps: { db: Database; queue: ReviewQueue; scale?: number; now?: () => Date }) {
  const spam = createSpamRepository(deps.db);
  const content = createContentModerationRepository(deps.db);
  const now = deps.now ?? (() => new Date());
  const scale = deps.scale ?? 1;

  return {
    /** Before writing: refuses (429) a user over their limit for this kind. */
    async checkRate(kind: ContentKind, user: AuthUser): Promise<void> {
      const limit = POSTING_LIMITS[kind];
      const max = Math.max(1, Math.round(limit.max * scale));
      const recent = await spam.postedSince(kind, user.id, new Date(now().getTime() - limit.windowMs));
      if (recent >= max) {
        throw new AppError(429, 'posting_too_fast', `You are posting too fast: at most ${max} ${limit.noun} in ${limit.window}. Please wait a little and try again.`, {
          params: { max, kind, minutes: limit.windowMs / 60_000 },
        });
      }
    },

    /** Why this text should wait for a moderator, if it should. Checked before writing (the repeat count must not include it). */
    async holdReason(user: AuthUser, text: string, eventId: string): Promise<string | null> {
      if (user.role === 'admin') return null;
      if (containsLink(text)) {
        const row = await accountStanding(deps.db, user.id);
        if (!row || !row.emailVerifiedAt || now().getTime() - row.createdAt.getTime() < NEW_ACCOUNT_MS) return heldMessages.newAccountLink;
      }
      const elsewhere = await spam.eventsWithSameText(user.id, text, eventId, new Date(now().getTime() - 24 * HOUR));
      return elsewhere >= REPEATS_BEFORE_HOLD ? heldMessages.repeated : null;
    },

    /** After writing: hides the item with the reason and puts it in the moderation queue. */
    async hold(kind: ContentKind, id: string, authorId: string, why: string): Promise<void> {
      await content.setHidden(kind, id, { by: SYSTEM_USER_ID, reason: why });
      await deps.queue.hold(kind, id, authorId, why);
    },
  };
}

export type SpamBrakes = ReturnType<typeof createSpamBrakes>;
