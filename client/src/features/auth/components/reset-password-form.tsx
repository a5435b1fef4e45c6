import { PASSWORD_MIN_LENGTH } from '@tukio/shared/limits';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { notify } from '../../../lib/notify';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { resetPasswordRequest } from '../api/auth-api';
import { ConfirmPasswordField, NewPasswordField } from './auth-fields';
import { useT } from '../../../lib/i18n';

const SUCCESS = 'auth.passwordResetDone';
// docs/product.md: a failed reset shows the same text as a failed reset-link request.
const FAILURE = 'auth.resetLinkFailed';

interface Errors {
  password?: string;
  confirmPassword?: string;
}

export function ResetPasswordForm({ token }: { token: string }) {
  const t = useT();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const found: Errors = {};
    if (password.length < PASSWORD_MIN_LENGTH) found.password = t('auth.passwordMinLength', { min: PASSWORD_MIN_LENGTH });
    if (confirmPassword !== password) found.confirmPassword = t('auth.passwordsDoNotMatch');
    setErrors(found);
    if (found.password || found.confirmPassword) {
      const form = event.currentTarget;
      form.querySelector<HTMLInputElement>(`[name="${found.password ? 'password' : 'confirmPassword'}"]`)?.focus();
      return;
    }

    setPending(true);
    try {
      const data = await resetPasswordRequest(token, password);
      if (data.status) {
        notify.success(t(SUCCESS));
        void navigate(paths.login, { replace: true });
        return;
      }
      notify.error(t(FAILURE));
    } catch {
      notify.error(t(FAILURE));
    }
    setPending(false);
  };

  return (
    <form className="form" onSubmit={handleSubmit} noValidate>
      <NewPasswordField
        label={t('auth.newPassword')}
        value={password}
        error={errors.password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <ConfirmPasswordField
        value={confirmPassword}
        error={errors.confirmPassword}
        onChange={(event) => setConfirmPassword(event.target.value)}
      />
      <Button type="submit" block loading={pending} loadingText={t('auth.resetting')}>
        {t('auth.resetPassword')}
      </Button>
    </form>
  );
}
