import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { isRequestError } from '../../../lib/errors';
import { getRole } from '../api/tickets-api';

export type StaffAccess = 'checking' | 'allowed' | 'denied';

/**
 * Whether the signed-in user may check tickets in for an event: its creator, or an admin
 * (the role is asked from the server once per page load). The server enforces the same rule.
 * `online`, when given: a role that could not be asked for want of a connection is asked again
 * when it returns ('checking' meanwhile), so an admin's door keeps working after an offline spell.
 */
export function useStaffAccess(userId: string | null, ownerId: string | null | undefined, online?: boolean): StaffAccess {
  const isOwner = Boolean(userId && ownerId && userId === ownerId);
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

  if (!userId) return 'denied';
  if (isOwner) return 'allowed';
  if (role.isPending || retry) return 'checking';
  return role.data === 'admin' ? 'allowed' : 'denied';
}
