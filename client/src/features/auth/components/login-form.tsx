import { useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { notify } from '../../../lib/notify';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { forgetEndedSession, readEndedSession } from '../../../lib/session-auth';
import { failureMessage, getErrorMessage } from '../../../lib/errors';
import { loginRequest, resendVerificationRequest } from '../api/auth-api';
import { useSession } from '../../../hooks/use-session';
import { PasswordField, UsernameField } from './auth-fields';
import { reconcileAccountLanguage, useT } from '../../../lib/i18n';

/** Catalog keys of the fields' messages (translated when shown, so a language switch reaches them). */
interface Errors {
  username?: string;
  password?: string;
}

const LOGIN_FAILED = 'auth.loginFailed';
const looksUnverified = (msg: string) => /verif/i.test(msg);

/** Pages that send a visitor to log in pass where they were, so login can bring them back. */
function returnPath(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') && from !== paths.login ? from : paths.home;
}

export function LoginForm() {
  const t = useT();
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const [unverifiedUser, setUnverifiedUser] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  // Set once this form logs the user in, so the "already logged in" redirect below
  // does not race the post-login navigation (to / or /setAvatar).
  const [loggedInHere, setLoggedInHere] = useState(false);
  // A suspension or ban that ended the last session: said here until the next login (lib/session-auth).
  const [endedBy] = useState(readEndedSession);
  const endedMessage = endedBy ? failureMessage(endedBy) : null;

  if (session.isLoggedIn && !loggedInHere) {
    return <Navigate to={paths.home} replace />;
  }

  const validate = (): Errors => {
    const next: Errors = {};
    if (username.trim() === '') next.username = 'auth.usernameRequired';
    if (password === '') next.password = 'auth.passwordRequired';
    return next;
  };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const found = validate();
    setErrors(found);
    if (found.username) return usernameRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();

    setPending(true);
    setUnverifiedUser(null);
    try {
      const data = await loginRequest({ username: username.trim(), password });
      if (data.status && data.token && data.user) {
        setLoggedInHere(true);
        forgetEndedSession();
        session.login(data.token, data.user);
        reconcileAccountLanguage(data.user._id, (data.user as { language?: unknown }).language);
        void navigate(data.user.isAvatarImageSet ? returnPath(location.state) : paths.setAvatar, { replace: true });
        return;
      }
      const msg = failureMessage(data) || t(LOGIN_FAILED);
      notify.error(msg);
      if (data.unverified || looksUnverified(msg)) setUnverifiedUser(username.trim());
    } catch (error) {
      const msg = getErrorMessage(error, t(LOGIN_FAILED));
      notify.error(msg);
      if (looksUnverified(msg)) setUnverifiedUser(username.trim());
    } finally {
      setPending(false);
    }
  };

  const handleResend = async () => {
    if (!unverifiedUser || resending) return;
    setResending(true);
    try {
      const data = await resendVerificationRequest(unverifiedUser);
      if (data.status) notify.success(data.msg || t('auth.verificationSent'));
      else notify.error(failureMessage(data) || t('auth.resendFailed'));
    } catch (error) {
      notify.error(getErrorMessage(error, t('auth.resendFailed')));
    } finally {
      setResending(false);
    }
  };

  return (
    <form className="form" onSubmit={handleSubmit} noValidate>
      {endedMessage ? (
        <div className="notice notice--warning" role="status">
          <p>{endedMessage}</p>
        </div>
      ) : null}
      <UsernameField
        ref={usernameRef}
        value={username}
        error={errors.username && t(errors.username)}
        onChange={(event) => setUsername(event.target.value)}
      />
      <PasswordField
        ref={passwordRef}
        value={password}
        error={errors.password && t(errors.password)}
        onChange={(event) => setPassword(event.target.value)}
      />
      <p className="form__aside">
        <Link to={paths.forgotPassword}>{t('auth.forgotPassword')}</Link>
      </p>
      <Button type="submit" block loading={pending} loadingText={t('auth.loggingIn')}>
        {t('auth.login')}
      </Button>
      {unverifiedUser ? (
        <div className="notice notice--warning" role="status">
          <p>{t('auth.notVerified')}</p>
          <Button variant="secondary" loading={resending} loadingText={t('auth.sending')} onClick={handleResend}>
            {t('auth.resendVerification')}
          </Button>
        </div>
      ) : null}
      <p className="form__switch">
        {t('auth.noAccount')} <Link to={paths.register}>{t('auth.register')}</Link>
      </p>
    </form>
  );
}
