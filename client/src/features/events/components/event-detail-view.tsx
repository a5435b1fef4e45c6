/*
 * The body of /events/{id}. Other features' parts (ticket box, comments, forum summary, reviews) come in
 * as slots from app/routes/event-detail.tsx: features never import each other (docs/decisions/client-boundaries.md).
 */
import { useState, type ReactNode } from 'react';
import { NO_REFUNDS } from '@tukio/shared/refund-policy';
import { Link } from 'react-router-dom';
import { formatEventDate, formatEventTime, formatPrice, formatSeriesDate } from '../../../lib/format';
import { paths } from '../../../config/paths';
import { mapsSearchUrl } from '../lib/share';
import { AddToCalendar } from './add-to-calendar';
import { CancelEventButton } from './cancel-event-button';
import { EventCancelledBanner } from './event-cancelled-banner';
import { EventRefundsPanel } from './event-refunds-panel';
import type { EventItem } from '../../../types/api';
import { EventHero } from './event-hero';
import { RelatedEvents } from './related-events';
import { ShareButtons } from './share-buttons';
import { useT } from '../../../lib/i18n';
import { describeRefundPolicyText } from '../lib/refund-policy-text';

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
  /** The visitor organises the event or is an admin: the organiser's tools (edit, cancel) and its refunds. */
  canManage?: boolean;
  /** The event was cancelled from this page: the server's copy of it. */
  onCancelled?: (event: EventItem) => void;
  /** Other features' panels for the organiser and admins (e.g. the waitlist), under the refunds; shown only with canManage. */
  organiserPanels?: ReactNode;
}

export function EventDetailView({ event, hasTakenPlace, ticketBox, comments, afterEvent, canManage = false, onCancelled, organiserPanels }: EventDetailViewProps) {
  const t = useT();
  const pageUrl = `${window.location.origin}${paths.event(event._id)}`;
  const price = formatPrice(event.isPaid, event.ticketPrice, event.ticketPriceMax);
  const cancelled = event.status === 'cancelled';
  // The one who just cancelled it is taken to the banner that says so (the button they used is gone).
  const [justCancelled, setJustCancelled] = useState(false);

  return (
    <article className="event-detail">
      <EventHero event={event} />

      {cancelled ? (
        <div className="page event-detail__cancelled">
          <EventCancelledBanner event={event} focus={justCancelled} />
        </div>
      ) : null}

      <div className="page event-detail__layout">
        {/* First in reading order so phones see the ticket box right under the title. */}
        <div className="event-detail__aside">
          {ticketBox}
          {canManage && !cancelled ? (
            <section className="event-manage" aria-labelledby="event-manage-title">
              <h2 id="event-manage-title" className="event-manage__title">
                {t('events.organiserTools')}
              </h2>
              <div className="button-row">
                <Link className="btn btn--secondary" to={paths.editEvent(event._id)}>
                  {t('events.editEvent')}
                </Link>
                <CancelEventButton
                  event={event}
                  onCancelled={(updated) => {
                    setJustCancelled(true);
                    onCancelled?.(updated);
                  }}
                />
              </div>
            </section>
          ) : null}
          {canManage ? <EventRefundsPanel eventId={event._id} eventStatus={event.status} /> : null}
          {canManage ? organiserPanels : null}
        </div>
        <div className="event-detail__main">
          <section aria-labelledby="about-event">
            <h2 id="about-event">{t('events.aboutEvent')}</h2>
            <p className="event-detail__description">{event.description}</p>
          </section>

          <dl className="event-facts">
            {event.dates?.length ? (
              // A series lists every date (docs/decisions/event-series.md); a cancelled one stays, marked.
              <div className="event-facts__wide">
                <dt>{t('events.seriesDates')}</dt>
                <dd>
                  <ul className="event-series-dates" data-testid="series-dates">
                    {event.dates.map((date) => (
                      <li key={date._id}>
                        <time dateTime={date.startsAt}>{formatSeriesDate(date.startsAt)}</time>
                        {date.status === 'cancelled' ? <span className="badge badge--cancelled">{t('common.cancelled')}</span> : null}
                      </li>
                    ))}
                  </ul>
                </dd>
              </div>
            ) : (
              <>
                <div>
                  <dt>{t('events.date')}</dt>
                  <dd>{formatEventDate(event.date)}</dd>
                </div>
                <div>
                  <dt>{t('events.time')}</dt>
                  <dd>{formatEventTime(event.date)}</dd>
                </div>
              </>
            )}
            <div className="event-facts__price">
              <dt>{t('events.price')}</dt>
              <dd>{price}</dd>
            </div>
            {event.isPaid ? (
              // What a buyer gets back if they cancel their tickets from their profile.
              <div className="event-facts__wide">
                <dt>{t('events.refunds')}</dt>
                <dd>{describeRefundPolicyText(event.refundPolicy ?? NO_REFUNDS)}</dd>
              </div>
            ) : null}
            <div className="event-facts__wide">
              <dt>{t('events.venue')}</dt>
              <dd>
                {event.location}
                <br />
                <a href={mapsSearchUrl(event.location)} target="_blank" rel="noopener noreferrer">
                  {t('events.viewOnMaps')}<span className="visually-hidden"> {t('events.opensInNewTab')}</span>
                </a>
              </dd>
            </div>
          </dl>

          {/* Nobody should put a cancelled event in their calendar or share it. */}
          {cancelled ? null : (
            <div className="event-detail__actions">
              <AddToCalendar
                event={{ id: event._id, title: event.title, description: event.description, location: event.location, date: event.date, url: pageUrl }}
              />
            </div>
          )}
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
