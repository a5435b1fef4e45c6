/*
 * /admin › Changes to published events: each organiser's edit waiting for review, its published and proposed
 * values side by side (GET /api/events/admin/changes). Approve applies it (holders are emailed when the date or
 * place moves); reject keeps the published version, with an optional reason the organiser sees.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextAreaField } from '../../../components/ui/form-field';
import { ChangeTable } from '../../../components/event-review/change-table';
import { paths } from '../../../config/paths';
import { getErrorMessage } from '../../../lib/errors';
import { approveChange, getQueuedChanges, rejectChange, type QueuedChange } from '../../../lib/event-review-api';
import { formatDateTime } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';

export function EventChangesSection({ onDecided }: { onDecided?: () => void }) {
  const t = useT();
  const headingId = useId();
  const queryClient = useQueryClient();
  const queue = useQuery({ queryKey: ['admin', 'event-changes'], queryFn: ({ signal }) => getQueuedChanges(signal) });
  const [busy, setBusy] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState<QueuedChange | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const items = queue.data ?? [];

  const drop = (eventId: string) =>
    queryClient.setQueryData<QueuedChange[]>(['admin', 'event-changes'], (current) => current?.filter((item) => item.eventId !== eventId));

  const approve = async (item: QueuedChange) => {
    setBusy(item.eventId);
    try {
      const { holdersNotified } = await approveChange(item.eventId);
      notify.success(holdersNotified > 0 ? t('event-review.approvedNotified', { count: holdersNotified }) : t('event-review.approved'));
      drop(item.eventId);
      onDecided?.();
    } catch (failure) {
      notify.error(getErrorMessage(failure, t('event-review.actionFailed')));
    } finally {
      setBusy(null);
    }
  };

  const reject = async (item: QueuedChange) => {
    setBusy(item.eventId);
    setError(null);
    try {
      await rejectChange(item.eventId, reason.trim());
      notify.success(t('event-review.rejected'));
      setRejecting(null);
      drop(item.eventId);
    } catch (failure) {
      setError(getErrorMessage(failure, t('event-review.actionFailed')));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="admin-section event-changes" aria-labelledby={headingId}>
      <div className="refunds__header">
        <h2 id={headingId}>
          {t('event-review.adminTitle')}
          {queue.data ? <span className="muted"> ({items.length})</span> : null}
        </h2>
      </div>
      <p className="muted">{t('event-review.adminIntro')}</p>
      {queue.isLoading ? (
        <p className="muted" role="status">
          {t('event-review.adminLoading')}
        </p>
      ) : queue.error ? (
        <p className="form-message form-message--error">{t('event-review.adminLoadFailed')}</p>
      ) : items.length === 0 ? (
        <p className="empty-state">{t('event-review.adminNone')}</p>
      ) : (
        <ul className="moderation__list">
          {items.map((item) => (
            <li key={item.eventId}>
              <article className="moderation-card card" aria-label={item.event.title}>
                <h3 className="admin-card__title">
                  <Link to={paths.event(item.eventId)}>{item.event.title}</Link>
                </h3>
                <p className="muted">{t('event-review.adminProposedAt', { when: formatDateTime(item.proposedAt) })}</p>
                {item.pausesSales ? (
                  <p className="review-notice review-warning">
                    <strong>{t('event-review.adminPausesSales')}</strong>
                  </p>
                ) : null}
                <ChangeTable changes={item.changes} caption={item.event.title} />
                <div className="button-row">
                  <Button
                    className="btn--sm"
                    loading={busy === item.eventId && !rejecting}
                    loadingText={t('event-review.working')}
                    disabled={busy !== null}
                    onClick={() => void approve(item)}
                  >
                    {t('event-review.approve')}
                  </Button>
                  <Button
                    variant="secondary"
                    className="btn--sm"
                    disabled={busy !== null}
                    onClick={() => {
                      setRejecting(item);
                      setReason('');
                      setError(null);
                    }}
                  >
                    {t('event-review.reject')}
                  </Button>
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
      {rejecting ? (
        <ConfirmDialog
          open
          title={t('event-review.rejectTitle', { title: rejecting.event.title })}
          description={<p>{t('event-review.rejectDescription')}</p>}
          confirmLabel={t('event-review.reject')}
          busyLabel={t('event-review.working')}
          dismissLabel={t('event-review.cancel')}
          tone="danger"
          busy={busy === rejecting.eventId}
          error={error}
          onConfirm={() => void reject(rejecting)}
          onClose={() => busy === null && setRejecting(null)}
        >
          <TextAreaField label={t('event-review.rejectReason')} value={reason} rows={2} maxLength={500} data-autofocus onChange={(event) => setReason(event.target.value)} />
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
