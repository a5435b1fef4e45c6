import { useDocumentTitle } from '../../hooks/use-document-title';
import { AuthCard } from '../../features/auth/components/auth-card';
import { RegisterForm } from '../../features/auth/components/register-form';

export default function RegisterRoute() {
  useDocumentTitle('Register');
  return (
    <AuthCard title="Register" subtitle="Create your free Tukio account to get tickets and post events.">
      <RegisterForm />
    </AuthCard>
  );
}
