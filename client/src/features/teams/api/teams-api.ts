/*
 * TEAMS API (server module teams, docs/decisions/teams.md): the organiser's team and invitations, and the
 * invitations and memberships of the signed-in person.
 */
import { api } from '../../../lib/api-client';

export const TEAM_ROLES = ['co_organiser', 'finance', 'gate_staff'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export interface TeamInvitation {
  _id: string;
  organiser: { _id: string; username: string };
  event: { _id: string; title: string } | null;
  role: TeamRole;
  invitee: string;
  /** `expired`: pending past `expiresAt`, until the organiser resends it. */
  status: 'pending' | 'expired' | 'accepted' | 'declined' | 'revoked';
  expiresAt: string;
  createdAt: string;
}
export interface TeamMember {
  _id: string;
  user: { _id: string; username: string };
  event: { _id: string; title: string } | null;
  role: TeamRole;
  createdAt: string;
}
export interface TeamMembership {
  _id: string;
  organiser: { _id: string; username: string };
  role: TeamRole;
  scope: 'event' | 'all';
  events: Array<{ _id: string; title: string; startsAt: string; status: string }>;
}

export const teamKey = (eventId?: string) => ['team', eventId ?? 'all'] as const;
export const myInvitationsKey = ['team', 'invitations', 'mine'] as const;
export const myMembershipsKey = ['team', 'memberships', 'mine'] as const;

export const getTeam = async (eventId: string | undefined, signal?: AbortSignal) =>
  (await api.get<{ members: TeamMember[]; invitations: TeamInvitation[] }>('/teams', { params: eventId ? { eventId } : {}, signal })).data;
export const inviteToTeam = async (input: { invitee: string; role: TeamRole; eventId: string | null }) => (await api.post<TeamInvitation>('/teams/invitations', input)).data;
export const revokeInvitation = async (id: string) => (await api.delete<TeamInvitation>(`/teams/invitations/${encodeURIComponent(id)}`)).data;
export const resendInvitation = async (id: string) => (await api.post<TeamInvitation>(`/teams/invitations/${encodeURIComponent(id)}/resend`, {})).data;
export const removeMember = async (id: string) => (await api.delete(`/teams/members/${encodeURIComponent(id)}`)).data;
export const getMyInvitations = async (signal?: AbortSignal) => (await api.get<TeamInvitation[]>('/teams/invitations/mine', { signal })).data;
export const answerInvitation = async ({ id, answer }: { id: string; answer: 'accept' | 'decline' }) =>
  (await api.post<TeamInvitation>(`/teams/invitations/${encodeURIComponent(id)}/${answer}`, {})).data;
export const getMyMemberships = async (signal?: AbortSignal) => (await api.get<TeamMembership[]>('/teams/memberships/mine', { signal })).data;
