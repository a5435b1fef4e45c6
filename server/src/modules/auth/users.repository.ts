import { and, eq, isNotNull, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { users } from '../../db/schema.js';

export type UserRow = typeof users.$inferSelect;
export type NewUser = Omit<typeof users.$inferInsert, 'id'> & { id?: string };

const lower = (value: string) => value.trim().toLowerCase();

export function createUsersRepository(db: Executor) {
  return {
    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
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

    async insert(user: NewUser): Promise<UserRow> {
      const [row] = await db.insert(users).values({ id: newId(), ...user }).returning();
      return row!;
    },

    async update(id: string, changes: Partial<Omit<UserRow, 'id' | 'createdAt'>>): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning();
      return row;
    },

    async bumpTokenVersion(id: string): Promise<void> {
      await db
        .update(users)
        .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
        .where(eq(users.id, id));
    },

    /** Chat contacts: everyone else who has chosen an avatar. */
    async listContacts(exceptId: string) {
      return db
        .select({ _id: users.id, username: users.username, avatarImage: users.avatarImage })
        .from(users)
        .where(and(ne(users.id, exceptId), eq(users.isAvatarImageSet, true), isNotNull(users.avatarImage)))
        .orderBy(users.username);
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
