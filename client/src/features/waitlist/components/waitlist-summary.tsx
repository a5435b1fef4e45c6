/*
 * The event's waitlist for its organiser (GET /api/events/:id/waitlist): people waiting, offers live now, how
 * places ended (accepted, expired, left), and each place by username only: seats asked for, state, and until
 * when an offer is held. Read each time the panel opens; "Refresh" reads it again.
 */
import { useQuery } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button';
import { LoadingOrFailure } from '../../../components/ui/disclosure-panel';
import { formatDateTime } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { getEventWaitlist } from '../api/waitlist-api';
import { formatNairobiTime, WAITLIST_STATUS } from '../lib/waitlist-text';

export default function WaitlistSummary({ eventId }: { eventId: string }) {
  const t = useT();
  const list = useQuery({ queryKey: ['event-waitlist', eventId], queryFn: ({ signal }) => getEventWaitlist(eventId, signal) });
  const reload = () => void list.refetch();
  const data = list.data;

  if (!data) {
    return <LoadingOrFailure error={list.error} reload={reload} loadingText={t('waitlist.loading')} failureText={t('waitlist.loadFailed')} className="waitlist-panel__body" />;
  }


  const counts = [
    { term: t('waitlist.countWaiting'), value: t('waitlist.people', { count: data.length }) },
    { term: t('waitlist.countOffered'), value: t('waitlist.people', { count: data.offered }) },
    { term: t('waitlist.countAccepted'), value: t('waitlist.people', { count: data.accepted }) },
    { term: t('waitlist.countExpired'), value: String(data.expired) },
    { term: t('waitlist.countLeft'), value: String(data.left) },
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
        <p className="empty-state">{t('waitlist.nobodyJoined')}</p>
      ) : (
        <ul className="waitlist-panel__list">
          {data.entries.map((entry) => {
            const known = WAITLIST_STATUS[entry.status];
            const status = known ? { label: t(known.label), tone: known.tone } : { label: entry.status, tone: 'neutral' };
            return (
              <li key={entry._id} className="waitlist-panel__item" aria-label={`${entry.username}: ${status.label}`}>
                <div className="waitlist-panel__item-top">
                  <span>
                    <strong>{entry.username}</strong> · {t('waitlist.seats', { count: entry.offeredQuantity ?? entry.quantity })}
                  </span>
                  <span className={`badge ${status.tone === 'neutral' ? 'waitlist-badge--neutral' : `badge--${status.tone}`}`}>{status.label}</span>
                </div>
                <p className="muted">
                  {t('waitlist.joinedOn', { date: formatDateTime(entry.joinedAt) })}
                  {entry.status === 'offered' && entry.offerExpiresAt ? ` · ${t('waitlist.heldUntil', { time: formatNairobiTime(entry.offerExpiresAt) })}` : null}
                  {entry.status === 'expired' && entry.offerExpiresAt ? ` · ${t('waitlist.offerRanOut', { time: formatNairobiTime(entry.offerExpiresAt) })}` : null}
                  {entry.offeredQuantity !== null && entry.offeredQuantity < entry.quantity ? ` · ${t('waitlist.askedFor', { count: entry.quantity })}` : null}
                </p>
              </li>
            );
          })}
        </ul>
      )}
      <Button variant="secondary" className="btn--sm waitlist-panel__refresh" onClick={reload} loading={list.isFetching} loadingText={t('waitlist.refreshing')}>
        {t('waitlist.refresh')}
      </Button>
    </div>
  );
}
