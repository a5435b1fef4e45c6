import { useState, type FormEvent } from 'react';
import { getErrorMessage } from '../../../lib/errors';
import { useSession } from '../../../hooks/use-session';
import { useLoginRedirect } from '../lib/use-login-redirect';

export interface SignedInSubmit {
  /** Checks the form before sending; false when it cannot be sent (it shows why itself). */
  validate?: () => boolean;
  /** Sends the form as the signed-in user. */
  send: (userId: string) => Promise<void>;
  /** Shown when sending fails without a message from the server. */
  fallback: string;
}

/**
 * Submit handling shared by the comment and review forms: a logged-out visitor is sent to /login,
 * a second submit while one is pending is ignored, and a failure leaves a message under the form
 * (what was typed stays in the form, so nothing is lost).
 */
export function useSignedInSubmit() {
  const { user, isLoggedIn } = useSession();
  const toLogin = useLoginRedirect();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>, { validate, send, fallback }: SignedInSubmit) => {
    event.preventDefault();
    if (pending) return;
    if (!isLoggedIn || !user) {
      toLogin();
      return;
    }
    if (validate && !validate()) return;
    setPending(true);
    setError(null);
    try {
      await send(user._id);
    } catch (failure) {
      setError(getErrorMessage(failure, fallback));
    } finally {
      setPending(false);
    }
  };

  return { isLoggedIn, error, setError, pending, submit };
}
