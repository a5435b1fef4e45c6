import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { formatEventDate, formatEventTime } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import type { ListedEvent } from '../../../types/api';
import { EventImage } from '../../../components/event-image';
import type { AdminAction } from '../hooks/use-admin-events';
import { ShredEventButton } from './shred-event-button';

interface AdminEventCardProps {
  event: ListedEvent;
  busy: AdminAction | null;
  /** True while any card is working (one action at a time). */
  locked: boolean;
  onApprove: () => void;
  onDisapprove: () => void;
  onDelete: () => void;
  /** Price line, e.g. 'Ksh.500' or '$500'. */
  price?: string;
  /** More buttons (e.g. Edit on the scraped-events page). */
  extraActions?: ReactNode;
}

export const isApproved = (event: ListedEvent) => event.status === 'approved';
/** Cancelled is final: no moderation brings the event back. */
export const isCancelled = (event: ListedEvent) => event.status === 'cancelled';
/** Any status other than 'approved' or 'cancelled' counts as pending on the admin pages. */
export const isPending = (event: ListedEvent) => !isApproved(event) && !isCancelled(event);

const statusTone = (event: ListedEvent) => (isApproved(event) ? 'success' : isCancelled(event) ? 'cancelled' : 'pending');

/** The badge says the stored status as it is; the known ones in the reader's language. */
const STATUS_LABEL: Record<string, string> = {
  approved: 'admin.statusApproved',
  cancelled: 'admin.statusCancelled',
  pending: 'admin.statusPending',
};

export function AdminEventCard({ event, busy, locked, onApprove, onDisapprove, onDelete, price, extraActions }: AdminEventCardProps) {
  const t = useT();
  const approved = isApproved(event);
  const cancelled = isCancelled(event);
  const status = event.status || 'pending';
  return (
    <article className="admin-card" aria-label={event.title}>
      <EventImage className="admin-card__image" src={event.image} alt="" loading="lazy" width={640} height={360} />
      <div className="admin-card__body">
        <h3 className="admin-card__title">
          <Link to={paths.event(event._id)}>{event.title}</Link>
        </h3>
        <p className="admin-card__description">{event.description}</p>
        <dl className="admin-card__facts">
          <div>
            <dt>{t('admin.date')}</dt>
            <dd>
              <time dateTime={event.date}>
                {formatEventDate(event.date)} · {formatEventTime(event.date)}
              </time>
            </dd>
          </div>
          <div>
            <dt>{t('admin.location')}</dt>
            <dd>{event.location}</dd>
          </div>
          {price ? (
            <div>
              <dt>{t('admin.price')}</dt>
              <dd>{price}</dd>
            </div>
          ) : null}
          <div>
            <dt>{t('admin.status')}</dt>
            <dd>
              <span className={`badge badge--${statusTone(event)}`}>{STATUS_LABEL[status] ? t(STATUS_LABEL[status]) : status}</span>
            </dd>
          </div>
          {cancelled && event.cancelReason ? (
            <div>
              <dt>{t('admin.reason')}</dt>
              <dd>{event.cancelReason}</dd>
            </div>
          ) : null}
        </dl>
      </div>
      <div className="button-row admin-card__actions">
        <Button
          className="btn--sm"
          disabled={approved || cancelled || (locked && busy !== 'approve')}
          loading={busy === 'approve'}
          loadingText={t('admin.approving')}
          aria-label={t('admin.approveTitle', { title: event.title })}
          onClick={onApprove}
        >
          {t('admin.approve')}
        </Button>
        <Button
          variant="secondary"
          className="btn--sm"
          disabled={!approved || cancelled || (locked && busy !== 'disapprove')}
          loading={busy === 'disapprove'}
          loadingText={t('admin.disapproving')}
          aria-label={t('admin.disapproveTitle', { title: event.title })}
          onClick={onDisapprove}
        >
          {t('admin.disapprove')}
        </Button>
        {extraActions}
        {/* Once it has started (the server checks it has ended): its buyers' details can be erased early. */}
        {Date.parse(event.date) < Date.now() ? <ShredEventButton event={event} /> : null}
        <Button
          variant="danger"
          className="btn--sm"
          disabled={locked && busy !== 'delete'}
          loading={busy === 'delete'}
          loadingText={t('admin.deleting')}
          aria-label={t('admin.deleteTitle', { title: event.title })}
          onClick={onDelete}
        >
          {t('admin.delete')}
        </Button>
      </div>
    </article>
  );
}
