import { useSession } from '../../auth/hooks/use-session';
import { hasEventTakenPlace, isRegisteredFor } from '../lib/event-status';
import type { CommunityEventRef } from '../types';
import { CommentsSection } from './comments-section';
import { ForumSummary } from './forum-summary';
import { ReviewsSection } from './reviews-section';

/**
 * Everything the community feature adds to /events/{id}, in SPEC order: once the event has taken
 * place the forum summary and reviews, and always the comments. Use the individual sections
 * instead when the page wants them in separate slots.
 */
export function EventCommunitySections({ event }: { event: CommunityEventRef & { date?: string | null } }) {
  const { user, isLoggedIn } = useSession();
  const past = hasEventTakenPlace(event.date);
  const registered = isLoggedIn && isRegisteredFor(event, user?._id);
  return (
    <div className="community-sections">
      {past ? <ForumSummary eventId={event._id} isRegistered={registered} /> : null}
      {past ? <ReviewsSection eventId={event._id} /> : null}
      <CommentsSection eventId={event._id} />
    </div>
  );
}
