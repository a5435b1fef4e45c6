import { Link, useParams } from 'react-router-dom';
import { PageLoader } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/i18n';
import { AuthCard, useEmailVerification } from '../../features/auth';

export default function VerifyEmailRoute() {
  const t = useT();
  const { token = '' } = useParams();
  const { state, error } = useEmailVerification(token);
  const title =
    state === 'verifying' ? t('auth.verifying') : state === 'verified' ? t('auth.verified') : t('auth.verifyFailed');
  useDocumentTitle(title);

  return (
    <AuthCard title={title}>
      {state === 'verifying' ? <PageLoader label={t('auth.checkingLink')} /> : null}
      {state === 'verified' ? (
        <div className="auth-result" role="status">
          <p>{t('auth.verifiedText')}</p>
          <Link className="btn btn--primary btn--block" to={paths.login}>
            {t('auth.goToLogin')}
          </Link>
        </div>
      ) : null}
      {state === 'failed' ? (
        <div className="auth-result">
          <p className="form-message form-message--error" role="alert">
            {error}
          </p>
          <p>{t('auth.failedText')}</p>
          <Link className="btn btn--primary btn--block" to={paths.login}>
            {t('auth.goToLogin')}
          </Link>
        </div>
      ) : null}
    </AuthCard>
  );
}
