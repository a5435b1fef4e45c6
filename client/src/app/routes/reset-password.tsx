import { useParams } from 'react-router-dom';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/i18n';
import { AuthCard, ResetPasswordForm } from '../../features/auth';

export default function ResetPasswordRoute() {
  const t = useT();
  useDocumentTitle(t('auth.resetTitle'));
  const { token = '' } = useParams();
  return (
    <AuthCard title={t('auth.resetTitle')} subtitle={t('auth.resetSubtitle')}>
      <ResetPasswordForm token={token} />
    </AuthCard>
  );
}
