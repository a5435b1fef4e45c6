import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { chatBlocks, chatMessages } from '../chat/index.js';
import { users } from './auth.schema.js';
import { normaliseAccountName, usernameSkeleton } from './account-names.js';

export type UserRow = typeof users.$inferSelect;

/** What a request's session needs of its user: no avatar (up to 100 KB), no password hash. */
const sessionColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  role: users.role,
  suspendedUntil: users.suspendedUntil,
  bannedAt: users.bannedAt,
  tokenVersion: users.tokenVersion,
};
export type SessionUserRow = { [K in keyof typeof sessionColumns]: UserRow[K] };
export type NewUser = Omit<typeof users.$inferInsert, 'id' | 'usernameSkeleton'> & { id?: string };

const lower = normaliseAccountName;

export function createUsersRepository(db: Executor) {
  return {
    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    /** Several users' session fields in one query (the auth service batches its cache misses). */
    async findSessionUsers(ids: string[]): Promise<SessionUserRow[]> {
      return db.select(sessionColumns).from(users).where(inArray(users.id, ids));
    },

    /** Login accepts either the username or the email address, case-insensitively. */
    async findByLogin(login: string): Promise<UserRow | undefined> {
      const value = lower(login);
      const [row] = await db
        .select()
        .from(users)
        .where(or(sql`lower(${users.username}) = ${value}`, sql`lower(${users.email}) = ${value}`))
        .limit(1);
      return row;
    },

    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${lower(email)}`).limit(1);
      return row;
    },

    async findByUsername(username: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(sql`lower(${users.username}) = ${lower(username)}`).limit(1);
      return row;
    },

    /** Another account whose username looks like this one (same confusable skeleton). */
    async findByUsernameSkeleton(username: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.usernameSkeleton, usernameSkeleton(username))).limit(1);
      return row;
    },

    async insert(user: NewUser): Promise<UserRow> {
      const [row] = await db
        .insert(users)
        .values({ id: newId(), ...user, usernameSkeleton: usernameSkeleton(user.username) })
        .returning();
      return row!;
    },

    /** Inserts a user with a fixed id (the system account) unless it exists already. */
    async insertIfAbsent(user: NewUser & { id: string }): Promise<void> {
      await db
        .insert(users)
        .values({ ...user, usernameSkeleton: usernameSkeleton(user.username) })
        .onConflictDoNothing();
    },

    async update(id: string, changes: Partial<Omit<UserRow, 'id' | 'createdAt' | 'usernameSkeleton'>>): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({
          ...changes,
          ...(changes.username ? { usernameSkeleton: usernameSkeleton(changes.username) } : {}),
          updatedAt: new Date(),
        })
        .where(eq(users.id, id))
        .returning();
      return row;
    },

    /**
     * Fills `username_skeleton` for rows written before it existed (or inserted by hand), oldest first.
     * Returns the names left without one because an older account already has a look-alike name.
     */
    async backfillUsernameSkeletons(): Promise<string[]> {
      const rows = await db
        .select({ id: users.id, username: users.username })
        .from(users)
        .where(isNull(users.usernameSkeleton))
        .orderBy(users.createdAt, users.id);
      if (rows.length === 0) return [];
      const taken = new Set(
        (await db.select({ skeleton: users.usernameSkeleton }).from(users).where(isNotNull(users.usernameSkeleton))).map((row) => row.skeleton),
      );
      const clashes: string[] = [];
      for (const row of rows) {
        const skeleton = usernameSkeleton(row.username);
        if (taken.has(skeleton)) {
          clashes.push(row.username);
          continue;
        }
        taken.add(skeleton);
        await db.update(users).set({ usernameSkeleton: skeleton }).where(eq(users.id, row.id));
      }
      return clashes;
    },

    /** Name, avatar ('' for none) and guest phone of these accounts, for chat's lists (ChatPeople). */
    async profiles(ids: string[]) {
      return db
        .select({ id: users.id, username: users.username, avatarImage: sql<string>`coalesce(${users.avatarImage}, '')`, guestPhone: users.guestPhone })
        .from(users)
        .where(inArray(users.id, ids));
    },

    async bumpTokenVersion(id: string): Promise<void> {
      await db
        .update(users)
        .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
        .where(eq(users.id, id));
    },

    /** Chat contacts: the people `userId` has exchanged messages with, most recent conversation first. */
    async listContacts(userId: string, limit: number) {
      const other = sql<string>`case when ${chatMessages.senderId} = ${userId} then ${chatMessages.recipientId} else ${chatMessages.senderId} end`;
      const partners = db
        .select({ other: other.as('other'), lastAt: sql<Date>`max(${chatMessages.createdAt})`.as('last_at') })
        .from(chatMessages)
        .where(or(eq(chatMessages.senderId, userId), eq(chatMessages.recipientId, userId)))
        // By position: the expression repeated would bind `userId` as a second parameter, which PostgreSQL
        // does not see as the same expression as the selected one.
        .groupBy(sql`1`)
        .as('partners');
      return db
        .select({ _id: users.id, username: users.username, avatarImage: sql<string>`coalesce(${users.avatarImage}, '')` })
        .from(partners)
        .innerJoin(users, eq(users.id, partners.other))
        // Someone who blocked the caller drops out of the caller's contacts (docs/decisions/moderation.md).
        .where(sql`not exists (select 1 from ${chatBlocks} where ${chatBlocks.blockerId} = ${users.id} and ${chatBlocks.blockedId} = ${userId})`)
        .orderBy(desc(partners.lastAt), asc(users.id))
        .limit(limit);
    },

    /**
     * Users whose username starts with `prefix` (any case) who can chat: verified, with an avatar; one page
     * in username order, plus one row to tell whether another page follows.
     */
    async searchByUsernamePrefix(prefix: string, options: { exceptId: string; limit: number; offset: number }) {
      return db
        .select({ _id: users.id, username: users.username, avatarImage: sql<string>`${users.avatarImage}` })
        .from(users)
        .where(
          and(
            sql`starts_with(lower(${users.username}), lower(${prefix}))`,
            ne(users.id, options.exceptId),
            eq(users.isAvatarImageSet, true),
            isNotNull(users.avatarImage),
            isNotNull(users.emailVerifiedAt),
            // Guest shadow accounts are no one to chat with (docs/decisions/guest-checkout.md).
            isNull(users.guestPhone),
            sql`not exists (select 1 from ${chatBlocks} where ${chatBlocks.blockerId} = ${users.id} and ${chatBlocks.blockedId} = ${options.exceptId})`,
          ),
        )
        .orderBy(sql`lower(${users.username})`, asc(users.id))
        .limit(options.limit)
        .offset(options.offset);
    },
  };
}
