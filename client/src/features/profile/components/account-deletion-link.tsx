/*
 * /delete-account/<token> and /delete-account/undo/<token>: the pages the "Delete my account" emails link to
 * (docs/decisions/data-rights.md). They act when the person presses the button, not on load: a mail scanner's
 * preview must not delete (or restore) an account. Confirming works signed in or not, and signs this browser out.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { usePrivacySettings } from '../../../hooks/use-privacy-settings';
import { useSession } from '../../../hooks/use-session';
import { getErrorMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { confirmAccountDeletion, undoAccountDeletion } from '../api/profile-api';

export function AccountDeletionLink({ token, kind }: { token: string; kind: 'confirm' | 'undo' }) {
  const t = useT();
  const { logout } = useSession();
  const [state, setState] = useState<'idle' | 'sending' | 'done'>('idle');
  const [eraseAt, setEraseAt] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // The grace period is the server's setting (ACCOUNT_DELETION_GRACE_DAYS), never a number written here.
  const graceDays = usePrivacySettings().data?.deletionGraceDays;

  const act = async () => {
    setState('sending');
    setFailure(null);
    try {
      if (kind === 'confirm') {
        setEraseAt((await confirmAccountDeletion(token)).eraseAt);
        // The account's sessions were ended on the server; this browser forgets its own too.
        logout();
      } else {
        await undoAccountDeletion(token);
      }
      setState('done');
    } catch (error) {
      setFailure(getErrorMessage(error, t('profile.deleteLinkFailed')));
      setState('idle');
    }
  };

  return (
    <div className="card your-data">
      {state === 'done' ? (
        <>
          <p role="status" className="your-data__state">
            {kind === 'confirm' ? t('profile.deleteLinkDone', { when: formatDateTime(eraseAt) }) : t('profile.undoLinkDone')}
          </p>
          {kind === 'undo' && (
            <Link className="btn btn--primary" to={paths.login}>
              {t('profile.dataDownloadGoToLogin')}
            </Link>
          )}
        </>
      ) : (
        <>
          {kind === 'undo' ? <p>{t('profile.undoLinkIntro')}</p> : graceDays !== undefined && <p>{t('profile.deleteLinkIntro', { days: graceDays })}</p>}
          <Button variant={kind === 'confirm' ? 'danger' : 'primary'} loading={state === 'sending'} loadingText={t('profile.deleteAccountSending')} onClick={() => void act()}>
            {kind === 'confirm' ? t('profile.deleteAccountSubmit') : t('profile.undoLinkButton')}
          </Button>
        </>
      )}
      {failure && (
        <p role="alert" className="form-message form-message--error">
          {failure}
        </p>
      )}
    </div>
  );
}
