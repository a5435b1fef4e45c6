import { and, count, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { afterTimeKey, epochMicros } from '../../db/keyset-sql.js';
import type { CursorKey } from '../../lib/keyset-page.js';
import { chatBlocks, chatMessages } from './chat.schema.js';

export type ChatMessageRow = typeof chatMessages.$inferSelect;

export function createChatRepository(db: Executor) {
  const between = (a: string, b: string) =>
    or(
      and(eq(chatMessages.senderId, a), eq(chatMessages.recipientId, b)),
      and(eq(chatMessages.senderId, b), eq(chatMessages.recipientId, a)),
    );

  /** The people `userId` has exchanged messages with and when the last message went either way, less those who blocked `userId`. */
  const partnersOf = (userId: string) => {
    const other = sql<string>`case when ${chatMessages.senderId} = ${userId} then ${chatMessages.recipientId} else ${chatMessages.senderId} end`;
    return db
      .select({ other: other.as('other'), lastAt: sql<Date>`max(${chatMessages.createdAt})`.as('last_at') })
      .from(chatMessages)
      .where(
        and(
          or(eq(chatMessages.senderId, userId), eq(chatMessages.recipientId, userId)),
          // Someone who blocked the caller drops out of the caller's contacts (docs/decisions/moderation.md).
          sql`not exists (select 1 from ${chatBlocks} where ${chatBlocks.blockerId} = ${other} and ${chatBlocks.blockedId} = ${userId})`,
        ),
      )
      // By position: the expression repeated would bind `userId` as a second parameter, which PostgreSQL
      // does not see as the same expression as the selected one.
      .groupBy(sql`1`)
      .as('partners');
  };

  return {
    /** Most recent conversation first: `limit` contacts' ids after the cursor, each with its last message time in microseconds. */
    async contactPage(userId: string, page: { limit: number; after: CursorKey | undefined }): Promise<Array<{ contactId: string; lastMicros: string }>> {
      const partners = partnersOf(userId);
      return db
        .select({ contactId: partners.other, lastMicros: epochMicros(partners.lastAt) })
        .from(partners)
        .where(afterTimeKey('desc', partners.lastAt, partners.other, page.after))
        .orderBy(desc(partners.lastAt), desc(partners.other))
        .limit(page.limit);
    },

    /**
     * Each of `userIds` with each person they have exchanged a message with, less the pairs with a block
     * either way: who may see whose presence (a stranger, or someone on either side of a block, may not).
     */
    async contactPairs(userIds: string[]): Promise<Array<{ userId: string; contactId: string }>> {
      if (userIds.length === 0) return [];
      const ids = sql.join(userIds.map((id) => sql`${id}`), sql`, `);
      const result = (await db.execute(sql`
        select pairs.user_id, pairs.contact_id from (
          select ${chatMessages.senderId} as user_id, ${chatMessages.recipientId} as contact_id from ${chatMessages} where ${chatMessages.senderId} in (${ids})
          union
          select ${chatMessages.recipientId}, ${chatMessages.senderId} from ${chatMessages} where ${chatMessages.recipientId} in (${ids})
        ) pairs
        where not exists (
          select 1 from ${chatBlocks}
          where (${chatBlocks.blockerId} = pairs.user_id and ${chatBlocks.blockedId} = pairs.contact_id)
             or (${chatBlocks.blockerId} = pairs.contact_id and ${chatBlocks.blockedId} = pairs.user_id)
        )`)) as unknown as { rows: Array<{ user_id: string; contact_id: string }> };
      return result.rows.map((row) => ({ userId: row.user_id, contactId: row.contact_id }));
    },

    /** Whether `contactId` is one of `userId`'s contacts: they have exchanged a message and `contactId` has not blocked `userId`. */
    async isContact(userId: string, contactId: string): Promise<boolean> {
      const result = (await db.execute(sql`select
        exists (select 1 from ${chatMessages} where ${between(userId, contactId)})
        and not exists (select 1 from ${chatBlocks} where ${chatBlocks.blockerId} = ${contactId} and ${chatBlocks.blockedId} = ${userId}) as contact`)) as unknown as { rows: Array<{ contact: boolean }> };
      return result.rows[0]?.contact === true;
    },

    async countContacts(userId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(partnersOf(userId));
      return row?.n ?? 0;
    },

    /** Newest first: `limit` messages of the pair after the cursor, each with its time in microseconds. */
    async conversationPage(a: string, b: string, page: { limit: number; after: CursorKey | undefined }) {
      return db
        .select({ row: chatMessages, createdMicros: epochMicros(chatMessages.createdAt) })
        .from(chatMessages)
        .where(and(between(a, b), afterTimeKey('desc', chatMessages.createdAt, chatMessages.id, page.after)))
        .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
        .limit(page.limit);
    },

    async countConversation(a: string, b: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(chatMessages).where(between(a, b));
      return row?.n ?? 0;
    },

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

    async findById(id: string): Promise<ChatMessageRow | undefined> {
      const [row] = await db.select().from(chatMessages).where(eq(chatMessages.id, id)).limit(1);
      return row;
    },

    /** Hides (moderator and reason) or shows again; true when the message exists. */
    async setHidden(id: string, hidden: { by: string; reason: string } | null): Promise<boolean> {
      const rows = await db
        .update(chatMessages)
        .set(hidden ? { hiddenAt: new Date(), hiddenReason: hidden.reason, hiddenBy: hidden.by } : { hiddenAt: null, hiddenReason: null, hiddenBy: null })
        .where(eq(chatMessages.id, id))
        .returning({ id: chatMessages.id });
      return rows.length > 0;
    },

    async delete(id: string): Promise<void> {
      await db.delete(chatMessages).where(eq(chatMessages.id, id));
    },

    /**
     * The blocks between the two users of any of these pairs, either way round (a block stops messages both
     * ways: neither side is left shouting into a wall). Many pairs at once: the chat service checks the
     * messages of the moment together.
     */
    async blocksBetween(pairs: Array<readonly [string, string]>): Promise<Array<{ blockerId: string; blockedId: string }>> {
      const eitherWay = pairs.flatMap(([a, b]) => [sql`(${a}, ${b})`, sql`(${b}, ${a})`]);
      return db
        .select({ blockerId: chatBlocks.blockerId, blockedId: chatBlocks.blockedId })
        .from(chatBlocks)
        .where(sql`(${chatBlocks.blockerId}, ${chatBlocks.blockedId}) IN (${sql.join(eitherWay, sql`, `)})`);
    },

    async block(blockerId: string, blockedId: string): Promise<void> {
      await db.insert(chatBlocks).values({ blockerId, blockedId }).onConflictDoNothing();
    },

    async unblock(blockerId: string, blockedId: string): Promise<void> {
      await db.delete(chatBlocks).where(and(eq(chatBlocks.blockerId, blockerId), eq(chatBlocks.blockedId, blockedId)));
    },

    /** Whom `blockerId` blocked, most recent first. */
    async blockedBy(blockerId: string): Promise<Array<{ blockedId: string; blockedAt: Date }>> {
      return db
        .select({ blockedId: chatBlocks.blockedId, blockedAt: chatBlocks.createdAt })
        .from(chatBlocks)
        .where(eq(chatBlocks.blockerId, blockerId))
        .orderBy(desc(chatBlocks.createdAt));
    },

    /** Unread messages per sender, for the `limit` senders who wrote last. */
    async unreadCounts(recipientId: string, limit: number) {
      return db
        .select({ from: chatMessages.senderId, count: sql<number>`count(*)::int` })
        .from(chatMessages)
        .where(and(eq(chatMessages.recipientId, recipientId), isNull(chatMessages.readAt)))
        .groupBy(chatMessages.senderId)
        .orderBy(desc(sql`max(${chatMessages.createdAt})`))
        .limit(limit);
    },
  };
}
