import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { chatMessages } from '../../db/schema.js';

export type ChatMessageRow = typeof chatMessages.$inferSelect;

export function createChatRepository(db: Executor) {
  const between = (a: string, b: string) =>
    or(
      and(eq(chatMessages.senderId, a), eq(chatMessages.recipientId, b)),
      and(eq(chatMessages.senderId, b), eq(chatMessages.recipientId, a)),
    );

  return {
    /**
     * Rows in the order given (matched by id: RETURNING's order is not promised). Without
     * `synchronousCommit` their transaction commits asynchronously (SET LOCAL: this transaction only).
     */
    async insertMany(
      messages: Array<{ senderId: string; recipientId: string; text: string }>,
      options: { synchronousCommit: boolean },
    ): Promise<ChatMessageRow[]> {
      const values = messages.map((message) => ({ id: newId(), ...message }));
      const inserted = options.synchronousCommit
        ? await db.insert(chatMessages).values(values).returning()
        : await db.transaction(async (tx) => {
            await tx.execute(sql`SET LOCAL synchronous_commit TO OFF`);
            return tx.insert(chatMessages).values(values).returning();
          });
      const byId = new Map(inserted.map((row) => [row.id, row]));
      return values.map((value) => byId.get(value.id)!);
    },

    /** Newest `limit` messages before the cursor, returned oldest first. */
    async conversation(a: string, b: string, options: { before?: Date | undefined; limit: number }) {
      const rows = await db
        .select()
        .from(chatMessages)
        .where(options.before ? and(between(a, b), lt(chatMessages.createdAt, options.before)) : between(a, b))
        .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
        .limit(options.limit);
      return rows.reverse();
    },

    async markRead(recipientId: string, senderId: string) {
      await db
        .update(chatMessages)
        .set({ readAt: new Date() })
        .where(and(eq(chatMessages.recipientId, recipientId), eq(chatMessages.senderId, senderId), isNull(chatMessages.readAt)));
    },

    async unreadCounts(recipientId: string) {
      return db
        .select({ from: chatMessages.senderId, count: sql<number>`count(*)::int` })
        .from(chatMessages)
        .where(and(eq(chatMessages.recipientId, recipientId), isNull(chatMessages.readAt)))
        .groupBy(chatMessages.senderId);
    },
  };
}
