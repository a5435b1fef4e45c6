import { useId, type ReactNode } from 'react';
import type { EventItem } from '../api/events-api';
import { EventGrid, EventGridSkeleton } from './event-card';
import { useT } from '../../../lib/i18n';

interface EventSectionProps {
  title: string;
  intro?: ReactNode;
  /** Link or button shown next to the heading. */
  action?: ReactNode;
  events: EventItem[] | undefined;
  loading: boolean;
  skeletons: number;
  empty: ReactNode;
  variant?: 'grid' | 'row';
  /** How many of the first cards may be above the fold (their images load eagerly). */
  priority?: number;
}

/** A titled list of event cards with its loading and empty states. */
export function EventSection({ title, intro, action, events, loading, skeletons, empty, variant = 'grid', priority = 0 }: EventSectionProps) {
  const t = useT();
  const headingId = useId();
  return (
    <section className="event-section" aria-labelledby={headingId}>
      <div className="event-section__header">
        <div>
          <h2 id={headingId}>{title}</h2>
          {intro ? <p>{intro}</p> : null}
        </div>
        {action}
      </div>
      {loading ? (
        <EventGridSkeleton count={skeletons} label={t('common.loadingSection', { title })} variant={variant} />
      ) : events && events.length > 0 ? (
        <EventGrid events={events} variant={variant} priority={priority} />
      ) : (
        <p className="empty-state">{empty}</p>
      )}
    </section>
  );
}
