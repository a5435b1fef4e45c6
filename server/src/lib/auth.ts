import { bearerToken } from '@tukio/shared/node/bearer-token';
import type { Request, RequestHandler } from 'express';
import type { AuthService, AuthUser } from '../modules/auth/index.js';
import { AppError, type ErrorCode } from './app-error.js';

declare module 'express-serve-static-core' {
  interface Request {
    user?: AuthUser;
  }
}

/** Reads the bearer token on every request; routes then ask for what they need with the helpers below. */
export function authenticateRequests(auth: AuthService): RequestHandler {
  return async (req, _res, next) => {
    const token = bearerToken(req);
    if (token && token !== 'null' && token !== 'undefined') {
      const user = await auth.authenticate(token);
      if (user) req.user = user;
    }
    next();
  };
}

/** The caller, or a 401. */
export function requireUser(req: Request): AuthUser {
  if (!req.user) throw AppError.unauthorized();
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
  if (user.id === ownerId || (options.allowAdmin !== false && user.role === 'admin')) return user;
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
    const until = `${user.suspendedUntil.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    return AppError.forbidden(
      'account_suspended',
      `Your account is suspended until ${until} for breaking the community rules: until then you cannot post, chat, buy tickets or publish events.`,
      { params: { until }, body: restricted },
    );
  }
  return undefined;
}
