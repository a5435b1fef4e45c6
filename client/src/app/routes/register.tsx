import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/i18n';
import { AuthCard, RegisterForm } from '../../features/auth';

export default function RegisterRoute() {
  const t = useT();
  useDocumentTitle(t('auth.registerTitle'));
  return (
    <AuthCard title={t('auth.registerTitle')} subtitle={t('auth.registerSubtitle')}>
      <RegisterForm />
    </AuthCard>
  );
}
