import { randomBytes } from 'node:crypto';
import type { Language } from '@tukio/shared/languages';
import bcrypt from 'bcryptjs';
import type { Executor } from '../../db/database.js';
import { SYSTEM_USER_ID } from '../../db/ids.js';
import { hashPassword, toAuthUser, type AuthUser } from './auth.service.js';
import { createUsersRepository, type UserRow } from './users.repository.js';

/*
 * Accounts as other modules and the composition code need them, one function per use case: the seeding at
 * start (bootstrap), guest checkout's shadow accounts, a ticket transfer's recipient, the spam brakes' account
 * age, chat's people. They take an Executor (the database or the caller's transaction) and, like the
 * repository they call, announce nothing on the change feed: none of them changes what a session is (name,
 * email, role, bans). Sign-up, sign-in and profile edits stay in the auth service.
 */

/** The owner of imported (scraped) events; it has a random password nobody knows, so it cannot log in. */
export async function ensureSystemAccount(executor: Executor, passwordHashCost?: number): Promise<void> {
  await createUsersRepository(executor).insertIfAbsent({
    id: SYSTEM_USER_ID,
    username: 'tukio-importer',
    email: 'importer@tukio.invalid',
    passwordHash: await hashPassword(randomBytes(24).toString('hex'), passwordHashCost),
    emailVerifiedAt: new Date(),
  });
}

/**
 * ADMIN_USERNAME/EMAIL/PASSWORD: makes the account with that name or email an admin with this password
 * (verified if it was not), or creates it. Answers which it did, with the account's username.
 */
export async function ensureAdminAccount(
  executor: Executor,
  admin: { username: string; email: string; password: string },
  passwordHashCost?: number,
): Promise<{ username: string; outcome: 'promoted' | 'created' }> {
  const repo = createUsersRepository(executor);
  const existing = (await repo.findByUsername(admin.username)) ?? (await repo.findByEmail(admin.email));
  const passwordHash = await hashPassword(admin.password, passwordHashCost);
  if (existing) {
    await repo.update(existing.id, { role: 'admin', passwordHash, emailVerifiedAt: existing.emailVerifiedAt ?? new Date() });
    return { username: existing.username, outcome: 'promoted' };
  }
  await repo.insert({ username: admin.username, email: admin.email.toLowerCase(), passwordHash, role: 'admin', emailVerifiedAt: new Date() });
  return { username: admin.username, outcome: 'created' };
}

/** Whether an account has this username (any case). */
export async function usernameTaken(executor: Executor, username: string): Promise<boolean> {
  return (await createUsersRepository(executor).findByUsername(username)) !== undefined;
}

/** An account whose email is already verified, for seeding (bootstrap's demo users): no link is sent. */
export async function createVerifiedAccount(
  executor: Executor,
  account: { username: string; email: string; passwordHash: string; emailVerifiedAt: Date; role?: 'user' | 'admin'; avatarImage?: string },
): Promise<AuthUser> {
  const { avatarImage, ...rest } = account;
  const row = await createUsersRepository(executor).insert({ ...rest, ...(avatarImage === undefined ? {} : { avatarImage, isAvatarImageSet: true }) });
  return toAuthUser(row);
}

/**
 * Fills `username_skeleton` for rows written before it existed (or inserted by hand), oldest first.
 * Returns the names left without one because an older account already has a look-alike name.
 */
export function backfillUsernameSkeletons(executor: Executor): Promise<string[]> {
  return createUsersRepository(executor).backfillUsernameSkeletons();
}

/** A phone's shadow account (guest checkout, docs/decisions/guest-checkout.md): it cannot log in and is listed nowhere. */
export async function createShadowAccount(
  executor: Executor,
  account: { username: string; email: string; passwordHash: string; guestPhone: string; language: Language },
): Promise<{ id: string }> {
  const row = await createUsersRepository(executor).insert(account);
  return { id: row.id };
}

/** The language an account's SMS and emails are written in. */
export async function setAccountLanguage(executor: Executor, userId: string, language: Language): Promise<void> {
  await createUsersRepository(executor).update(userId, { language });
}

/** The account a username or email address names (any case), e.g. a ticket transfer's recipient. */
export async function findAccountByLogin(
  executor: Executor,
  login: string,
): Promise<Pick<UserRow, 'id' | 'username' | 'email' | 'language'> | undefined> {
  const row = await createUsersRepository(executor).findByLogin(login);
  return row && { id: row.id, username: row.username, email: row.email, language: row.language };
}

/**
 * Whether `password` is the account's own, checked as login checks it (bcrypt): the re-confirmation a
 * sensitive change asks for (where an organiser is paid). A guest's shadow account never matches.
 */
export async function passwordMatches(executor: Executor, userId: string, password: string): Promise<boolean> {
  const row = await createUsersRepository(executor).findById(userId);
  if (!row || row.guestPhone) return false;
  return bcrypt.compare(password, row.passwordHash);
}

/** Who an account's mail goes to and in which language. */
export async function accountContact(executor: Executor, userId: string): Promise<Pick<UserRow, 'username' | 'email' | 'language'> | undefined> {
  const row = await createUsersRepository(executor).findById(userId);
  return row && { username: row.username, email: row.email, language: row.language };
}

/** How far an account is trusted yet: when it was made and whether (since when) its email is verified. */
export async function accountStanding(executor: Executor, userId: string): Promise<Pick<UserRow, 'createdAt' | 'emailVerifiedAt'> | undefined> {
  const row = await createUsersRepository(executor).findById(userId);
  return row && { createdAt: row.createdAt, emailVerifiedAt: row.emailVerifiedAt };
}

/** Chat's people (its ChatPeople port, filled in app.ts): each account's name, avatar and whether it is a guest's shadow account. */
export async function chatProfiles(executor: Executor, ids: string[]): Promise<Array<{ id: string; username: string; avatarImage: string; guest: boolean }>> {
  const rows = await createUsersRepository(executor).profiles(ids);
  return rows.map((row) => ({ id: row.id, username: row.username, avatarImage: row.avatarImage, guest: row.guestPhone !== null }));
}
