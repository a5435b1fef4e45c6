import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { notify } from '../../../lib/notify';
import { Button } from '../../../components/ui/button';
import { EmailField } from '../../../components/ui/form-field';
import { paths } from '../../../config/paths';
import { forgotPasswordRequest } from '../api/auth-api';

const SUCCESS = 'Password reset link sent to your email!';
const FAILURE = 'Failed to send password reset link. Please try again.';

export function ForgotPasswordForm() {
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
        notify.success(SUCCESS);
        setSent(true);
      } else {
        notify.error(FAILURE);
      }
    } catch {
      notify.error(FAILURE);
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
      <Button type="submit" block loading={pending} loadingText="Sending…">
        Send Reset Link
      </Button>
      {sent ? (
        <p className="form-message form-message--success" role="status">
          If an account exists for that address, a reset link is on its way. Check your spam folder too.
        </p>
      ) : null}
      <p className="form__switch">
        Remembered it? <Link to={paths.login}>Back to Login</Link>
      </p>
    </form>
  );
}
