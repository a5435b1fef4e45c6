import { useDocumentTitle } from '../../hooks/use-document-title';
import { AuthCard, RegisterForm } from '../../features/auth';

export default function RegisterRoute() {
  useDocumentTitle('Register');
  return (
    <AuthCard title="Register" subtitle="Create your free Tukio account to get tickets and post events.">
      <RegisterForm />
    </AuthCard>
  );
}
