/* ORGANISER PAYOUTS (/payouts/organisers/:organiserId): an organiser's payouts, read-only, for a finance member of all their events; the server decides who may read them. */
import { Navigate, useLocation, useParams } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useSession } from '../../hooks/use-session';
import { OrganiserPayoutsPage } from '../../features/payouts';

export default function OrganiserPayoutsRoute() {
  const { user, isLoggedIn } = useSession();
  const { organiserId = '' } = useParams();
  const location = useLocation();
  if (!isLoggedIn || !user) return <Navigate to={paths.login} replace state={{ from: paths.organiserPayouts(organiserId) }} />;
  // The organiser's name comes with the link from "Events you help with" (only for the heading: the server checks the id).
  const organiserName = (location.state as { organiser?: unknown } | null)?.organiser;
  return <OrganiserPayoutsPage key={`${user._id}:${organiserId}`} organiserId={organiserId} organiserName={typeof organiserName === 'string' ? organiserName : undefined} />;
}
