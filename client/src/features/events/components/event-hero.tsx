import { formatEventDate, formatEventTime } from '../../../lib/format';
import type { EventItem } from '../api/events-api';
import { EventImage } from '../../../components/event-image';
import './event-hero.css';
import { useT } from '../../../lib/i18n';

export type EventHeroProps = { event: Pick<EventItem, 'title' | 'image' | 'date' | 'location' | 'status'> };

/**
 * Image, title, date and venue at the top of /events/{id}. The server sends this same markup in
 * the page's HTML (src/prerender.tsx), so it paints before the app's code has loaded.
 */
export function EventHero({ event }: EventHeroProps) {
  const t = useT();
  return (
    <div className="event-hero">
      {/* Decorative blurred copy of the image behind the header. */}
      <div className="event-hero__backdrop" aria-hidden="true">
        <EventImage className="event-hero__backdrop-image" src={event.image} alt="" />
      </div>
      <div className="event-hero__inner page">
        <EventImage className="event-hero__image" src={event.image} alt={event.title} width={640} height={360} />
        <div className="event-hero__text">
          {event.status === 'cancelled' ? (
            <span className="badge badge--cancelled">{t('events.cancelled')}</span>
          ) : event.status !== 'approved' ? (
            <span className="badge badge--pending">{t('events.pendingApproval')}</span>
          ) : null}
          <h1>{event.title}</h1>
          <p className="event-hero__when">
            <time dateTime={event.date}>
              {formatEventDate(event.date)} · {formatEventTime(event.date)}
            </time>
          </p>
          <p className="event-hero__where">{event.location}</p>
        </div>
      </div>
    </div>
  );
}
