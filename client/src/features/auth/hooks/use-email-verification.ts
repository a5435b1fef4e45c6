import { useEffect, useState } from 'react';
import { getErrorResponse } from '../../../lib/errors';
import { notify } from '../../../lib/notify';
import { verifyEmailRequest } from '../api/auth-api';
import { t } from '../../../lib/i18n';

export type VerificationState = 'verifying' | 'verified' | 'failed';

const FAILED = 'auth.verificationFailed';

/** Calls GET /api/auth/verify-email/:token once; the HTTP status decides the outcome. */
export function useEmailVerification(token: string): { state: VerificationState; error: string | null } {
  const [result, setResult] = useState<{ token: string; state: VerificationState; error: string | null }>({
    token,
    state: 'verifying',
    error: null,
  });

  useEffect(() => {
    let active = true;
    verifyEmailRequest(token).then(
      () => {
        notify.success(t('auth.emailVerified'), { toastId: `verify-${token}` });
        if (active) setResult({ token, state: 'verified', error: null });
      },
      (error: unknown) => {
        // An HTTP answer other than 2xx is a plain failure; an exception (network, timeout)
        // surfaces its own message.
        const message =
          getErrorResponse(error)
            ? t(FAILED)
            : error instanceof Error && error.message
              ? error.message
              : t(FAILED);
        notify.error(message, { toastId: `verify-${token}` });
        if (active) setResult({ token, state: 'failed', error: message });
      },
    );
    return () => {
      active = false;
    };
  }, [token]);

  // A new token in the URL starts over as "verifying" until its own answer arrives.
  return result.token === token ? result : { state: 'verifying', error: null };
}
