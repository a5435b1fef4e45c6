import { Link, useParams } from 'react-router-dom';
import { PageLoader } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { AuthCard, useEmailVerification } from '../../features/auth';

export default function VerifyEmailRoute() {
  const { token = '' } = useParams();
  const { state, error } = useEmailVerification(token);
  const title =
    state === 'verifying' ? 'Verifying Email...' : state === 'verified' ? 'Email Verified' : 'Verification Failed';
  useDocumentTitle(title);

  return (
    <AuthCard title={title}>
      {state === 'verifying' ? <PageLoader label="Checking your verification link…" /> : null}
      {state === 'verified' ? (
        <div className="auth-result" role="status">
          <p>Your email address has been verified. You can now log in to your account.</p>
          <Link className="btn btn--primary btn--block" to={paths.login}>
            Go to Login
          </Link>
        </div>
      ) : null}
      {state === 'failed' ? (
        <div className="auth-result">
          <p className="form-message form-message--error" role="alert">
            {error}
          </p>
          <p>The link may be invalid, already used or expired. Try logging in, or register again to get a new link.</p>
          <Link className="btn btn--primary btn--block" to={paths.login}>
            Go to Login
          </Link>
        </div>
      ) : null}
    </AuthCard>
  );
}
