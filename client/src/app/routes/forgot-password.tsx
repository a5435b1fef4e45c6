import { useDocumentTitle } from '../../hooks/use-document-title';
import { AuthCard } from '../../features/auth/components/auth-card';
import { ForgotPasswordForm } from '../../features/auth/components/forgot-password-form';

export default function ForgotPasswordRoute() {
  useDocumentTitle('Forgot Password');
  return (
    <AuthCard
      title="Forgot Password"
      subtitle="Enter the email address you registered with and we will send you a link to reset your password."
    >
      <ForgotPasswordForm />
    </AuthCard>
  );
}
