/* YOUR DATA (/my-data/:token): the page the "Your data is ready" email links to; the download needs the account that asked. */
import { useParams } from 'react-router-dom';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useSession } from '../../hooks/use-session';
import { useT } from '../../lib/i18n';
import { DataExportDownload } from '../../features/profile';
import '../../features/profile/profile.css';

export default function DataExportRoute() {
  const t = useT();
  useDocumentTitle(t('profile.yourData'));
  const { token = '' } = useParams();
  const { isLoggedIn } = useSession();
  return (
    <div className="page profile">
      <h1>{t('profile.yourData')}</h1>
      <DataExportDownload key={token} token={token} signedIn={isLoggedIn} />
    </div>
  );
}
