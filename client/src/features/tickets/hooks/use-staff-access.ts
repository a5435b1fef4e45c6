import { useEffect, useState } from 'react';
import { getRoleOnce } from '../api/tickets-api';

export type StaffAccess = 'checking' | 'allowed' | 'denied';

/**
 * Whether the signed-in user may check tickets in for an event: its creator, or an admin
 * (the role is asked from the server once per page load). The server enforces the same rule.
 */
export function useStaffAccess(userId: string | null, ownerId: string | null | undefined): StaffAccess {
  const isOwner = Boolean(userId && ownerId && userId === ownerId);
  const [role, setRole] = useState<{ userId: string; role: string | undefined; failed?: boolean } | null>(null);

  useEffect(() => {
    if (!userId || isOwner) return;
    let live = true;
    getRoleOnce(userId).then(
      (value) => live && setRole({ userId, role: value }),
      () => live && setRole({ userId, role: undefined, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [userId, isOwner]);

  if (!userId) return 'denied';
  if (isOwner) return 'allowed';
  if (!role || role.userId !== userId) return 'checking';
  return role.role === 'admin' ? 'allowed' : 'denied';
}
