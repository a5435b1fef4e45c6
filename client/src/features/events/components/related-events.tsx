import { useQuery } from '@tanstack/react-query';
import { getRelatedEvents } from '../api/events-api';
import { EventSection } from './event-section';
import { FormMessage } from '../../../components/ui/form-message';
import { getServerMessage } from '../../../lib/errors';
import { useT } from '../../../lib/i18n';

/** 'Events You Might Also Like': the server's related events (same area, at most 3). */
export function RelatedEvents({ eventId }: { eventId: string }) {
  const t = useT();
  const related = useQuery({ queryKey: ['events', 'related', eventId], queryFn: ({ signal }) => getRelatedEvents(eventId, signal) });
  if (related.error) {
    const message =
      getServerMessage(related.error) ?? (related.error instanceof Error ? related.error.message : t('events.somethingWrong'));
    return (
      <section className="event-section" aria-labelledby="related-title">
        <h2 id="related-title">{t('events.relatedTitle')}</h2>
        <FormMessage tone="error">{t('events.relatedFailed', { message })}</FormMessage>
      </section>
    );
  }
  return (
    <EventSection
      title={t('events.relatedTitle')}
      events={related.data}
      loading={related.isLoading}
      skeletons={3}
      empty={t('events.relatedEmpty')}
    />
  );
}
