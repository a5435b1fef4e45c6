/* DOOR CHECK-IN (/checkin/:eventId): the event's creator or an admin; visitors go to /login. */
import { Navigate, useParams } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/i18n';
import { useSession } from '../../hooks/use-session';
import { getEvent } from '../../features/events';
import { CheckInPage } from '../../features/tickets';

export default function CheckInRoute() {
  const t = useT();
  useDocumentTitle(t('tickets.checkInTitle'));
  const { eventId = '' } = useParams();
  const { user, isLoggedIn } = useSession();
  if (!isLoggedIn || !user) return <Navigate to={paths.login} replace state={{ from: paths.checkin(eventId) }} />;
  return <CheckInPage key={`${user._id}:${eventId}`} eventId={eventId} userId={user._id} loadEvent={getEvent} />;
}
