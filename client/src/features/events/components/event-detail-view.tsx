/*
 * The body of /events/{id}. Other features' parts (ticket box, comments, forum summary, reviews) come in
 * as slots from app/routes/event-detail.tsx: features never import each other (docs/decisions/client-boundaries.md).
 */
import type { ReactNode } from 'react';
import { formatEventDate, formatEventTime, formatPrice } from '../../../lib/format';
import { paths } from '../../../config/paths';
import { mapsSearchUrl } from '../lib/share';
import { AddToCalendar } from './add-to-calendar';
import type { EventItem } from '../../../types/api';
import { EventHero } from './event-hero';
import { RelatedEvents } from './related-events';
import { ShareButtons } from './share-buttons';

export interface EventDetailViewProps {
  event: EventItem;
  /** The event's start time has passed (Kenyan wall clock). */
  hasTakenPlace: boolean;
  /** Beside the description; first in reading order. */
  ticketBox: ReactNode;
  /** Below the details, always shown. */
  comments: ReactNode;
  /** Above the comments, shown only once the event has taken place (forum summary, reviews). */
  afterEvent?: ReactNode;
}

export function EventDetailView({ event, hasTakenPlace, ticketBox, comments, afterEvent }: EventDetailViewProps) {
  const pageUrl = `${window.location.origin}${paths.event(event._id)}`;
  const price = formatPrice(event.isPaid, event.ticketPrice);

  return (
    <article className="event-detail">
      <EventHero event={event} />

      <div className="page event-detail__layout">
        {/* First in reading order so phones see the ticket box right under the title. */}
        <div className="event-detail__aside">
          {ticketBox}
        </div>
        <div className="event-detail__main">
          <section aria-labelledby="about-event">
            <h2 id="about-event">About this event</h2>
            <p className="event-detail__description">{event.description}</p>
          </section>

          <dl className="event-facts">
            <div>
              <dt>Date</dt>
              <dd>{formatEventDate(event.date)}</dd>
            </div>
            <div>
              <dt>Time</dt>
              <dd>{formatEventTime(event.date)}</dd>
            </div>
            <div className="event-facts__price">
              <dt>Price</dt>
              <dd>{price}</dd>
            </div>
            <div className="event-facts__wide">
              <dt>Venue</dt>
              <dd>
                {event.location}
                <br />
                <a href={mapsSearchUrl(event.location)} target="_blank" rel="noopener noreferrer">
                  View on Google Maps<span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              </dd>
            </div>
          </dl>

          <div className="event-detail__actions">
            <AddToCalendar
              event={{ id: event._id, title: event.title, description: event.description, location: event.location, date: event.date, url: pageUrl }}
            />
          </div>
          {event.status === 'approved' ? <ShareButtons eventId={event._id} title={event.title} pageUrl={pageUrl} /> : null}
        </div>
      </div>

      <div className="page event-detail__community">
        {hasTakenPlace ? afterEvent : null}
        {comments}
        <RelatedEvents eventId={event._id} />
      </div>
    </article>
  );
}
