import { useEffect, useRef } from 'react';
import { formatDateTime } from '../../../lib/format';
import type { EventItem } from '../api/events-api';
import './cancel-event.css';
import { RichText, useT } from '../../../lib/i18n';

/**
 * What everyone sees on a cancelled event (its page, its edit page): when, the organiser's reason, and
 * what happened to tickets and money. `focus` moves focus here, for the person who just cancelled it.
 */
export function EventCancelledBanner({ event, focus = false }: { event: Pick<EventItem, 'cancelReason' | 'cancelledAt' | 'isPaid'>; focus?: boolean }) {
  const t = useT();
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);

  const when = formatDateTime(event.cancelledAt);
  return (
    <section ref={ref} className="event-cancelled" aria-labelledby="event-cancelled-title" tabIndex={-1}>
      <h2 id="event-cancelled-title" className="event-cancelled__title">
        {t('events.cancelledTitle')}
      </h2>
      {when ? (
        <p className="event-cancelled__when">
          <RichText id="events.cancelledOn" parts={{ when: <time dateTime={event.cancelledAt ?? undefined}>{when}</time> }} />
        </p>
      ) : null}
      {event.cancelReason ? (
        <blockquote className="event-cancelled__reason">
          <p>
            <span className="visually-hidden">{t('events.reason')} </span>
            {event.cancelReason}
          </p>
        </blockquote>
      ) : null}
      <p className="event-cancelled__money">
        {event.isPaid ? t('events.cancelledMoneyPaid') : t('events.cancelledMoneyFree')}
      </p>
    </section>
  );
}
