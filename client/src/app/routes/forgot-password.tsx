import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/i18n';
import { AuthCard, ForgotPasswordForm } from '../../features/auth';

export default function ForgotPasswordRoute() {
  const t = useT();
  useDocumentTitle(t('auth.forgotTitle'));
  return (
    <AuthCard
      title={t('auth.forgotTitle')}
      subtitle={t('auth.forgotSubtitle')}
    >
      <ForgotPasswordForm />
    </AuthCard>
  );
}
