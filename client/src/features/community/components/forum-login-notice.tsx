import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { useT } from '../../../lib/i18n';

/** Shown on the forum pages to visitors without a session (the API refuses them with 401). */
export function ForumLoginNotice() {
  const t = useT();
  return (
    <div className="notice" role="status">
      <p>{t('community.forumLoginMessage')}</p>
      <Link className="btn btn--primary btn--sm" to={paths.login}>
        {t('community.login')}
      </Link>
    </div>
  );
}

/** Shown instead of a posting form to signed-in users without a ticket for the event. */
export function ForumRegisterNotice({ eventId }: { eventId: string }) {
  const t = useT();
  return (
    <div className="notice">
      <p>{t('community.registerToPost')}</p>
      <Link className="btn btn--secondary btn--sm" to={paths.event(eventId)}>
        {t('community.goToEvent')}
      </Link>
    </div>
  );
}
