/*
 * The widget's page inside its frame (/embed/events/:id, docs/decisions/widget.md): the event's title, time and
 * venue, the ticket box (the tickets feature's, passed in by the route) and a link to the event on Tukio, in
 * a new tab. No header, menu or footer: the host page is the page; nothing here leaves the frame except links
 * that open a new tab.
 */
import type { ReactNode } from 'react';
import { paths } from '../../../config/paths';
import { formatEventDate, formatEventTime } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import type { EventItem } from '../../../types/api';
import { useFrameHeight } from '../hooks/use-frame-height';
import '../widget.css';

export interface EmbeddedEventProps {
  event: Pick<EventItem, '_id' | 'title' | 'date' | 'location'>;
  ticketBox: ReactNode;
}

export function EmbeddedEvent({ event, ticketBox }: EmbeddedEventProps) {
  const t = useT();
  return (
    <EmbeddedFrame>
      <header className="embedded-event__header">
        <h1 className="embedded-event__title">{event.title}</h1>
        <p className="embedded-event__when">
          <time dateTime={event.date}>
            {formatEventDate(event.date)} · {formatEventTime(event.date)}
          </time>
        </p>
        <p className="embedded-event__where">{event.location}</p>
      </header>
      {ticketBox}
      <p className="embedded-event__more">
        <a href={paths.event(event._id)} target="_blank" rel="noopener noreferrer">
          {t('widget.seeOnTukio')}
        </a>
      </p>
    </EmbeddedFrame>
  );
}

/** The frame's page around anything shown in it (the event, or why it cannot be): reports its height to widget.js. */
export function EmbeddedFrame({ children }: { children: ReactNode }) {
  useFrameHeight();
  return <main className="embedded-event">{children}</main>;
}
