import type { Database, Executor } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { Logger } from '../../lib/logger.js';
import { roleAllows, type TeamAccess, type TeamAccessCheck, type TeamOrganiserAccessCheck, type TeamPermission, type TeamRole } from '../../lib/team-access.js';
import { accountContact, accountStanding, findAccountByLogin, type AuthUser } from '../auth/index.js';
import { findEvent, organisesEvents } from '../events/index.js';
import type { MailOutbox } from '../mail/index.js';
import { buildTeamInvitationMail } from './teams-mail.js';
import { createTeamsRepository, type JoinedInvitation } from './teams.repository.js';

export interface TeamsServiceDeps {
  db: Database;
  mail: Pick<MailOutbox, 'send'>;
  logger: Logger;
  publicUrl: string;
}

/** Events listed per all-events membership (the newest first). */
const EVENTS_PER_MEMBERSHIP = 50;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** How long an invitation can be accepted after it was sent (or last resent): the one place this is set. */
export const INVITATION_TTL_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;
const INVITATION_TTL_MS = INVITATION_TTL_DAYS * DAY_MS;
/** A second Resend this soon after one changes nothing (double clicks, two tabs): one mail, not two. */
const RESEND_GUARD_MS = 60 * 1000;

const invitationExpiry = (now: Date) => new Date(now.getTime() + INVITATION_TTL_MS);
const isExpired = (invitation: { status: string; expiresAt: Date }, now = new Date()) => invitation.status === 'pending' && invitation.expiresAt.getTime() <= now.getTime();

const invitationView = (row: JoinedInvitation) => ({
  _id: row.invitation.id,
  organiser: { _id: row.invitation.organiserId, username: row.organiserName },
  event: row.invitation.eventId ? { _id: row.invitation.eventId, title: row.eventTitle ?? '' } : null,
  role: row.invitation.role,
  // The organiser typed a username or an email: the list shows that, never an invited account's own email.
  invitee: row.inviteeName ?? row.invitation.inviteeEmail ?? '',
  // Expiry is a matter of time, not a stored state: a pending invitation past its expiry shows as expired.
  status: isExpired(row.invitation) ? ('expired' as const) : row.invitation.status,
  expiresAt: row.invitation.expiresAt.toISOString(),
  createdAt: row.invitation.createdAt.toISOString(),
});

/**
 * Teams (docs/decisions/teams.md): an organiser invites helpers to one event or to all their events as
 * co-organiser, finance or gate staff; the invitee accepts or declines; the organiser lists and revokes.
 * `accessFor` is the route gate's question (lib/team-access.ts): whether a caller acts for an event's
 * organiser on a route that needs `permission`.
 */
