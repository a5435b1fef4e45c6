import { useDocumentTitle } from '../../hooks/use-document-title';
import { AuthCard, LoginForm } from '../../features/auth';

export default function LoginRoute() {
  useDocumentTitle('Login');
  return (
    <AuthCard title="Login" subtitle="Welcome back! Log in to get tickets, join forums and chat.">
      <LoginForm />
    </AuthCard>
  );
}
