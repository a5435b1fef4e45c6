/*
 * DELETE MY ACCOUNT: the pages the "Delete my account" emails open, /delete-account/:token (confirm) and
 * /delete-account/undo/:token (keep the account).
 */
import { useMatch, useParams } from 'react-router-dom';
import { routePatterns } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/i18n';
import { AccountDeletionLink } from '../../features/profile';
import '../../features/profile/profile.css';

export default function DeleteAccountRoute() {
  const t = useT();
  useDocumentTitle(t('profile.deleteAccountHeading'));
  const { token = '' } = useParams();
  const kind = useMatch(routePatterns.deleteAccountUndo) ? 'undo' : 'confirm';
  return (
    <div className="page profile">
      <h1>{t('profile.deleteAccountHeading')}</h1>
      <AccountDeletionLink key={`${kind}:${token}`} token={token} kind={kind} />
    </div>
  );
}
