import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { isRequestError } from '../../../lib/errors';
import { getRole, getTeamRoles } from '../api/tickets-api';

export type StaffAccess = 'checking' | 'allowed' | 'denied';

/**
 * Whether the signed-in user may check tickets in for an event: its creator, or an admin
 * (the role is asked from the server once per page load). The server enforces the same rule.
 * `team`, when given: a member of the organiser's team whose role is one of `roles` on that event passes too
 * (docs/decisions/teams.md). `online`, when given: a role that could not be asked for want of a connection is asked again
 * when it returns ('checking' meanwhile), so an admin's door keeps working after an offline spell.
 */
export function useStaffAccess(
  userId: string | null,
  ownerId: string | null | undefined,
  online?: boolean,
  team: { eventId: string; roles: readonly string[] } = { eventId: '', roles: ['co_organiser', 'gate_staff'] },
): StaffAccess {
  const isOwner = Boolean(userId && ownerId && userId === ownerId);
  const memberships = useQuery({
    queryKey: ['team', 'memberships', 'mine', userId],
    queryFn: ({ signal }) => getTeamRoles(signal),
    enabled: Boolean(userId) && !isOwner && Boolean(team.eventId),
  });
  const onTeam = Boolean(memberships.data?.some((membership) => team.roles.includes(membership.role) && membership.eventIds.includes(team.eventId)));
  const role = useQuery({
    queryKey: ['role', userId],
    queryFn: ({ signal }) => getRole(userId ?? '', signal),
    enabled: Boolean(userId) && !isOwner,
    staleTime: Infinity,
  });
  const unreachable = isRequestError(role.error) && !role.error.response;
  const retry = online === true && unreachable;
  const { refetch } = role;
  useEffect(() => {
    if (retry) void refetch();
  }, [retry, refetch]);
  // A team member's door, opened without a connection, asks again for their roles once it returns.
  const teamUnreachable = isRequestError(memberships.error) && !memberships.error.response;
  const retryTeam = online === true && teamUnreachable;
  const refetchTeam = memberships.refetch;
  useEffect(() => {
    if (retryTeam) void refetchTeam();
  }, [retryTeam, refetchTeam]);

  if (!userId) return 'denied';
  if (isOwner || onTeam) return 'allowed';
  if (role.isPending || retry || retryTeam || (Boolean(team.eventId) && memberships.isPending)) return 'checking';
  return role.data === 'admin' ? 'allowed' : 'denied';
}
