import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { formatEventDate, formatEventTime, formatPrice, formatSeriesDay } from '../../../lib/format';
import type { EventItem } from '../api/events-api';
import { EventImage } from '../../../components/event-image';
import '../events.css';
import { useT } from '../../../lib/i18n';

/** A linked event summary. The whole card is clickable through the title link (one tab stop). */
export function EventCard({ event, priority = false }: { event: EventItem; priority?: boolean }) {
  const t = useT();
  const price = formatPrice(event.isPaid, event.ticketPrice, event.ticketPriceMax);
  return (
    <article className="event-card">
      <div className="event-card__media">
        <EventImage
          className="event-card__image"
          src={event.image}
          alt=""
          // A card at the top of a page is its largest paint: load it at once, first.
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : undefined}
          decoding="async"
          width={640}
          height={360}
        />
        <span className={`event-card__price${!event.isPaid || !event.ticketPrice ? ' event-card__price--free' : ''}`}>{price}</span>
        {event.status === 'cancelled' ? <span className="badge badge--cancelled event-card__status">{t('common.cancelled')}</span> : null}
      </div>
      <div className="event-card__body">
        {event.nextDate ? (
          // A series shows once, with its next date and how many more follow (docs/decisions/event-series.md).
          <p className="event-card__date">
            <time dateTime={event.nextDate.startsAt}>{t('common.seriesNext', { date: formatSeriesDay(event.nextDate.startsAt) })}</time>
            {laterDates(event) > 0 ? ` · ${t('common.seriesMore', { count: laterDates(event) })}` : null}
          </p>
        ) : (
          <p className="event-card__date">
            <time dateTime={event.date}>
              {formatEventDate(event.date)} · {formatEventTime(event.date)}
            </time>
          </p>
        )}
        <h3 className="event-card__title">
          <Link className="event-card__link" to={paths.event(event._id)}>
            {event.title}
          </Link>
        </h3>
        <p className="event-card__location">{event.location}</p>
      </div>
    </article>
  );
}

/** Grey placeholder shaped like a card; the grid around it carries the loading status. */
export function EventCardSkeleton() {
  return (
    <div className="event-card event-card--skeleton" aria-hidden="true">
      <div className="event-card__media skeleton" />
      <div className="event-card__body">
        <span className="skeleton skeleton--line skeleton--short" />
        <span className="skeleton skeleton--line" />
        <span className="skeleton skeleton--line skeleton--medium" />
      </div>
    </div>
  );
}

/** `priority`: how many of the first cards are above the fold (their images load eagerly). */
export function EventGrid({ events, variant = 'grid', priority = 0 }: { events: EventItem[]; variant?: 'grid' | 'row'; priority?: number }) {
  return (
    <ul className={`event-grid event-grid--${variant}`}>
      {events.map((event, index) => (
        <li key={event._id}>
          <EventCard event={event} priority={index < priority} />
        </li>
      ))}
    </ul>
  );
}

export function EventGridSkeleton({ count, label, variant = 'grid' }: { count: number; label?: string; variant?: 'grid' | 'row' }) {
  const t = useT();
  return (
    <div role="status" aria-live="polite">
      <span className="visually-hidden">{label ?? t('common.loadingEvents')}</span>
      <ul className={`event-grid event-grid--${variant}`} aria-hidden="true">
        {Array.from({ length: count }, (_, index) => (
          <li key={index}>
            <EventCardSkeleton />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Active dates after a series' next one. */
function laterDates(event: { dates?: Array<{ startsAt: string; status: string }>; nextDate?: { startsAt: string } | null }): number {
  const next = event.nextDate ? Date.parse(event.nextDate.startsAt) : Infinity;
  return (event.dates ?? []).filter((date) => date.status === 'active' && Date.parse(date.startsAt) > next).length;
}
