import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getErrorResponse } from '../../../lib/errors';
import { notify } from '../../../lib/notify';
import { verifyEmailRequest } from '../api/auth-api';
import { t } from '../../../lib/i18n';

export type VerificationState = 'verifying' | 'verified' | 'failed';

const FAILED = 'auth.verificationFailed';

/** Calls GET /api/auth/verify-email/:token once; the HTTP status decides the outcome. */
export function useEmailVerification(token: string): { state: VerificationState; error: string | null } {
  // Verification tokens are single-use: one request per token, its answer kept for the tab, so a re-mounted
  // page (React StrictMode, fast navigation) cannot spend the token twice.
  const query = useQuery({ queryKey: ['verify-email', token], queryFn: () => verifyEmailRequest(token).then(() => true), staleTime: Infinity, gcTime: Infinity });
  const { error, isSuccess } = query;
  // An HTTP answer other than 2xx is a plain failure; an exception (network, timeout) surfaces its own message.
  const message = !error ? null : !getErrorResponse(error) && error.message ? error.message : t(FAILED);

  useEffect(() => {
    if (isSuccess) notify.success(t('auth.emailVerified'), { toastId: `verify-${token}` });
    else if (message) notify.error(message, { toastId: `verify-${token}` });
  }, [isSuccess, message, token]);

  return { state: isSuccess ? 'verified' : message ? 'failed' : 'verifying', error: message };
}
