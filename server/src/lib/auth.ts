import type { Request, RequestHandler } from 'express';
import type { AuthService, AuthUser } from '../modules/auth/auth.service.js';
import { AppError } from './app-error.js';

declare module 'express-serve-static-core' {
  interface Request {
    user?: AuthUser;
  }
}

export function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
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
  if (user.role !== 'admin') throw AppError.forbidden('Only administrators can do that.');
  return user;
}

export const isAdmin = (user: AuthUser | undefined) => user?.role === 'admin';

/**
 * Ids a client puts in a path or body are never trusted: they must name the caller
 * (or the caller must be an admin when `allowAdmin` is set).
 */
export function requireSelf(req: Request, claimedId: unknown, options: { allowAdmin?: boolean } = {}): AuthUser {
  const user = requireUser(req);
  if (claimedId === user.id) return user;
  if (options.allowAdmin && user.role === 'admin') return user;
  throw AppError.forbidden('You can only act on your own account.');
}

/** Owner of a resource, or an admin. */
export function requireOwner(req: Request, ownerId: string, message = 'Only the owner can do that.'): AuthUser {
  const user = requireUser(req);
  if (user.id === ownerId || user.role === 'admin') return user;
  throw AppError.forbidden(message);
}

/** Optional ids in bodies (`userId`, `from`) may be omitted, but when present must be the caller. */
export function requireSelfIfPresent(req: Request, claimedId: unknown): AuthUser {
  const user = requireUser(req);
  if (claimedId === undefined || claimedId === null || claimedId === '' || claimedId === user.id) return user;
  throw AppError.forbidden('You can only act on your own account.');
}
