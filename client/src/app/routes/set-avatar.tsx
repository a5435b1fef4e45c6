import { Navigate } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/i18n';
import { useSession } from '../../hooks/use-session';
import { AvatarPicker } from '../../features/avatar';
import '../../features/avatar/avatar.css';

export default function SetAvatarRoute() {
  const t = useT();
  useDocumentTitle(t('avatar.pageTitle'));
  const { isLoggedIn, user } = useSession();
  if (!isLoggedIn || !user) return <Navigate to={paths.login} replace />;

  return (
    <section className="page page--narrow set-avatar">
      <h1>{t('avatar.title')}</h1>
      <p className="lead">
        {t('avatar.lead')}
      </p>
      <AvatarPicker userId={user._id} />
    </section>
  );
}
