/*
 * /my-data/<token>: the page the "Your data is ready" email links to (docs/decisions/data-rights.md). The ZIP is
 * fetched signed in (the link alone is not enough) when the person presses the button, not on load: the link
 * works once, and a preview or a reload must not use it up.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { getErrorMessage } from '../../../lib/errors';
import { useT } from '../../../lib/i18n';
import { saveFile } from '../../../lib/save-file';
import { downloadDataExport } from '../api/profile-api';

export function DataExportDownload({ token, signedIn }: { token: string; signedIn: boolean }) {
  const t = useT();
  const [state, setState] = useState<'idle' | 'downloading' | 'done'>('idle');
  const [failure, setFailure] = useState<string | null>(null);

  const download = async () => {
    setState('downloading');
    setFailure(null);
    try {
      saveFile(await downloadDataExport(token), `tukio-data-${new Date().toISOString().slice(0, 10)}.zip`);
      setState('done');
    } catch (error) {
      setFailure(getErrorMessage(error, t('profile.dataDownloadFailed')));
      setState('idle');
    }
  };

  if (!signedIn) {
    return (
      <div className="card your-data">
        <p>{t('profile.dataDownloadLogIn')}</p>
        <Link className="btn btn--primary" to={paths.login}>
          {t('profile.dataDownloadGoToLogin')}
        </Link>
      </div>
    );
  }
  return (
    <div className="card your-data">
      <p>{t('profile.dataDownloadIntro')}</p>
      {state === 'done' ? (
        <p role="status" className="your-data__state">
          {t('profile.dataDownloadDone')}
        </p>
      ) : (
        <Button loading={state === 'downloading'} loadingText={t('profile.dataDownloading')} onClick={() => void download()}>
          {t('profile.dataDownloadButton')}
        </Button>
      )}
      {failure && (
        <p role="alert" className="form-message form-message--error">
          {failure}
        </p>
      )}
      <Link to={paths.profile}>{t('profile.dataDownloadBack')}</Link>
    </div>
  );
}