export function createTeamsService(deps: TeamsServiceDeps) {
  const { db } = deps;
  const repo = createTeamsRepository(db);

  const accessFor: TeamAccessCheck = async (user, eventId, permission): Promise<TeamAccess> => {
    // Administrators and the organiser pass the services' own checks; a missing event is the service's 404.
    if (user.role === 'admin') return { kind: 'none' };
    const found = await repo.accessOn(user.id, eventId);
    if (!found || found.organiserId === user.id || found.roles.length === 0) return { kind: 'none' };
    const { organiserId, roles } = found;
    const allowed = roles.find((role) => roleAllows(role, permission));
    return allowed ? { kind: 'granted', grant: { organiserId, eventId, role: allowed } } : { kind: 'refused', role: roles[0]! };
  };

  const accessForOrganiser: TeamOrganiserAccessCheck = async (user, organiserId, permission): Promise<TeamAccess> => {
    // Administrators and the organiser pass the services' own checks.
    if (user.role === 'admin' || user.id === organiserId) return { kind: 'none' };
    const memberships = await repo.membershipsWith(user.id, organiserId);
    if (memberships.length === 0) return { kind: 'none' };
    // Organiser-wide data (all events' money) only for a member of ALL the organiser's events whose role allows it.
    const allowed = memberships.find((row) => row.eventId === null && roleAllows(row.role, permission));
    return allowed ? { kind: 'granted', grant: { organiserId, eventId: null, role: allowed.role } } : { kind: 'refused', role: memberships[0]!.role };
  };

  /** The invitation as its invitee may act on it: theirs by account, or by the verified email it went to. */
  async function invitationOfInvitee(user: AuthUser, id: string) {
    const row = await repo.findInvitation(id);
    if (!row) throw AppError.notFound('team_invitation_not_found', 'That invitation does not exist.');
    const byAccount = row.invitation.inviteeId === user.id;
    let byEmail = false;
    if (!byAccount && row.invitation.inviteeEmail && row.invitation.inviteeEmail.toLowerCase() === user.email.toLowerCase()) {
      byEmail = Boolean((await accountStanding(db, user.id))?.emailVerifiedAt);
    }
    // Someone else's invitation does not exist for this caller.
    if (!byAccount && !byEmail) throw AppError.notFound('team_invitation_not_found', 'That invitation does not exist.');
    if (row.invitation.status !== 'pending') throw AppError.conflict('team_invitation_closed', 'That invitation was already answered or withdrawn.');
    if (isExpired(row.invitation)) throw AppError.conflict('team_invitation_expired', 'That invitation has expired: ask the organiser to send it again.');
    return row;
  }

  /** The invitation email, to the invited account's address or the email it named. */
  async function invitationMail(row: JoinedInvitation, executor: Executor) {
    // Read with the caller's transaction: a second connection would wait on it where the database has one (PGlite).
    const account = row.invitation.inviteeId ? await accountContact(executor, row.invitation.inviteeId) : undefined;
    return buildTeamInvitationMail({
      to: account?.email ?? row.invitation.inviteeEmail!,
      language: account?.language ?? 'en',
      organiser: row.organiserName,
      role: row.invitation.role,
      eventTitle: row.invitation.eventId === null ? null : (row.eventTitle ?? ''),
      invitationId: row.invitation.id,
      expiresAt: row.invitation.expiresAt,
      publicUrl: deps.publicUrl,
    });
  }

  return {
    accessFor,
    accessForOrganiser,

    /** Whether the user may do `permission` on the event: its organiser, an administrator, or a team member whose role allows it. */
    async canActOnEvent(user: AuthUser, eventId: string, permission: TeamPermission): Promise<boolean> {
      if (user.role === 'admin') return true;
      const found = await repo.accessOn(user.id, eventId);
      if (!found) return false;
      return found.organiserId === user.id || found.roles.some((role) => roleAllows(role, permission));
    },

    async invite(user: AuthUser, input: { invitee: string; role: TeamRole; eventId: string | null }) {
      if (input.eventId !== null) {
        const event = await findEvent(db, input.eventId);
        if (!event) throw AppError.notFound('not_found', 'Event not found.');
        // Team changes are the organiser's alone: not a co-organiser's, not an administrator's.
        if (event.userId !== user.id) throw AppError.forbidden('team_not_organiser', 'Only the organiser can change the team of their events.');
      } else if (!(await organisesEvents(db, user.id))) {
        throw AppError.forbidden('team_not_organiser', 'Only the organiser can change the team of their events.');
      }
      const login = input.invitee.replace(/^@/, '');
      const account = await findAccountByLogin(db, login);
      const isEmail = EMAIL.test(login);
      if (!account && !isEmail) throw AppError.notFound('team_invitee_not_found', 'No Tukio account has that username.');
      if (account?.id === user.id) throw AppError.badRequest('team_invite_self', 'You are the organiser already: invite someone else.');
      const invitee = { id: account?.id ?? null, email: account ? null : login.toLowerCase() };
      if ((invitee.id && (await repo.membershipExists(user.id, input.eventId, invitee.id))) || (await repo.pendingFor(user.id, input.eventId, invitee))) {
        throw AppError.conflict('team_already_member', 'That person is already on this team or invited to it.');
      }
      const created = await db.transaction(async (tx) => {
        const txRepo = createTeamsRepository(tx);
        const row = await txRepo.insertInvitation({ organiserId: user.id, eventId: input.eventId, inviteeId: invitee.id, inviteeEmail: invitee.email, role: input.role, expiresAt: invitationExpiry(new Date()) });
        const joined = (await txRepo.findInvitation(row.id))!;
        await deps.mail.send(await invitationMail(joined, tx), `team invitation ${row.id}`, tx);
        return joined;
      });
      return invitationView(created);
    },

    /** The organiser's team and pending invitations (`eventId`: those covering that event, all-events ones included). */
    async teamOf(user: AuthUser, eventId?: string) {
      const [members, invitations] = await Promise.all([repo.membersOfOrganiser(user.id), repo.pendingOfOrganiser(user.id)]);
      const covers = (scope: string | null) => eventId === undefined || scope === null || scope === eventId;
      return {
        members: members
          .filter((row) => covers(row.member.eventId))
          .map((row) => ({
            _id: row.member.id,
            user: { _id: row.member.userId, username: row.username },
            event: row.member.eventId ? { _id: row.member.eventId, title: row.eventTitle ?? '' } : null,
            role: row.member.role,
            createdAt: row.member.createdAt.toISOString(),
          })),
        invitations: invitations.filter((row) => covers(row.invitation.eventId)).map(invitationView),
      };
    },

    async revokeInvitation(user: AuthUser, id: string) {
      const row = await repo.findInvitation(id);
      if (!row || row.invitation.organiserId !== user.id) throw AppError.notFound('team_invitation_not_found', 'That invitation does not exist.');
      const ended = await repo.answer(id, 'revoked', new Date());
      if (!ended) throw AppError.conflict('team_invitation_closed', 'That invitation was already answered or withdrawn.');
      return invitationView({ ...row, invitation: ended });
    },

    /**
     * POST /api/teams/invitations/:id/resend: a pending or expired invitation is mailed again with a new
     * expiry. A second click within a minute answers the same invitation without another mail.
     */
    async resendInvitation(user: AuthUser, id: string) {
      const row = await repo.findInvitation(id);
      if (!row || row.invitation.organiserId !== user.id) throw AppError.notFound('team_invitation_not_found', 'That invitation does not exist.');
      if (row.invitation.status !== 'pending') throw AppError.conflict('team_invitation_closed', 'That invitation was already answered or withdrawn.');
      const now = new Date();
      const expiresAt = invitationExpiry(now);
      const renewed = await db.transaction(async (tx) => {
        const ended = await createTeamsRepository(tx).renew(id, user.id, expiresAt, new Date(expiresAt.getTime() - RESEND_GUARD_MS), now);
        if (!ended) return undefined;
        const joined = { ...row, invitation: ended };
        await deps.mail.send(await invitationMail(joined, tx), `team invitation ${id} resent`, tx);
        return joined;
      });
      if (renewed) return invitationView(renewed);
      // Just resent (or answered meanwhile): the invitation as it now stands.
      const current = (await repo.findInvitation(id))!;
      if (current.invitation.status !== 'pending') throw AppError.conflict('team_invitation_closed', 'That invitation was already answered or withdrawn.');
      return invitationView(current);
    },

    /** Ends a membership: the member's next request on the organiser's events is refused. */
    async removeMember(user: AuthUser, id: string) {
      if (!(await repo.deleteMember(id, user.id))) throw AppError.notFound('team_member_not_found', 'That team member does not exist.');
      return { removed: true as const };
    },

    async invitationsFor(user: AuthUser) {
      const contact = await accountContact(db, user.id);
      const verified = Boolean((await accountStanding(db, user.id))?.emailVerifiedAt);
      const rows = await repo.pendingForInvitee(user.id, verified ? (contact?.email ?? null) : null);
      return rows.map(invitationView);
    },

    async accept(user: AuthUser, id: string) {
      const row = await invitationOfInvitee(user, id);
      const accepted = await db.transaction(async (tx) => {
        const txRepo = createTeamsRepository(tx);
        const ended = await txRepo.answer(id, 'accepted', new Date());
        if (!ended) throw AppError.conflict('team_invitation_closed', 'That invitation was already answered or withdrawn.');
        await txRepo.insertMember({ organiserId: ended.organiserId, eventId: ended.eventId, userId: user.id, role: ended.role, invitationId: ended.id });
        return ended;
      });
      return invitationView({ ...row, invitation: accepted });
    },

    async decline(user: AuthUser, id: string) {
      const row = await invitationOfInvitee(user, id);
      const ended = await repo.answer(id, 'declined', new Date());
      if (!ended) throw AppError.conflict('team_invitation_closed', 'That invitation was already answered or withdrawn.');
      return invitationView({ ...row, invitation: ended });
    },

    /** The teams the user is on: each membership's organiser, role and the events it covers. */
    async membershipsOf(user: AuthUser) {
      const rows = await repo.membershipsOf(user.id);
      return Promise.all(
        rows.map(async (row) => {
          const scoped = row.member.eventId !== null;
          const events = scoped
            ? [{ id: row.member.eventId!, title: row.eventTitle ?? '', startsAt: row.eventStartsAt!, status: row.eventStatus ?? '' }]
            : await repo.eventsOfMembership(row.member.id, EVENTS_PER_MEMBERSHIP);
          return {
            _id: row.member.id,
            organiser: { _id: row.member.organiserId, username: row.organiserName },
            role: row.member.role,
            scope: scoped ? ('event' as const) : ('all' as const),
            events: events.map((event) => ({ _id: event.id, title: event.title, startsAt: event.startsAt.toISOString(), status: event.status })),
          };
        }),
      );
    },
  };
}

export type TeamsService = ReturnType<typeof createTeamsService>;
