/*
 * /admin › Refunds: money going back to buyers (GET /api/admin/refunds?status=), filtered by state. Each
 * refund keeps what the admin needs to answer a buyer: the event, who paid, from which number, the
 * payment's and the refund's M-Pesa receipts. A failed refund (every automatic attempt used) can be sent
 * again after confirmation (POST /api/admin/refunds/:id/retry).
 */
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { StatusFilter } from './status-filter';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { paths } from '../../../config/paths';
import { LoadMore } from '../../../components/ui/load-more';
import { usePagedList } from '../../../hooks/use-paged-list';
import { getErrorMessage, getErrorStatus } from '../../../lib/errors';
import { formatDateTime, formatShillings } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { useConfirmedAction } from '../../../hooks/use-confirmed-action';
import { REFUND_REASON, REFUND_STATUS } from '../../../lib/refund-labels';
import { getRefundsPage, retryRefund, type RefundRow, type RefundStatus } from '../api/admin-api';

type Filter = RefundStatus | '';

/* Catalog keys (admin.*). */
const FILTERS: ReadonlyArray<{ value: Filter; label: string }> = [
  { value: '', label: 'admin.filterAll' },
  { value: 'due', label: 'admin.filterDue' },
  { value: 'sent', label: 'admin.filterSent' },
  { value: 'succeeded', label: 'admin.filterSucceeded' },
  { value: 'failed', label: 'admin.filterFailed' },
];

const METHOD: Record<RefundRow['method'], string> = {
  reversal: 'admin.methodReversal',
  b2c: 'admin.methodB2c',
};

const EMPTY: Record<Filter, string> = {
  '': 'admin.noRefunds',
  due: 'admin.noRefundsDue',
  sent: 'admin.noRefundsSent',
  succeeded: 'admin.noRefundsSucceeded',
  failed: 'admin.noRefundsFailed',
};

export function RefundsSection() {
  const t = useT();
  const headingId = useId();
  const [filter, setFilter] = useState<Filter>('');
  const list = usePagedList(`admin:refunds:${filter}`, (cursor, signal) => getRefundsPage(filter, cursor, signal));

  const rows = list.items;
  // After a retry: the first page as the server now has it (the loaded rows stay shown meanwhile).
  const refresh = list.reload;

  const retry = useConfirmedAction(async (row: RefundRow) => {
    try {
      await retryRefund(row.refundId);
      notify.success(t('admin.refundQueued', { amount: formatShillings(row.refundAmount), username: row.username }));
    } catch (error) {
      if (getErrorStatus(error) !== 409) throw error;
      // It moved on meanwhile (another admin, or it is no longer failed): show where it is now.
      notify.info(getErrorMessage(error, t('admin.refundNoLongerFailed')));
    }
    refresh();
  }, t('admin.refundRetryFailed'));
  const retrying = retry.item;

  return (
    <section className="admin-section refunds" aria-labelledby={headingId}>
      <div className="refunds__header">
        <h2 id={headingId}>
          {t('admin.refunds')}
          {list.loading || list.error ? '' : ` (${list.total})`}
        </h2>
        <StatusFilter legend={t('admin.showRefunds')} name={`${headingId}-filter`} options={FILTERS} value={filter} onChange={setFilter} />
      </div>

      {list.loading ? (
        <p className="muted" role="status">
          {t('admin.loadingRefunds')}
        </p>
      ) : list.error ? (
        <div className="button-row">
          <p className="form-message form-message--error" role="alert">
            {getErrorMessage(list.error, t('admin.refundsLoadFailed'))}
          </p>
          <Button variant="secondary" className="btn--sm" onClick={list.reload}>
            {t('admin.tryAgain')}
          </Button>
        </div>
      ) : rows.length === 0 ? (
        <p className="empty-state">{t(EMPTY[filter])}</p>
      ) : (
        <ul className="refunds__list">
          {rows.map((row) => (
            <li key={row.refundId}>
              <RefundCard row={row} onRetry={() => retry.ask(row)} />
            </li>
          ))}
        </ul>
      )}
      <LoadMore shown={rows.length} total={list.total} hasMore={list.hasMore} loading={list.loadingMore} error={list.loadMoreError} onLoadMore={list.loadMore} />

      <ConfirmDialog
        {...retry.dialog}
        title={t('admin.retryRefundTitle')}
        description={
          retrying ? (
            <p>
              <strong>{formatShillings(retrying.refundAmount)}</strong>{' '}
              {t('admin.retryRefundDescription', { username: retrying.username, phone: retrying.phoneNumber, title: retrying.eventTitle })}
            </p>
          ) : null
        }
        confirmLabel={t('admin.retryRefund')}
        busyLabel={t('admin.queuing')}
        tone="primary"
      />
    </section>
  );
}

function RefundCard({ row, onRetry }: { row: RefundRow; onRetry: () => void }) {
  const t = useT();
  const status = REFUND_STATUS[row.status] ?? { tone: 'pending', label: row.status };
  return (
    <article className="refund-card" aria-label={t('admin.refundLabel', { amount: formatShillings(row.refundAmount), username: row.username, title: row.eventTitle })}>
      <div className="refund-card__top">
        <p className="refund-card__amount">{formatShillings(row.refundAmount)}</p>
        <span className={`badge badge--${status.tone}`}>{status.label}</span>
      </div>
      <h3 className="refund-card__title">
        <Link to={paths.event(row.eventId)}>{row.eventTitle}</Link>
      </h3>
      <dl className="refund-card__facts">
        <div>
          <dt>{t('admin.buyer')}</dt>
          <dd>
            {row.username} <span className="muted">({row.email})</span>
          </dd>
        </div>
        <div>
          <dt>{t('admin.phone')}</dt>
          <dd className="mono">{row.phoneNumber}</dd>
        </div>
        <div>
          <dt>{t('admin.why')}</dt>
          <dd>{REFUND_REASON[row.reason] ?? row.reason}</dd>
        </div>
        <div>
          <dt>{t('admin.order')}</dt>
          <dd>
            {t('admin.orderPaid', { count: row.quantity, amount: formatShillings(row.amount), date: formatDateTime(row.paidAt) })}
            {row.mpesaReceiptNumber ? (
              <>
                {' '}
                · {t('admin.receipt')} <span className="mono">{row.mpesaReceiptNumber}</span>
              </>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>{t('admin.refund')}</dt>
          <dd>
            {t('admin.refundSince', { method: METHOD[row.method] ? t(METHOD[row.method]) : row.method, date: formatDateTime(row.flaggedAt) })}
            {row.attempts > 0 ? ` · ${t('admin.attempts', { count: row.attempts })}` : null}
            {row.status === 'due' && row.attempts > 0 ? ` · ${t('admin.nextTry', { date: formatDateTime(row.nextAttemptAt) })}` : null}
            {row.receipt ? (
              <>
                {' '}
                · {t('admin.receipt')} <span className="mono">{row.receipt}</span>
              </>
            ) : null}
          </dd>
        </div>
      </dl>
      {row.status === 'failed' ? (
        <div className="button-row">
          <Button variant="secondary" className="btn--sm" aria-haspopup="dialog" aria-label={t('admin.retryRefundFor', { username: row.username, title: row.eventTitle })} onClick={onRetry}>
            {t('admin.retryRefund')}
          </Button>
        </div>
      ) : null}
    </article>
  );
}
