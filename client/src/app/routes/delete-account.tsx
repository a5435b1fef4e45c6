/* DELETE MY ACCOUNT (/delete-account/:token): the page the "Delete my account" email's confirmation link opens. */
import { useParams } from 'react-router-dom';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/i18n';
import { AccountDeletionLink } from '../../features/profile';
import '../../features/profile/profile.css';

export default function DeleteAccountRoute() {
  const t = useT();
  useDocumentTitle(t('profile.deleteAccountHeading'));
  const { token = '' } = useParams();
  return (
    <div className="page profile">
      <h1>{t('profile.deleteAccountHeading')}</h1>
      <AccountDeletionLink key={token} token={token} kind="confirm" />
    </div>
  );
}
