/* A link to the door check-in page, shown to the event's creator and to admins only. */
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { useStaffAccess } from '../hooks/use-staff-access';
import { useT } from '../../../lib/i18n';

export function CheckInLink({ eventId, ownerId, userId, className }: { eventId: string; ownerId: string; userId: string | null; className?: string }) {
  const t = useT();
  const access = useStaffAccess(userId, ownerId);
  if (access !== 'allowed') return null;
  return (
    <Link className={className ?? 'btn btn--secondary btn--block'} to={paths.checkin(eventId)}>
      {t('tickets.checkInTickets')}
    </Link>
  );
}
