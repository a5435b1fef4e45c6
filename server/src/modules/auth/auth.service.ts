import { createSecretKey } from 'node:crypto';
import { createBatcher } from '@tukio/shared/node/batcher';
import bcrypt from 'bcryptjs';
import jwt from 'jsonwebtoken';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { ChangeFeed } from '../../lib/change-feed.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { escapeHtml } from '../../lib/html.js';
import { translator, type Language } from '../../lib/i18n.js';
import { createBackgroundQueue } from '../../lib/keyed-queue.js';
import type { Logger } from '../../lib/logger.js';
import { createTtlCache } from '../../lib/ttl-cache.js';
import type { MailOutbox } from '../mail/index.js';
import { normaliseAccountName } from './account-names.js';
import { createAuthTokensRepository } from './auth-tokens.repository.js';
import { validateAvatarImage } from './avatar.js';
import { createUsersRepository, type UserRow } from './users.repository.js';

export interface AuthUser {
  id: string;
  username: string;
  email: string;
  role: 'user' | 'admin';
  /** Moderation (docs/decisions/moderation.md): no posting, chatting, buying or new events before this time. */
  suspendedUntil?: Date | null;
  /** Moderation: banned accounts cannot post (nor log in again). */
  bannedAt?: Date | null;
}

export interface AuthServiceDeps {
  db: Database;
  /** Account emails go through the outbox (written now, sent by a job, kept across a restart). */
  mailer: Pick<MailOutbox, 'send'>;
  logger: Logger;
  publicUrl: string;
  jwtSecret: string;
  jwtExpiresIn: string;
  /** bcrypt's cost factor for new password hashes (default DEFAULT_PASSWORD_HASH_COST). */
  passwordHashCost?: number;
  /** Account writes are announced here (topic `user`), so every instance drops its cached lookup. */
  changes: ChangeFeed;
  /**
   * How long a token's user lookup is reused (0 = never). Every account write through any instance
   * drops it at once; the time to live only bounds a change made outside the app (e.g. a row
   * deleted by hand).
   */
  authCacheMs?: number;
  /**
   * Told after a login or an email verification succeeds, with whether the address is verified: guest
   * checkout (above auth) moves the account's guest orders onto it there. Awaited; must not throw.
   */
  onSignedIn?: ((user: { id: string; email: string; emailVerified: boolean }) => Promise<unknown>) | undefined;
}

const HOUR = 60 * 60 * 1000;
const VERIFY_TTL = 48 * HOUR;
const RESET_TTL = HOUR;
/** A login attempt by an unverified user re-sends the link, but not more often than this. */
const RESEND_INTERVAL = 2 * 60 * 1000;
/** bcrypt's cost factor unless the configuration says otherwise (PASSWORD_HASH_COST: the test servers use 4). */
export const DEFAULT_PASSWORD_HASH_COST = 10;
/** Reset and verification emails waiting to be looked up and sent; past this, requests are dropped (and logged). */
const MAX_QUEUED_ACCOUNT_MAILS = 1000;
/** Chat contacts listed at most (the most recent conversations). */
export const MAX_CONTACTS = 500;
/** Users per page of a username search; pages beyond USER_SEARCH_MAX_PAGE (@tukio/shared/limits) need a longer prefix. */
export const USER_SEARCH_PAGE_SIZE = 20;

/** The one password hash: accounts, and the accounts bootstrap creates before the app starts. */
export const hashPassword = (password: string, cost = DEFAULT_PASSWORD_HASH_COST) => bcrypt.hash(password, cost);

/** Per cost: an unknown username's login compares against a hash as costly as an account's would be. */
const dummyHashes = new Map<number, Promise<string>>();
const timingDummyHash = (cost: number) => {
  let hash = dummyHashes.get(cost);
  if (!hash) dummyHashes.set(cost, (hash = hashPassword('timing-equaliser', cost)));
  return hash;
};

export const messages = {
  registered: 'Registration successful. Please check your email to verify your account.',
  usernameTaken: 'Username already used',
  usernameLookAlike: 'This username looks too much like one already used. Please choose another.',
  emailTaken: 'Email already used',
  badLogin: 'Incorrect Username or Password',
  unverified:
    'Please verify your email before logging in. We have sent a new verification link to your email address.',
  loggedIn: 'Login successful',
  banned: 'This account has been banned for breaking the community rules.',
  deactivated: 'This account is being deleted. To keep it, follow the undo link in the email we sent when the deletion was confirmed.',
  badLink: 'This link is invalid or has expired.',
} as const;

