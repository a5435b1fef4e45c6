import { useDocumentTitle } from '../../hooks/use-document-title';
import { AuthCard, ForgotPasswordForm } from '../../features/auth';

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
