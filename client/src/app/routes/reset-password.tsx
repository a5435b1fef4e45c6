import { useParams } from 'react-router-dom';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { AuthCard, ResetPasswordForm } from '../../features/auth';

export default function ResetPasswordRoute() {
  useDocumentTitle('Reset Password');
  const { token = '' } = useParams();
  return (
    <AuthCard title="Reset Password" subtitle="Choose a new password for your Tukio account.">
      <ResetPasswordForm token={token} />
    </AuthCard>
  );
}
