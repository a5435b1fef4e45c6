/* PAYOUTS (/payouts): an organiser's payouts and their team for all events (teams feature); visitors go to /login first, the server refuses non-organisers. */
import { Navigate } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useSession } from '../../hooks/use-session';
import { PayoutsPage } from '../../features/payouts';
import { TeamSection } from '../../features/teams';

export default function PayoutsRoute() {
  const { user, isLoggedIn } = useSession();
  if (!isLoggedIn || !user) return <Navigate to={paths.login} replace state={{ from: paths.payouts }} />;
  return <PayoutsPage key={user._id} team={<TeamSection />} />;
}
