/*
 * The event's waitlist for its organiser (GET /api/events/:id/waitlist): people waiting, offers live now, how
 * places ended (accepted, expired, left), and each place by username only: seats asked for, state, and until
 * when an offer is held. Read each time the panel opens; "Refresh" reads it again.
 */
import { Button } from '../../../components/ui/button';
import { LoadingOrFailure } from '../../../components/ui/disclosure-panel';
import { useFetch } from '../../../hooks/use-fetch';
import { formatDateTime } from '../../../lib/format';
import { getEventWaitlist } from '../api/waitlist-api';
import { formatNairobiTime, plural, WAITLIST_STATUS } from '../lib/waitlist-text';

export default function WaitlistSummary({ eventId }: { eventId: string }) {
  const list = useFetch(`event-waitlist:${eventId}`, (signal) => getEventWaitlist(eventId, signal));
  const data = list.data;

  if (!data) {
    return <LoadingOrFailure error={list.error} reload={list.reload} loadingText="Loading the waitlist…" failureText="Could not load the waitlist. Please try again." className="waitlist-panel__body" />;
  }


  const counts = [
    { term: 'Waiting', value: plural(data.length, 'person', 'people') },
    { term: 'Offered now', value: plural(data.offered, 'person', 'people') },
    { term: 'Accepted', value: plural(data.accepted, 'person', 'people') },
    { term: 'Offers expired', value: String(data.expired) },
    { term: 'Left', value: String(data.left) },
  ];
  return (
    <div className="waitlist-panel__body">
      <dl className="waitlist-panel__counts">
        {counts.map((count) => (
          <div key={count.term}>
            <dt>{count.term}</dt>
            <dd>{count.value}</dd>
          </div>
        ))}
      </dl>
      {data.entries.length === 0 ? (
        <p className="empty-state">Nobody has joined the waitlist.</p>
      ) : (
        <ul className="waitlist-panel__list">
          {data.entries.map((entry) => {
            const status = WAITLIST_STATUS[entry.status] ?? { label: entry.status, tone: 'neutral' };
            return (
              <li key={entry._id} className="waitlist-panel__item" aria-label={`${entry.username}: ${status.label}`}>
                <div className="waitlist-panel__item-top">
                  <span>
                    <strong>{entry.username}</strong> · {plural(entry.offeredQuantity ?? entry.quantity, 'seat', 'seats')}
                  </span>
                  <span className={`badge ${status.tone === 'neutral' ? 'waitlist-badge--neutral' : `badge--${status.tone}`}`}>{status.label}</span>
                </div>
                <p className="muted">
                  joined {formatDateTime(entry.joinedAt)}
                  {entry.status === 'offered' && entry.offerExpiresAt ? ` · held until ${formatNairobiTime(entry.offerExpiresAt)} (Nairobi time)` : null}
                  {entry.status === 'expired' && entry.offerExpiresAt ? ` · offer ran out ${formatNairobiTime(entry.offerExpiresAt)} (Nairobi time)` : null}
                  {entry.offeredQuantity !== null && entry.offeredQuantity < entry.quantity ? ` · asked for ${entry.quantity}` : null}
                </p>
              </li>
            );
          })}
        </ul>
      )}
      <Button variant="secondary" className="btn--sm waitlist-panel__refresh" onClick={list.reload} loading={list.loading} loadingText="Refreshing…">
        Refresh
      </Button>
    </div>
  );
}
