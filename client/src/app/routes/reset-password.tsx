import { useParams } from 'react-router-dom';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { AuthCard } from '../../features/auth/components/auth-card';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form';

export default function ResetPasswordRoute() {
  useDocumentTitle('Reset Password');
  const { token = '' } = useParams();
  return (
    <AuthCard title="Reset Password" subtitle="Choose a new password for your Tukio account.">
      <ResetPasswordForm token={token} />
    </AuthCard>
  );
}
