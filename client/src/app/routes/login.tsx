import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/i18n';
import { AuthCard, LoginForm } from '../../features/auth';

export default function LoginRoute() {
  const t = useT();
  useDocumentTitle(t('auth.loginTitle'));
  return (
    <AuthCard title={t('auth.loginTitle')} subtitle={t('auth.loginSubtitle')}>
      <LoginForm />
    </AuthCard>
  );
}
