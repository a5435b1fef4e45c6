import { useFetch } from '../../../hooks/use-fetch';
import { getRelatedEvents } from '../api/events-api';
import { EventSection } from './event-section';
import { FormMessage } from '../../../components/ui/form-message';
import { getServerMessage } from '../../../lib/errors';

/** 'Events You Might Also Like': the server's related events (same area, at most 3). */
export function RelatedEvents({ eventId }: { eventId: string }) {
  const related = useFetch(`events:related:${eventId}`, (signal) => getRelatedEvents(eventId, signal));
  if (related.error) {
    const message =
      getServerMessage(related.error) ?? (related.error instanceof Error ? related.error.message : 'Something went wrong.');
    return (
      <section className="event-section" aria-labelledby="related-title">
        <h2 id="related-title">Events You Might Also Like</h2>
        <FormMessage tone="error">Error loading related events: {message}</FormMessage>
      </section>
    );
  }
  return (
    <EventSection
      title="Events You Might Also Like"
      events={related.data}
      loading={related.loading}
      skeletons={3}
      empty="No related events right now."
    />
  );
}
