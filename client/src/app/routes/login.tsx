import { useDocumentTitle } from '../../hooks/use-document-title';
import { AuthCard } from '../../features/auth/components/auth-card';
import { LoginForm } from '../../features/auth/components/login-form';

export default function LoginRoute() {
  useDocumentTitle('Login');
  return (
    <AuthCard title="Login" subtitle="Welcome back! Log in to get tickets, join forums and chat.">
      <LoginForm />
    </AuthCard>
  );
}
