import { useId, type ReactNode } from 'react';
import { LoadMore } from '../../../components/ui/load-more';
import type { ListedEvent } from '../../../types/api';
import type { PagedAdminEvents } from '../hooks/use-admin-events';

interface AdminEventListProps {
  title: string;
  /** The list, read a page at a time: its heading counts the whole list, its foot loads more. */
  list: PagedAdminEvents;
  empty: ReactNode;
  renderCard: (event: ListedEvent) => ReactNode;
  /** Render as a disclosure (closed until opened), for long repeated lists such as 'All Events'. */
  collapsible?: boolean;
}

/** 'Pending Events (n)' and friends: a heading with the count, a grid of admin cards and "Load more". */
export function AdminEventList({ title, list, empty, renderCard, collapsible = false }: AdminEventListProps) {
  const headingId = useId();
  const heading = (
    <h2 id={headingId}>
      {title} ({list.total})
    </h2>
  );
  const content =
    list.items.length === 0 ? (
      <p className="empty-state">{empty}</p>
    ) : (
      <>
        <ul className="admin-grid">
          {list.items.map((event) => (
            <li key={event._id}>{renderCard(event)}</li>
          ))}
        </ul>
        <LoadMore shown={list.items.length} total={list.total} hasMore={list.hasMore} loading={list.loadingMore} error={list.loadMoreError} onLoadMore={list.loadMore} />
      </>
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
