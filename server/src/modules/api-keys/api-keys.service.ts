import { createHash, randomBytes } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { restrictionError } from '../../lib/auth.js';
import { toAuthUser, type AuthUser } from '../auth/index.js';
import { createApiKeysRepository, type ApiKeyRow } from './api-keys.repository.js';
import type { ApiKeyScope } from './api-keys.schema.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** Scopes of the API key the request came with (set only on /api/v1). */
    apiKeyScopes?: readonly string[];
  }
}

const KEY_PREFIX = 'tk_live_';
const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');
/** A last-used time is written at most this often per key (not on every call). */
const TOUCH_EVERY_MS = 60_000;

const keyView = (row: ApiKeyRow) => ({
  _id: row.id,
  name: row.name,
  prefix: row.prefix,
  scopes: row.scopes,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  revokedAt: row.revokedAt?.toISOString() ?? null,
});

/** The key a request carries: `Authorization: Bearer tk_live_…` or `X-Api-Key`. */
function keyOf(req: Request): string | undefined {
  const header = req.get('x-api-key')?.trim();
  if (header) return header;
  const bearer = /^Bearer\s+(tk_live_\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
  return bearer;
}

/** Organisers' API keys (docs/decisions/webhooks.md, "API keys"): shown once, stored as SHA-256, revocable. */
export function createApiKeysService(deps: { db: Database }) {
  const { db } = deps;
  const touched = new Map<string, number>();
  return {
    async create(user: AuthUser, input: { name: string; scopes: ApiKeyScope[] }) {
      const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row = await createApiKeysRepository(db).add({ userId: user.id, name: input.name, prefix: key.slice(0, KEY_PREFIX.length + 4), keyHash: hashKey(key), scopes: [...new Set(input.scopes)] });
      return { apiKey: keyView(row), key };
    },
    async list(user: AuthUser) {
      return { apiKeys: (await createApiKeysRepository(db).list(user.id)).map(keyView) };
    },
    async revoke(user: AuthUser, id: string) {
      const row = await createApiKeysRepository(db).revoke(user.id, id);
      if (!row) throw AppError.notFound('api_key_not_found', 'API key not found.');
      return { apiKey: keyView(row) };
    },
    /**
     * For the /api/v1 router: the caller is the key's organiser, with its scopes; a session token does not
     * count there (keys are the only way in), so without a live key the routes answer 401.
     */
    authenticate(): RequestHandler {
      return async (req, _res, next) => {
        try {
          req.user = undefined;
          const key = keyOf(req);
          const found = key ? await createApiKeysRepository(db).findLive(hashKey(key)) : undefined;
          // A suspended or banned organiser's sessions end; their keys stop too, with the same 403 that says why.
          const restricted = found ? restrictionError(found.user) : undefined;
          if (restricted) return next(restricted);
          if (found) {
            req.user = toAuthUser(found.user);
            req.apiKeyScopes = found.key.scopes;
            const now = Date.now();
            if (now - (touched.get(found.key.id) ?? 0) > TOUCH_EVERY_MS) {
              touched.set(found.key.id, now);
              await createApiKeysRepository(db).touch(found.key.id, new Date(now));
            }
          }
          next();
        } catch (error) {
          next(error);
        }
      };
    },
  };
}

/** Refuses a key without `scope` (403). */
export function requireScope(req: Request, scope: ApiKeyScope): void {
  if (!req.apiKeyScopes?.includes(scope)) throw new AppError(403, 'api_key_scope', `This API key may not do that: it lacks the ${scope} scope.`, { params: { scope } });
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
