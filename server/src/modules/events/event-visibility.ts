import type { Caller } from '../../lib/team-access.js';
import type { AuthUser } from '../auth/index.js';

/**
 * Who may see an event, and so anything hung on it (comments, reviews, forums, counters): a published
 * event everyone; a pending one only its organiser and admins. Everyone else is answered exactly as
 * for an id that does not exist, so an unpublished event cannot be told apart from a missing one. A
 * cancelled event stays as visible as it was when it was cancelled (`cancelledFrom`).
 */
export function canSeeEvent(event: { status: string; userId: string; cancelledFrom?: string | null }, viewer: AuthUser | undefined): boolean {
  if (event.status === 'approved' || (event.status === 'cancelled' && event.cancelledFrom === 'approved')) return true;
  // The organiser's team member the route gate granted a role on this event sees it as the organiser does.
  return Boolean(viewer && (viewer.role === 'admin' || viewer.id === event.userId || (viewer as Caller).actingFor?.organiserId === event.userId));
}
