import { useId, type ReactNode } from 'react';
import type { EventItem } from '../../../types/api';

interface AdminEventListProps {
  title: string;
  events: EventItem[];
  empty: string;
  renderCard: (event: EventItem) => ReactNode;
  /** Render as a disclosure (closed until opened), for long repeated lists such as 'All Events'. */
  collapsible?: boolean;
}

/** 'Pending Events (n)' and friends: a heading with the count and a grid of admin cards. */
export function AdminEventList({ title, events, empty, renderCard, collapsible = false }: AdminEventListProps) {
  const headingId = useId();
  const heading = (
    <h2 id={headingId}>
      {title} ({events.length})
    </h2>
  );
  const content =
    events.length === 0 ? (
      <p className="empty-state">{empty}</p>
    ) : (
      <ul className="admin-grid">
        {events.map((event) => (
          <li key={event._id}>{renderCard(event)}</li>
        ))}
      </ul>
    );
  return (
    <section className="admin-section" aria-labelledby={headingId}>
      {collapsible ? (
        <details>
          <summary>{heading}</summary>
          {content}
        </details>
      ) : (
        <>
          {heading}
          {content}
        </>
      )}
    </section>
  );
}
