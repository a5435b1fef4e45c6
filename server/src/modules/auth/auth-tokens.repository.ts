import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { authTokens } from './auth.schema.js';

export type TokenPurpose = (typeof authTokens.$inferSelect)['purpose'];

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export function createAuthTokensRepository(db: Executor) {
  return {
    /** Returns the raw token for the email; only its hash is stored. */
    async issue(userId: string, purpose: TokenPurpose, ttlMs: number): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      await db.insert(authTokens).values({
        id: newId(),
        userId,
        purpose,
        tokenHash: hash(token),
        expiresAt: new Date(Date.now() + ttlMs),
      });
      return token;
    },

    /** Marks a live token used in one statement, so two racing requests cannot both use it. */
    async consume(token: string, purpose: TokenPurpose) {
      const [row] = await db
        .update(authTokens)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(authTokens.tokenHash, hash(token)),
            eq(authTokens.purpose, purpose),
            isNull(authTokens.usedAt),
            gt(authTokens.expiresAt, new Date()),
          ),
        )
        .returning();
      return row;
    },

    async find(token: string, purpose: TokenPurpose) {
      const [row] = await db
        .select()
        .from(authTokens)
        .where(and(eq(authTokens.tokenHash, hash(token)), eq(authTokens.purpose, purpose)))
        .limit(1);
      return row;
    },

    async latestIssuedAt(userId: string, purpose: TokenPurpose): Promise<Date | undefined> {
      const [row] = await db
        .select({ createdAt: authTokens.createdAt })
        .from(authTokens)
        .where(and(eq(authTokens.userId, userId), eq(authTokens.purpose, purpose)))
        .orderBy(desc(authTokens.createdAt))
        .limit(1);
      return row?.createdAt;
    },

    /** A password reset retires every other outstanding reset link of that user. */
    async revokeAll(userId: string, purpose: TokenPurpose): Promise<void> {
      await db
        .update(authTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(authTokens.userId, userId), eq(authTokens.purpose, purpose), isNull(authTokens.usedAt)));
    },
  };
}
