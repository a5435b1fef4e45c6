import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from '../../db/columns.js';
import { users } from '../auth/auth.schema.js';
import { events } from '../events/events.schema.js';

/** The teams module's tables: only its repository writes them (docs/decisions/server-boundaries.md, "Tables"). */
const ROLES_SQL = sql`('co_organiser', 'finance', 'gate_staff')`;

/**
 * An organiser's invitation to help with one event (`event_id`) or with all their events (null). It names
 * an account (`invitee_id`, invited by username or by an email that has one) or only an email nobody has
 * signed up with yet (`invitee_email`, matched to the account that later verifies that address). It stays
 * `pending` (until `expires_at`) until the invitee accepts (a `team_members` row is made) or declines, or the organiser revokes it.
 */
export const teamInvitations = pgTable(
  'team_invitations',
  {
    id: id().primaryKey(),
    organiserId: id('organiser_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventId: id('event_id').references(() => events.id, { onDelete: 'cascade' }),
    inviteeId: id('invitee_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Set only when the invitation went to an email with no account: where it was sent. */
    inviteeEmail: text('invitee_email'),
    role: text('role', { enum: ['co_organiser', 'finance', 'gate_staff'] }).notNull(),
    status: text('status', { enum: ['pending', 'accepted', 'declined', 'revoked'] }).notNull().default('pending'),
    respondedAt: timestamp('responded_at', { withTimezone: true }),
    /**
     * A pending invitation past this time is expired (shown so, never accepted); the organiser's Resend
     * moves it on. Set from INVITATION_TTL_DAYS (teams.service.ts) when sent and resent.
     */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('team_invitations_role_valid', sql`${t.role} in ${ROLES_SQL}`),
    check('team_invitations_status_valid', sql`${t.status} in ('pending', 'accepted', 'declined', 'revoked')`),
    check('team_invitations_invitee', sql`(${t.inviteeId} is null) <> (${t.inviteeEmail} is null)`),
    index('team_invitations_organiser_idx').on(t.organiserId, t.status),
    index('team_invitations_invitee_idx').on(t.inviteeId, t.status),
    index('team_invitations_email_idx').on(sql`lower(${t.inviteeEmail})`),
  ],
);

/**
 * Who helps an organiser, with which role, on one event (`event_id`) or on all their events (null, so an
 * event made later is covered too). Revoking deletes the row: access ends with it, on the next request.
 */
export const teamMembers = pgTable(
  'team_members',
  {
    id: id().primaryKey(),
    organiserId: id('organiser_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventId: id('event_id').references(() => events.id, { onDelete: 'cascade' }),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['co_organiser', 'finance', 'gate_staff'] }).notNull(),
    status: text('status', { enum: ['active'] }).notNull().default('active'),
    invitationId: id('invitation_id').references(() => teamInvitations.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('team_members_role_valid', sql`${t.role} in ${ROLES_SQL}`),
    // One role per person and scope: inviting again for the same scope is refused, a new role means revoking first.
    uniqueIndex('team_members_scope_idx').on(t.organiserId, t.userId, sql`coalesce(${t.eventId}, '')`),
    index('team_members_user_idx').on(t.userId),
    index('team_members_event_idx').on(t.eventId),
  ],
);
