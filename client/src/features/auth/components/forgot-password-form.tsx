import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { notify } from '../../../lib/notify';
import { Button } from '../../../components/ui/button';
import { EmailField } from '../../../components/ui/form-field';
import { paths } from '../../../config/paths';
import { forgotPasswordRequest } from '../api/auth-api';
import { useT } from '../../../lib/i18n';

const SUCCESS = 'auth.resetLinkSent';
const FAILURE = 'auth.resetLinkFailed';

export function ForgotPasswordForm() {
  const t = useT();
  const [email, setEmail] = useState('');
  const [pending, setPending] = useState(false);
  const [sent, setSent] = useState(false);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    try {
      const data = await forgotPasswordRequest(email.trim());
      if (data.status) {
        notify.success(t(SUCCESS));
        setSent(true);
      } else {
        notify.error(t(FAILURE));
      }
    } catch {
      notify.error(t(FAILURE));
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="form" onSubmit={handleSubmit}>
      <EmailField
        value={email}
        onChange={(event) => {
          setEmail(event.target.value);
          setSent(false);
        }}
      />
      <Button type="submit" block loading={pending} loadingText={t('auth.sending')}>
        {t('auth.sendResetLink')}
      </Button>
      {sent ? (
        <p className="form-message form-message--success" role="status">
          {t('auth.resetLinkOnItsWay')}
        </p>
      ) : null}
      <p className="form__switch">
        {t('auth.rememberedIt')} <Link to={paths.login}>{t('auth.backToLogin')}</Link>
      </p>
    </form>
  );
}
