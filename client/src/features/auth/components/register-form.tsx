import { PASSWORD_MIN_LENGTH, USERNAME_MIN_LENGTH } from '@tukio/shared/limits';
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { notify } from '../../../lib/notify';
import { Button } from '../../../components/ui/button';
import { PrivacyLink } from '../../../components/privacy-link';
import { EmailField } from '../../../components/ui/form-field';
import { paths } from '../../../config/paths';
import { failureMessage, getServerMessage } from '../../../lib/errors';
import { registerRequest } from '../api/auth-api';
import { useSession } from '../../../hooks/use-session';
import { ConfirmPasswordField, NewPasswordField, UsernameField } from './auth-fields';
import { t, useT } from '../../../lib/i18n';

interface Values {
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
}
type Errors = Partial<Record<keyof Values, string>>;

const EMPTY: Values = { username: '', email: '', password: '', confirmPassword: '' };
const NETWORK_ERROR = 'auth.networkError';
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const FIELD_ORDER: Array<keyof Values> = ['username', 'email', 'password', 'confirmPassword'];

function validate(values: Values): Errors {
  const errors: Errors = {};
  if (values.username.trim().length < USERNAME_MIN_LENGTH) {
    errors.username = t('auth.usernameTooShort', { min: USERNAME_MIN_LENGTH });
  }
  if (values.email.trim() === '') errors.email = t('auth.emailRequired');
  else if (!EMAIL_PATTERN.test(values.email.trim())) errors.email = t('auth.emailInvalid');
  if (values.password.length < PASSWORD_MIN_LENGTH) {
    errors.password = t('auth.passwordTooShort', { min: PASSWORD_MIN_LENGTH });
  }
  if (values.password !== values.confirmPassword) {
    errors.confirmPassword = t('auth.passwordsDiffer');
  }
  return errors;
}

export function RegisterForm() {
  const t = useT();
  const { isLoggedIn } = useSession();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  // Promotional SMS need their own, explicit yes (Data Protection Act 2019): never ticked for the person.
  const [smsPromotions, setSmsPromotions] = useState(false);
  const [successMsg, setSuccessMsg] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  if (isLoggedIn) return <Navigate to={paths.home} replace />;

  if (successMsg !== null) {
    return (
      <div className="check-email" role="status">
        <svg className="check-email__icon" viewBox="0 0 48 48" width="56" height="56" aria-hidden="true" focusable="false">
          <rect x="4" y="10" width="40" height="28" rx="4" fill="none" stroke="currentColor" strokeWidth="3" />
          <path d="m6 13 18 13 18-13" fill="none" stroke="currentColor" strokeWidth="3" strokeLinejoin="round" />
        </svg>
        <h2>{t('auth.checkEmail')}</h2>
        <p>{successMsg}</p>
        <p className="muted">
          {t('auth.didntGetIt')}
        </p>
        <Link className="btn btn--primary" to={paths.login}>
          {t('auth.goToLogin')}
        </Link>
      </div>
    );
  }

  const update = (field: keyof Values) => (event: ChangeEvent<HTMLInputElement>) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const found = validate(values);
    setErrors(found);
    const firstInvalid = FIELD_ORDER.find((field) => found[field]);
    if (firstInvalid) {
      formRef.current?.querySelector<HTMLInputElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }

    setPending(true);
    try {
      const data = await registerRequest({
        username: values.username.trim(),
        email: values.email.trim(),
        password: values.password,
        smsPromotions,
      });
      if (data.status) {
        setSuccessMsg(data.msg || t('auth.verificationLinkSent'));
      } else {
        notify.error(failureMessage(data) || t(NETWORK_ERROR));
      }
    } catch (error) {
      notify.error(getServerMessage(error) ?? t(NETWORK_ERROR));
    } finally {
      setPending(false);
    }
  };

  return (
    <form ref={formRef} className="form" onSubmit={handleSubmit} noValidate>
      <UsernameField
        minLength={USERNAME_MIN_LENGTH}
        value={values.username}
        error={errors.username}
        onChange={update('username')}
      />
      <EmailField value={values.email} error={errors.email} onChange={update('email')} />
      <NewPasswordField value={values.password} error={errors.password} onChange={update('password')} />
      <ConfirmPasswordField
        value={values.confirmPassword}
        error={errors.confirmPassword}
        onChange={update('confirmPassword')}
      />
      <label className="checkbox">
        <input type="checkbox" name="smsPromotions" checked={smsPromotions} onChange={(event) => setSmsPromotions(event.target.checked)} /> {t('auth.smsPromotions')}
      </label>
      <p className="field__hint">
        {t('auth.privacyNote')} <PrivacyLink />
      </p>
      <Button type="submit" block loading={pending} loadingText={t('auth.creatingAccount')}>
        {t('auth.createAccount')}
      </Button>
      <p className="form__switch">
        {t('auth.haveAccount')} <Link to={paths.login}>{t('auth.login')}</Link>
      </p>
    </form>
  );
}
