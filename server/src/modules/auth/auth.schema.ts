import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt } from '../../db/columns.js';

/**
 * The auth module's tables: only its repositories write them (docs/decisions/server-boundaries.md, "Tables").
 */
export const users = pgTable(
  'users',
  {
    id: id().primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['user', 'admin'] }).notNull().default('user'),
    avatarImage: text('avatar_image'),
    isAvatarImageSet: boolean('is_avatar_image_set').notNull().default(false),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** Bumped on logout and password reset so every token issued before stops working. */
    tokenVersion: integer('token_version').notNull().default(0),
    /**
     * TR39 confusable skeleton of the username (modules/auth/account-names.ts), so no look-alike of a
     * taken name can be registered. Set by the users repository; rows from before it are filled at start.
     */
    usernameSkeleton: text('username_skeleton'),
    /** Moderation (docs/decisions/moderation.md): no posting, chatting, buying or new events until then. */
    suspendedUntil: timestamp('suspended_until', { withTimezone: true }),
    /** Moderation: a banned account cannot log in or post; its paid tickets stay valid. */
    bannedAt: timestamp('banned_at', { withTimezone: true }),
    /**
     * A guest buyer's shadow account (docs/decisions/ticket-types.md): made for a phone number that paid
     * without signing in, so orders, payments and tickets keep one owner. It cannot log in; its orders move
     * to a real account when that account claims them.
     */
    guestPhone: text('guest_phone'),
    /**
     * The account's deletion was confirmed (docs/decisions/data-rights.md, "Deleting an account"): it cannot log
     * in, and is erased when its grace period ends unless the emailed undo link (or an admin) restores it first.
     * Stays set once erased.
     */
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    /** The language mail and SMS to this account are written in (docs/decisions/languages.md). */
    language: text('language', { enum: ['en', 'sw'] }).notNull().default('en'),
    /**
     * Opted in to promotional SMS (other events, announcements): off unless the person ticks it on sign-up or on
     * their profile (docs/decisions/sms.md, "Consent"). Tickets, codes and reminders do not need it.
     */
    smsPromotions: boolean('sms_promotions').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_skeleton_idx').on(t.usernameSkeleton),
    uniqueIndex('users_guest_phone_idx').on(t.guestPhone),
    check('users_language_valid', sql`${t.language} in ('en', 'sw')`),
  ],
);

export const authTokens = pgTable(
  'auth_tokens',
  {
    id: id().primaryKey(),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify-email', 'reset-password'] }).notNull(),
    /** Only a SHA-256 of the emailed token is stored, so a database leak does not leak working links. */
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('auth_tokens_hash_idx').on(t.tokenHash), index('auth_tokens_user_idx').on(t.userId, t.purpose)],
);