/** The identity requests act as: a user row (or the token cache's copy of one) without its secrets. */
export const toAuthUser = (user: Pick<UserRow, 'id' | 'username' | 'email' | 'role'> & Partial<Pick<UserRow, 'suspendedUntil' | 'bannedAt'>>): AuthUser => ({
  id: user.id,
  username: user.username,
  email: user.email,
  role: user.role,
  suspendedUntil: user.suspendedUntil ?? null,
  bannedAt: user.bannedAt ?? null,
});

export function toPublicUser(user: UserRow) {
  return {
    _id: user.id,
    username: user.username,
    email: user.email,
    avatarImage: user.avatarImage ?? '',
    isAvatarImageSet: user.isAvatarImageSet,
    role: user.role,
    language: user.language,
  };
}

export function createAuthService(deps: AuthServiceDeps) {
  // A prepared secret key: given a string, jsonwebtoken first tries (and fails) to parse it as a
  // public key on every verify, which costs more than the HMAC itself.
  const verifyKey = createSecretKey(Buffer.from(deps.jwtSecret));
  const passwordHashCost = deps.passwordHashCost ?? DEFAULT_PASSWORD_HASH_COST;
  const users = createUsersRepository(deps.db);
  const tokens = createAuthTokensRepository(deps.db);
  /** Who a token's subject is, by user id: what `authenticate` needs, with the token version to compare. */
  const known = createTtlCache<AuthUser & { tokenVersion: number }>({ ttlMs: deps.authCacheMs ?? 10_000, max: 50_000 });
  /**
   * Cache misses looked up together: with thousands of chat sockets every message checks its sender's
   * session, and each user's entry expires between their messages; one query for the misses of the moment
   * instead of one each.
   */
  const loadSessionUser = createBatcher(
    async (ids: string[]) => {
      const rows = new Map((await users.findSessionUsers([...new Set(ids)])).map((row) => [row.id, row]));
      return ids.map((id) => rows.get(id));
    },
    // Several on the way at once: a slow lookup must not hold every other request's session behind it.
    { maxBatch: 500, inFlight: 4 },
  );
  /** Bumped by every account change, so a lookup that started before it never caches what it read. */
  let generation = 0;
  deps.changes.subscribe('user', (id) => {
    generation += 1;
    known.forget(id);
  });
  /** Announces an account write to this and every other instance; called once the write is done. */
  const changed = (userId: string) => deps.changes.publish('user', userId);

  const link = (route: string, token: string) => `${deps.publicUrl}/${route}/${token}`;
  /**
   * Account emails that must not be waited for: the request is answered first, so its timing does not
   * tell whether the address has an account.
   */
  const mailQueue = createBackgroundQueue();
  function afterAnswering(what: string, job: () => Promise<void>) {
    if (mailQueue.pending >= MAX_QUEUED_ACCOUNT_MAILS) {
      deps.logger.error(`${what}: too many queued, request dropped`);
      return;
    }
    mailQueue.push(job, (error) => deps.logger.error(`${what} failed`, error));
  }

  /** An account mail in the account's language: a greeting, then the catalog's text and HTML for `kind`. */
  function accountMail(user: UserRow, kind: 'verify' | 'reset', url: string) {
    const t = translator(user.language);
    const hello = t('mail.hello', { username: user.username });
    const htmlHello = t('mail.hello', { username: escapeHtml(user.username) });
    return {
      to: user.email,
      subject: t(`auth.${kind}Subject`),
      text: `${hello}\n\n${t(`auth.${kind}Text`, { url })}\n`,
      html: `<p>${htmlHello}</p>${t(`auth.${kind}Html`, { url })}`,
    };
  }

  async function sendVerification(user: UserRow) {
    const token = await tokens.issue(user.id, 'verify-email', VERIFY_TTL);
    await deps.mailer.send(accountMail(user, 'verify', link('verify', token)), 'account verification');
  }

  async function sendPasswordReset(email: string) {
    const user = await users.findByEmail(email);
    // A guest's shadow account has no password to reset (and its placeholder address receives nothing).
    if (!user || user.guestPhone) return;
    const token = await tokens.issue(user.id, 'reset-password', RESET_TTL);
    await deps.mailer.send(accountMail(user, 'reset', link('reset-password', token)), 'password reset');
  }

  async function assertUnique(changes: { username?: string | undefined; email?: string | undefined }, exceptId?: string) {
    if (changes.username) {
      const existing = await users.findByUsername(changes.username);
      if (existing && existing.id !== exceptId) throw AppError.conflict('username_taken', messages.usernameTaken, 'username');
      const lookAlike = await users.findByUsernameSkeleton(changes.username);
      if (lookAlike && lookAlike.id !== exceptId) throw AppError.conflict('username_look_alike', messages.usernameLookAlike, 'username');
    }
    if (changes.email) {
      const existing = await users.findByEmail(changes.email);
      if (existing && existing.id !== exceptId) throw AppError.conflict('email_taken', messages.emailTaken, 'email');
    }
  }

  /** A write that may race another one past assertUnique: the unique indexes decide, with the same messages. */
  async function writeUnique<T>(changes: Parameters<typeof assertUnique>[0], exceptId: string | undefined, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) await assertUnique(changes, exceptId);
      throw error;
    }
  }

  function issueToken(user: UserRow): string {
    return jwt.sign({ tv: user.tokenVersion }, deps.jwtSecret, {
      subject: user.id,
      expiresIn: deps.jwtExpiresIn as jwt.SignOptions['expiresIn'],
    });
  }

  return {
    async register(input: { username: string; email: string; password: string; language?: Language | undefined; smsPromotions?: boolean | undefined }) {
      await assertUnique(input);
      const passwordHash = await hashPassword(input.password, passwordHashCost);
      const user = await writeUnique(input, undefined, () =>
        users.insert({
          username: input.username,
          email: input.email.toLowerCase(),
          passwordHash,
          ...(input.language ? { language: input.language } : {}),
          smsPromotions: input.smsPromotions === true,
        }),
      );
      await sendVerification(user);
      return { msg: messages.registered };
    },

    async verifyEmail(token: string) {
      const consumed = await tokens.consume(token, 'verify-email');
      if (consumed) {
        const verified = await users.update(consumed.userId, { emailVerifiedAt: new Date() });
        changed(consumed.userId);
        if (verified) await deps.onSignedIn?.({ id: verified.id, email: verified.email, emailVerified: true });
        return;
      }
      // Opening the same link twice (or a page that calls twice) is not an error once verified.
      const used = await tokens.find(token, 'verify-email');
      const owner = used?.usedAt ? await users.findById(used.userId) : undefined;
      if (owner?.emailVerifiedAt) return;
      throw new AppError(400, 'verification_link_invalid', 'Email verification failed. The link is invalid or has expired.');
    },

    /** POST /resend-verification: answered at once, the link (if any) is sent afterwards. */
    requestVerificationResend(login: string) {
      afterAnswering('verification email', () => this.resendVerification(login));
    },

    async resendVerification(login: string) {
      const user = await users.findByLogin(login);
      if (!user || user.emailVerifiedAt || user.guestPhone) return;
      const last = await tokens.latestIssuedAt(user.id, 'verify-email');
      if (last && Date.now() - last.getTime() < RESEND_INTERVAL) return;
      await sendVerification(user);
    },

    /**
     * The key of a login name's failed-login budget: its account, so the username and the email spend
     * one budget; a name without an account keys on itself (normalised).
     */
    async loginAccountKey(login: string): Promise<string> {
      const user = await users.findByLogin(login);
      return user ? `user:${user.id}` : `name:${normaliseAccountName(login)}`;
    },

    async login(input: { username: string; password: string }) {
      const user = await users.findByLogin(input.username);
      // Compare against a fixed hash when the user is unknown so timing does not reveal usernames.
      // A guest's shadow account never logs in: it is compared like an unknown name, and refused like one.
      const account = user?.guestPhone ? undefined : user;
      const hash = account?.passwordHash ?? (await timingDummyHash(passwordHashCost));
      const ok = await bcrypt.compare(input.password, hash);
      if (!account || !ok) throw new AppError(401, 'bad_login', messages.badLogin);
      if (account.bannedAt) throw new AppError(403, 'account_banned', messages.banned, { body: { banned: true } });
      if (account.deactivatedAt) throw new AppError(403, 'account_deactivated', messages.deactivated, { body: { deactivated: true } });
      if (!account.emailVerifiedAt) {
        await this.resendVerification(account.username);
        throw new AppError(403, 'email_unverified', messages.unverified, { body: { unverified: true } });
      }
      await deps.onSignedIn?.({ id: account.id, email: account.email, emailVerified: true });
      return { msg: messages.loggedIn, token: issueToken(account), user: toPublicUser(account) };
    },

    async logout(userId: string) {
      await users.bumpTokenVersion(userId);
      changed(userId);
    },

    /**
     * Answered at once, whether the email has an account or not: the lookup, the token and the mail run
     * after the response, so neither its body nor its timing tells who has an account.
     */
    forgotPassword(email: string) {
      afterAnswering('password reset email', () => sendPasswordReset(email));
    },

    /** Shutdown: lets account emails being looked up reach the outbox (true), or gives up after `timeoutMs` (false). */
    flushMail(timeoutMs: number): Promise<boolean> {
      return mailQueue.idle(timeoutMs);
    },
    /** Queued and sending account emails, for the metrics (background_queue_depth). */
    mailQueueDepth: () => mailQueue.pending,

    async resetPassword(token: string, password: string) {
      const consumed = await tokens.consume(token, 'reset-password');
      if (!consumed) throw new AppError(400, 'link_invalid', messages.badLink);
      const passwordHash = await hashPassword(password, passwordHashCost);
      const user = await users.findById(consumed.userId);
      if (!user) throw new AppError(400, 'link_invalid', messages.badLink);
      // Following the emailed link proves the address too.
      await users.update(user.id, {
        passwordHash,
        emailVerifiedAt: user.emailVerifiedAt ?? new Date(),
        tokenVersion: user.tokenVersion + 1,
      });
      changed(user.id);
      await tokens.revokeAll(user.id, 'reset-password');
    },

    /** Resolves a bearer token to its user; tokens of deleted users or from before a logout fail. */
    async authenticate(token: string): Promise<AuthUser | undefined> {
      let payload: jwt.JwtPayload;
      try {
        const decoded = jwt.verify(token, verifyKey, { algorithms: ['HS256'] });
        if (typeof decoded === 'string') return undefined;
        payload = decoded;
      } catch {
        return undefined;
      }
      if (typeof payload.sub !== 'string' || !/^[0-9a-f]{24}$/.test(payload.sub)) return undefined;
      let user = known.get(payload.sub);
      if (!user) {
        const startedAt = generation;
        const row = await loadSessionUser(payload.sub);
        if (!row) return undefined;
        user = { ...toAuthUser(row), tokenVersion: row.tokenVersion };
        if (generation === startedAt) known.set(row.id, user);
      }
      if (user.tokenVersion !== payload.tv) return undefined;
      return toAuthUser(user);
    },

    /**
     * A bearer token that `authenticate` refused because a suspension or ban still in force revoked it
     * (a valid signature, an older token version): whose, and the measure; undefined for any other token.
     */
    async restrictedSession(token: string, now = new Date()): Promise<{ userId: string; suspendedUntil: Date | null; bannedAt: Date | null } | undefined> {
      let payload: jwt.JwtPayload | string;
      try {
        payload = jwt.verify(token, verifyKey, { algorithms: ['HS256'] });
      } catch {
        return undefined;
      }
      if (typeof payload === 'string' || typeof payload.sub !== 'string' || !/^[0-9a-f]{24}$/.test(payload.sub)) return undefined;
      const row = await loadSessionUser(payload.sub);
      if (!row || row.tokenVersion === payload.tv) return undefined;
      const suspended = row.suspendedUntil && row.suspendedUntil.getTime() > now.getTime() ? row.suspendedUntil : null;
      if (!suspended && !row.bannedAt) return undefined;
      return { userId: row.id, suspendedUntil: suspended, bannedAt: row.bannedAt ?? null };
    },

    /**
     * Moderation's account measures: a suspension (until a time, or lifted with null) or a ban. Either
     * revokes every session (the token version moves) and is announced, so each instance drops its cached
     * lookup and its chat sockets of the account at once.
     */
    async restrict(userId: string, change: { suspendedUntil?: Date | null; bannedAt?: Date | null }) {
      const user = await users.findById(userId);
      if (!user) throw AppError.notFound('user_not_found', 'User not found.');
      await users.update(userId, { ...change, tokenVersion: user.tokenVersion + 1 });
      changed(userId);
    },

    /**
     * "Delete my account" (docs/decisions/data-rights.md): a confirmed deletion deactivates the account (no login;
     * every session revoked through the token version) until it is erased or restored; `false` restores it.
     */
    async setDeactivated(userId: string, deactivated: boolean) {
      const user = await users.findById(userId);
      if (!user) throw AppError.notFound('user_not_found', 'User not found.');
      await users.update(userId, deactivated ? { deactivatedAt: new Date(), tokenVersion: user.tokenVersion + 1 } : { deactivatedAt: null });
      changed(userId);
    },

    /** The account's row changed outside this service (erasure): every instance drops its cached lookup. */
    forget: changed,

    async getUser(id: string) {
      const user = await users.findById(id);
      if (!user) throw AppError.notFound('user_not_found', 'User not found.');
      return toPublicUser(user);
    },

    async updateUser(id: string, changes: { username?: string | undefined; email?: string | undefined }) {
      const user = await users.findById(id);
      if (!user) throw AppError.notFound('user_not_found', 'User not found.');
      const email = changes.email?.toLowerCase();
      const emailChanged = email !== undefined && email !== user.email.toLowerCase();
      await assertUnique({ username: changes.username, email }, id);
      const updated = await writeUnique({ username: changes.username, email }, id, () =>
        users.update(id, {
          ...(changes.username ? { username: changes.username } : {}),
          // A new address must be proven before it can be used to log in or reset the password.
          ...(emailChanged ? { email, emailVerifiedAt: null } : {}),
        }),
      );
      changed(id);
      if (emailChanged && updated) await sendVerification(updated);
      return toPublicUser(updated!);
    },

    /** The language the account's mail and SMS are written in (and the app opens in on another device). */
    async setLanguage(id: string, language: Language) {
      const updated = await users.update(id, { language });
      if (!updated) throw AppError.notFound('user_not_found', 'User not found.');
      changed(id);
      return toPublicUser(updated);
    },

    /** GET /user/:id/sms-promotions: whether the account opted in to promotional SMS. */
    async smsPromotions(id: string) {
      const user = await users.findById(id);
      if (!user) throw AppError.notFound('user_not_found', 'User not found.');
      return { smsPromotions: user.smsPromotions };
    },

    /** PUT /user/:id/sms-promotions: the profile's toggle (docs/decisions/sms.md, "Consent"). */
    async setSmsPromotions(id: string, smsPromotions: boolean) {
      const updated = await users.update(id, { smsPromotions });
      if (!updated) throw AppError.notFound('user_not_found', 'User not found.');
      changed(id);
      return { smsPromotions: updated.smsPromotions };
    },

    async setAvatar(id: string, image: string) {
      const cleaned = validateAvatarImage(image);
      const updated = await users.update(id, { avatarImage: cleaned, isAvatarImageSet: true });
      changed(id);
      if (!updated) throw AppError.notFound('user_not_found', 'User not found.');
      return { isSet: true, image: cleaned };
    },

    /** Chat contacts: who the user has talked with (bounded), not the whole user base. */
    listContacts: (userId: string) => users.listContacts(userId, MAX_CONTACTS),

    /** Finding someone to start a conversation with: a page of usernames by prefix, never the caller. */
    async searchUsers(callerId: string, prefix: string, page: number) {
      const rows = await users.searchByUsernamePrefix(prefix, { exceptId: callerId, limit: USER_SEARCH_PAGE_SIZE + 1, offset: (page - 1) * USER_SEARCH_PAGE_SIZE });
      return { users: rows.slice(0, USER_SEARCH_PAGE_SIZE), page, hasMore: rows.length > USER_SEARCH_PAGE_SIZE };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
