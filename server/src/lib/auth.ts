import { bearerToken } from '@tukio/shared/node/bearer-token';
import type { Request, RequestHandler } from 'express';
import type { AuthService, AuthUser } from '../modules/auth/index.js';
import { AppError, type ErrorCode } from './app-error.js';
import { toWallClock } from './event-clock.js';
import type { Caller } from './team-access.js';

/** A session a suspension or ban ended (its token was revoked by the measure), with the moderator's reason. */
export interface RestrictedSession {
  suspendedUntil: Date | null;
  bannedAt: Date | null;
  reason: string | null;
}

declare module 'express-serve-static-core' {
  interface Request {
    user?: AuthUser;
    /** Set when the bearer token was revoked by a suspension or ban still in force: a 401 then says so. */
    restrictedSession?: RestrictedSession;
  }
}

/**
 * Reads the bearer token on every request; routes then ask for what they need with the helpers below.
 * `restrictionReason` (moderation's) names why an account was suspended or banned, for the 401 that
 * tells a signed-out suspended user why instead of "Your session has expired".
 */
export function authenticateRequests(auth: AuthService, options: { restrictionReason?: (userId: string) => Promise<string | null> } = {}): RequestHandler {
  return async (req, _res, next) => {
    try {
      const token = bearerToken(req);
      if (token && token !== 'null' && token !== 'undefined') {
        const user = await auth.authenticate(token);
        if (user) req.user = user;
        else {
          const ended = await auth.restrictedSession(token);
          if (ended) {
            const reason = (await options.restrictionReason?.(ended.userId).catch(() => null)) ?? null;
            req.restrictedSession = { suspendedUntil: ended.suspendedUntil, bannedAt: ended.bannedAt, reason };
          }
        }
      }
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** `until` as the Nairobi wall-clock time (`2026-12-05 14:30`), how every time is shown to Kenyan users. */
function nairobiTime(until: Date): string {
  return toWallClock(until).toISOString().slice(0, 16).replace('T', ' ');
}

/**
 * The 401 for a caller without a session: "log in" (`code`/`message`), unless their session was ended by a
 * suspension or ban still in force, which it names with its end (Nairobi time) and the moderator's reason.
 */
export function loginRequired(req: Request, code?: ErrorCode, message?: string): AppError {
  const ended = req.restrictedSession;
  if (!ended) return AppError.unauthorized(code, message);
  const reason = ended.reason ?? '';
  const body = { restricted: true, suspendedUntil: ended.suspendedUntil?.toISOString() ?? null, banned: Boolean(ended.bannedAt), reason: ended.reason };
  if (ended.bannedAt) {
    return new AppError(401, 'session_ended_banned', `This account has been banned by the moderators, so you were signed out. Their reason: ${reason}`, {
      params: { reason },
      body,
    });
  }
  const until = nairobiTime(ended.suspendedUntil!);
  return new AppError(
    401,
    'session_ended_suspended',
    `Your account is suspended until ${until} (Nairobi time), so you were signed out. You may log in again to read, but not to post, chat, buy tickets or publish events until then. The moderators' reason: ${reason}`,
    { params: { until, reason }, body },
  );
}

/** The caller, or a 401. */
export function requireUser(req: Request): AuthUser {
  if (!req.user) throw loginRequired(req);
  return req.user;
}

export function requireAdmin(req: Request): AuthUser {
  const user = requireUser(req);
  if (user.role !== 'admin') throw AppError.forbidden('admin_only', 'Only administrators can do that.');
  return user;
}

/**
 * Ids a client puts in a path or body are never trusted: they must name the caller
 * (or the caller must be an admin when `allowAdmin` is set).
 */
export function requireSelf(req: Request, claimedId: unknown, options: { allowAdmin?: boolean } = {}): AuthUser {
  const user = requireUser(req);
  if (claimedId === user.id) return user;
  if (options.allowAdmin && user.role === 'admin') return user;
  throw AppError.forbidden('not_self', 'You can only act on your own account.');
}

/**
 * The one ownership check, made where the resource is loaded (a service, once it has the row): the
 * caller must own it, or be an administrator unless `allowAdmin` is false (editing someone else's
 * words is the author's alone; deleting them is moderation).
 */
export function requireOwner(user: AuthUser, ownerId: string, options: { code?: ErrorCode; message?: string; allowAdmin?: boolean } = {}): AuthUser {
  // A team member the route gate granted a role on the organiser's event (lib/team-access.ts) acts as the organiser.
  const actingFor = (user as Caller).actingFor;
  if (user.id === ownerId || actingFor?.organiserId === ownerId || (options.allowAdmin !== false && user.role === 'admin')) return user;
  throw options.code && options.message ? AppError.forbidden(options.code, options.message) : AppError.forbidden('not_owner', 'Only the owner can do that.');
}

/** Optional ids in bodies (`userId`, `from`) may be omitted, but when present must be the caller. */
export function requireSelfIfPresent(req: Request, claimedId: unknown): AuthUser {
  const user = requireUser(req);
  if (claimedId === undefined || claimedId === null || claimedId === '' || claimedId === user.id) return user;
  throw AppError.forbidden('not_self', 'You can only act on your own account.');
}

/** The refusal a suspended or banned account gets when it tries to post, chat, buy or publish (docs/decisions/moderation.md). */
export function restrictionMessage(user: { suspendedUntil?: Date | null; bannedAt?: Date | null } | undefined, now = new Date()): string | undefined {
  return restrictionError(user, now)?.message;
}

/** The 403 a banned or suspended account gets where posting, chatting, buying or publishing is refused. */
export function restrictionError(user: { suspendedUntil?: Date | null; bannedAt?: Date | null } | undefined, now = new Date()): AppError | undefined {
  if (!user) return undefined;
  const restricted = { restricted: true };
  if (user.bannedAt) return AppError.forbidden('account_banned', 'This account has been banned for breaking the community rules.', { body: restricted });
  if (user.suspendedUntil && user.suspendedUntil.getTime() > now.getTime()) {
    const until = nairobiTime(user.suspendedUntil);
    return AppError.forbidden(
      'account_suspended',
      `Your account is suspended until ${until} (Nairobi time) for breaking the community rules: until then you cannot post, chat, buy tickets or publish events.`,
      { params: { until }, body: restricted },
    );
  }
  return undefined;
}
