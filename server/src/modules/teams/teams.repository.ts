import { aliasedTable, and, asc, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import type { TeamRole } from '../../lib/team-access.js';
import { users } from '../auth/index.js';
import { events } from '../events/index.js';
import { teamInvitations, teamMembers } from './teams.schema.js';

export type InvitationRow = typeof teamInvitations.$inferSelect;
export type MemberRow = typeof teamMembers.$inferSelect;

/** An invitation with the names it is shown with. */
export interface JoinedInvitation {
  invitation: InvitationRow;
  organiserName: string;
  inviteeName: string | null;
  eventTitle: string | null;
}

const organisers = aliasedTable(users, 'organisers');
const invitees = aliasedTable(users, 'invitees');

/** An invitation with the names it is shown with. */
const invitationColumns = {
  invitation: teamInvitations,
  organiserName: organisers.username,
  inviteeName: invitees.username,
  eventTitle: events.title,
};

/** Team invitations and memberships (drizzle migration `teams`). */
export function createTeamsRepository(db: Executor) {
  const invitationsJoined = () =>
    (db as Executor)
      .select(invitationColumns)
      .from(teamInvitations)
      .innerJoin(organisers, eq(organisers.id, teamInvitations.organiserId))
      .leftJoin(invitees, eq(invitees.id, teamInvitations.inviteeId))
      .leftJoin(events, eq(events.id, teamInvitations.eventId));

  return {
    async insertInvitation(input: { organiserId: string; eventId: string | null; inviteeId: string | null; inviteeEmail: string | null; role: TeamRole; expiresAt: Date }): Promise<InvitationRow> {
      const [row] = await db.insert(teamInvitations).values({ id: newId(), ...input }).returning();
      return row!;
    },

    async findInvitation(id: string): Promise<JoinedInvitation | undefined> {
      const rows: JoinedInvitation[] = await invitationsJoined().where(eq(teamInvitations.id, id)).limit(1);
      return rows[0];
    },

    /** A pending invitation of the same organiser, scope and person (by account or by the email it went to). */
    async pendingFor(organiserId: string, eventId: string | null, invitee: { id: string | null; email: string | null }) {
      const [row] = await db
        .select({ id: teamInvitations.id })
        .from(teamInvitations)
        .where(
          and(
            eq(teamInvitations.organiserId, organiserId),
            eventId === null ? isNull(teamInvitations.eventId) : eq(teamInvitations.eventId, eventId),
            eq(teamInvitations.status, 'pending'),
            invitee.id ? eq(teamInvitations.inviteeId, invitee.id) : sql`lower(${teamInvitations.inviteeEmail}) = lower(${invitee.email})`,
          ),
        )
        .limit(1);
      return row;
    },

    /** The organiser's pending invitations, newest first. */
    pendingOfOrganiser(organiserId: string): Promise<JoinedInvitation[]> {
      return invitationsJoined()
        .where(and(eq(teamInvitations.organiserId, organiserId), eq(teamInvitations.status, 'pending')))
        .orderBy(desc(teamInvitations.createdAt), desc(teamInvitations.id));
    },

    /** Pending invitations to the account, or to its (verified) email when it was invited before it had one. */
    pendingForInvitee(userId: string, email: string | null): Promise<JoinedInvitation[]> {
      const mine = email
        ? or(eq(teamInvitations.inviteeId, userId), sql`lower(${teamInvitations.inviteeEmail}) = lower(${email})`)
        : eq(teamInvitations.inviteeId, userId);
      return invitationsJoined()
        .where(and(mine, eq(teamInvitations.status, 'pending')))
        .orderBy(desc(teamInvitations.createdAt), desc(teamInvitations.id));
    },

    /**
     * Sends a pending invitation again: a new expiry, unless it was given one at `notBefore` or later (a
     * double click, or two tabs: the first resend wins and the second changes nothing). Undefined: not
     * pending, not the organiser's, or just resent.
     */
    async renew(id: string, organiserId: string, expiresAt: Date, notBefore: Date, now: Date): Promise<InvitationRow | undefined> {
      const [row] = await db
        .update(teamInvitations)
        .set({ expiresAt, updatedAt: now })
        .where(and(eq(teamInvitations.id, id), eq(teamInvitations.organiserId, organiserId), eq(teamInvitations.status, 'pending'), lt(teamInvitations.expiresAt, notBefore)))
        .returning();
      return row;
    },

    /** Ends a pending invitation; undefined when it was not pending any more. */
    async answer(id: string, status: 'accepted' | 'declined' | 'revoked', now: Date): Promise<InvitationRow | undefined> {
      const [row] = await db
        .update(teamInvitations)
        .set({ status, respondedAt: now, updatedAt: now })
        .where(and(eq(teamInvitations.id, id), eq(teamInvitations.status, 'pending')))
        .returning();
      return row;
    },

    async membershipExists(organiserId: string, eventId: string | null, userId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: teamMembers.id })
        .from(teamMembers)
        .where(and(eq(teamMembers.organiserId, organiserId), eq(teamMembers.userId, userId), eventId === null ? isNull(teamMembers.eventId) : eq(teamMembers.eventId, eventId)))
        .limit(1);
      return Boolean(row);
    },

    /** Makes the membership; nothing when the same scope is held already (the unique index). */
    async insertMember(input: { organiserId: string; eventId: string | null; userId: string; role: TeamRole; invitationId: string }): Promise<void> {
      await db.insert(teamMembers).values({ id: newId(), ...input }).onConflictDoNothing();
    },

    /** The organiser's team: every membership with the member's name and the event's title. */
    membersOfOrganiser(organiserId: string) {
      return db
        .select({ member: teamMembers, username: users.username, eventTitle: events.title })
        .from(teamMembers)
        .innerJoin(users, eq(users.id, teamMembers.userId))
        .leftJoin(events, eq(events.id, teamMembers.eventId))
        .where(eq(teamMembers.organiserId, organiserId))
        .orderBy(asc(users.username), asc(teamMembers.id));
    },

    /** Deletes the organiser's membership row; false when there was none. */
    async deleteMember(id: string, organiserId: string): Promise<boolean> {
      const rows = await db
        .delete(teamMembers)
        .where(and(eq(teamMembers.id, id), eq(teamMembers.organiserId, organiserId)))
        .returning({ id: teamMembers.id });
      return rows.length > 0;
    },

    /**
     * The event's organiser and the roles the user holds on it (given for it, or for all the organiser's
     * events), in one statement: events joined with the user's memberships. Undefined: no such event.
     */
    async accessOn(userId: string, eventId: string): Promise<{ organiserId: string; roles: TeamRole[] } | undefined> {
      const rows = await db
        .select({ organiserId: events.userId, role: teamMembers.role })
        .from(events)
        .leftJoin(
          teamMembers,
          and(eq(teamMembers.organiserId, events.userId), eq(teamMembers.userId, userId), or(isNull(teamMembers.eventId), eq(teamMembers.eventId, events.id))),
        )
        .where(eq(events.id, eventId));
      if (rows.length === 0) return undefined;
      return { organiserId: rows[0]!.organiserId, roles: rows.flatMap((row) => (row.role ? [row.role] : [])) };
    },

    /** The user's memberships on one organiser's team (for all events: `eventId` null). */
    membershipsWith(userId: string, organiserId: string) {
      return db
        .select({ eventId: teamMembers.eventId, role: teamMembers.role })
        .from(teamMembers)
        .where(and(eq(teamMembers.userId, userId), eq(teamMembers.organiserId, organiserId)))
        .orderBy(asc(teamMembers.id));
    },

    /** The memberships the user holds, with the organiser's name and the event's title. */
    membershipsOf(userId: string) {
      return db
        .select({ member: teamMembers, organiserName: users.username, eventTitle: events.title, eventStartsAt: events.startsAt, eventStatus: events.status })
        .from(teamMembers)
        .innerJoin(users, eq(users.id, teamMembers.organiserId))
        .leftJoin(events, eq(events.id, teamMembers.eventId))
        .where(eq(teamMembers.userId, userId))
        .orderBy(asc(users.username), asc(teamMembers.id));
    },

    /** The events an all-events membership covers: its organiser's, latest first. */
    eventsOfMembership(membershipId: string, limit: number) {
      return db
        .select({ id: events.id, title: events.title, startsAt: events.startsAt, status: events.status })
        .from(teamMembers)
        .innerJoin(events, eq(events.userId, teamMembers.organiserId))
        .where(eq(teamMembers.id, membershipId))
        .orderBy(desc(events.startsAt), desc(events.id))
        .limit(limit);
    },
  };
}
