import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { users } from '../auth/index.js';
import { apiKeys } from './api-keys.schema.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** Organisers' API keys (hashes only). */
export function createApiKeysRepository(db: Executor) {
  return {
    async add(row: Pick<ApiKeyRow, 'userId' | 'name' | 'prefix' | 'keyHash' | 'scopes'>): Promise<ApiKeyRow> {
      const [created] = await db.insert(apiKeys).values({ id: newId(), ...row }).returning();
      return created!;
    },
    list: (userId: string) => db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt)),
    async revoke(userId: string, id: string): Promise<ApiKeyRow | undefined> {
      const [row] = await db
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .returning();
      return row;
    },
    /** The live key with this hash and its organiser's account. */
    async findLive(keyHash: string) {
      const [row] = await db
        .select({ key: apiKeys, user: { id: users.id, username: users.username, email: users.email, role: users.role, suspendedUntil: users.suspendedUntil, bannedAt: users.bannedAt } })
        .from(apiKeys)
        .innerJoin(users, eq(users.id, apiKeys.userId))
        .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
        .limit(1);
      return row;
    },
    touch: (id: string, at: Date) => db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, id)),
  };
}
