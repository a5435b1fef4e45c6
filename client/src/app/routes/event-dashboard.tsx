/* EVENT DASHBOARD (/events/:id/dashboard): the organiser or an admin; visitors go to /login first. */
import { Navigate, useParams } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useSession } from '../../hooks/use-session';
import { EventDashboardPage } from '../../features/dashboard';

export default function EventDashboardRoute() {
  const { id = '' } = useParams();
  const { user, isLoggedIn } = useSession();
  if (!isLoggedIn || !user) return <Navigate to={paths.login} replace state={{ from: paths.eventDashboard(id) }} />;
  return <EventDashboardPage key={`${user._id}:${id}`} eventId={id} />;
}
