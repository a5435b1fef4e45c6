import type { AuthUser } from '../modules/auth/index.js';

/**
 * Teams (docs/decisions/teams.md): an organiser's helpers act on the organiser's events with a role.
 * The roles and what each may do are this one table; the route declaration names the permission an
 * organiser-scoped route needs (`team`), the gate asks the teams module whether the caller holds it, and
 * the authorization matrix derives each role's expected answer from the same table.
 */
export const TEAM_ROLES = ['co_organiser', 'finance', 'gate_staff'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** What an organiser-scoped route does to the event. */
export type TeamPermission = 'manage' | 'sales' | 'payouts' | 'checkin' | 'attendees';

/**
 * Who besides the organiser may do what. Co-organisers do everything but payouts (and team changes,
 * which are the organiser's alone and have no permission here); finance reads money; gate staff check in.
 */
export const TEAM_PERMISSIONS: Record<TeamPermission, readonly TeamRole[]> = {
  manage: ['co_organiser'],
  sales: ['co_organiser', 'finance'],
  payouts: ['finance'],
  checkin: ['co_organiser', 'gate_staff'],
  attendees: ['co_organiser', 'finance', 'gate_staff'],
};

export const roleAllows = (role: TeamRole, permission: TeamPermission) => TEAM_PERMISSIONS[permission].includes(role);

/**
 * The caller as an organiser-scoped service sees it once the gate granted a team role on the event:
 * `requireOwner` then accepts the organiser's id for this caller.
 */
export interface TeamGrant {
  organiserId: string;
  /** The event the grant is for; null for an organiser-wide grant (a member for all of the organiser's events). */
  eventId: string | null;
  role: TeamRole;
}
export type Caller = AuthUser & { actingFor?: TeamGrant };

/** The teams module's answer for a caller on an event. */
export type TeamAccess =
  /** The caller is not on the event's team (or is its organiser, or the event does not exist): the service decides as before. */
  | { kind: 'none' }
  | { kind: 'granted'; grant: TeamGrant }
  /** On the team, but the role does not allow this. */
  | { kind: 'refused'; role: TeamRole };

export type TeamAccessCheck = (user: AuthUser, eventId: string, permission: TeamPermission) => Promise<TeamAccess>;

/**
 * The same question for an organiser-wide route (the organiser's payouts): only a membership for ALL of the
 * organiser's events can be granted; a member for some events only, or with a role that does not allow the
 * permission, is refused.
 */
export type TeamOrganiserAccessCheck = (user: AuthUser, organiserId: string, permission: TeamPermission) => Promise<TeamAccess>;

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by app.ts from the teams module: the route gate's question for `team` routes. */
    teamAccess?: TeamAccessCheck;
    /** Set by app.ts from the teams module: the route gate's question for organiser-wide `team` routes. */
    teamAccessForOrganiser?: TeamOrganiserAccessCheck;
  }
}
