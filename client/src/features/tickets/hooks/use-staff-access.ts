import { useEffect, useState } from 'react';
import { getRoleOnce } from '../api/tickets-api';

export type StaffAccess = 'checking' | 'allowed' | 'denied';

/**
 * Whether the signed-in user may check tickets in for an event: its creator, or an admin
 * (the role is asked from the server once per page load). The server enforces the same rule.
 * `online`, when given: a role that could not be asked for want of a connection is asked again
 * when it returns ('checking' meanwhile), so an admin's door keeps working after an offline spell.
 */
export function useStaffAccess(userId: string | null, ownerId: string | null | undefined, online?: boolean): StaffAccess {
  const isOwner = Boolean(userId && ownerId && userId === ownerId);
  const [role, setRole] = useState<{ userId: string; role: string | undefined; failed?: boolean; offline?: boolean } | null>(null);
  const retry = online === true && Boolean(role?.failed && role.offline);

  useEffect(() => {
    if (!userId || isOwner) return;
    let live = true;
    getRoleOnce(userId).then(
      (value) => live && setRole({ userId, role: value }),
      () => live && setRole({ userId, role: undefined, failed: true, offline: !navigator.onLine }),
    );
    return () => {
      live = false;
    };
  }, [userId, isOwner, retry]);

  if (!userId) return 'denied';
  if (isOwner) return 'allowed';
  if (!role || role.userId !== userId || retry) return 'checking';
  return role.role === 'admin' ? 'allowed' : 'denied';
}
