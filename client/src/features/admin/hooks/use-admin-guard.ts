import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { notify } from '../../../lib/notify';
import { paths } from '../../../config/paths';
import { useSession } from '../../../hooks/use-session';
import { t } from '../../../lib/i18n';
import { getUserRole } from '../api/admin-api';

export type AdminAccess = 'checking' | 'allowed' | 'denied';

/**
 * Admin pages are for role 'admin' only, checked against the server (GET /api/auth/user/:id).
 * Visitors and other users are sent to /. The server enforces the same rule on every admin call.
 */
export function useAdminGuard(): AdminAccess {
  const navigate = useNavigate();
  const { user, isLoggedIn } = useSession();
  const userId = isLoggedIn && user ? user._id : null;
  const check = useQuery({ queryKey: ['admin-role', userId], queryFn: ({ signal }) => getUserRole(userId ?? '', signal), enabled: userId !== null });

  const access: AdminAccess = !userId ? 'denied' : check.isLoading ? 'checking' : check.data === 'admin' ? 'allowed' : 'denied';

  useEffect(() => {
    if (check.error) notify.error(t('admin.checkFailed'), { toastId: 'admin-check' });
  }, [check.error]);

  useEffect(() => {
    if (access === 'denied') void navigate(paths.home, { replace: true });
  }, [access, navigate]);

  return access;
}
