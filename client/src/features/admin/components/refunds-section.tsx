/*
 * /admin › Refunds: money going back to buyers (GET /api/admin/refunds?status=), filtered by state. Each
 * refund keeps what the admin needs to answer a buyer: the event, who paid, from which number, the
 * payment's and the refund's M-Pesa receipts. A failed refund (every automatic attempt used) can be sent
 * again after confirmation (POST /api/admin/refunds/:id/retry).
 */
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { paths } from '../../../config/paths';
import { useFetch } from '../../../hooks/use-fetch';
import { getErrorMessage, getErrorStatus } from '../../../lib/errors';
import { formatDateTime, formatKes } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { REFUND_REASON, REFUND_STATUS } from '../../../lib/refund-labels';
import { getRefunds, retryRefund, type RefundRow, type RefundStatus } from '../api/admin-api';

type Filter = RefundStatus | '';

const FILTERS: ReadonlyArray<{ value: Filter; label: string }> = [
  { value: '', label: 'All' },
  { value: 'due', label: 'Due' },
  { value: 'sent', label: 'Sent' },
  { value: 'succeeded', label: 'Refunded' },
  { value: 'failed', label: 'Failed' },
];

const METHOD: Record<RefundRow['method'], string> = {
  reversal: 'M-Pesa reversal',
  b2c: 'M-Pesa payout',
};

const EMPTY: Record<Filter, string> = {
  '': 'No refunds. Money goes back here when an event is cancelled or a payment arrives after the seats are gone.',
  due: 'No refunds waiting to be sent.',
  sent: 'No refunds waiting for M-Pesa’s answer.',
  succeeded: 'No completed refunds.',
  failed: 'No failed refunds.',
};

export function RefundsSection() {
  const headingId = useId();
  const [filter, setFilter] = useState<Filter>('');
  const list = useFetch(`admin:refunds:${filter}`, (signal) => getRefunds(filter, signal));
  const [retrying, setRetrying] = useState<RefundRow | null>(null);
  const [busy, setBusy] = useState(false);
  const [retryError, setRetryError] = useState<string | null>(null);

  const rows = list.data ?? [];
  // After a retry: the list as the server now has it, without putting the section back into its loading state.
  const refresh = () => void getRefunds(filter).then((fresh) => list.setData(() => fresh), list.reload);

  const closeRetry = () => {
    if (busy) return;
    setRetrying(null);
    setRetryError(null);
  };

  const confirmRetry = async (row: RefundRow) => {
    setBusy(true);
    setRetryError(null);
    try {
      await retryRefund(row.refundId);
      notify.success(`The refund of ${formatKes(row.refundAmount)} to ${row.username} is queued again.`);
      setRetrying(null);
      refresh();
    } catch (error) {
      if (getErrorStatus(error) === 409) {
        // It moved on meanwhile (another admin, or it is no longer failed): show where it is now.
        notify.info(getErrorMessage(error, 'This refund is no longer failed.'));
        setRetrying(null);
        refresh();
      } else {
        setRetryError(getErrorMessage(error, 'The refund could not be queued again. Please try again.'));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="admin-section refunds" aria-labelledby={headingId}>
      <div className="refunds__header">
        <h2 id={headingId}>Refunds{list.data ? ` (${rows.length})` : ''}</h2>
        <fieldset className="refunds__filter">
          <legend className="visually-hidden">Show refunds</legend>
          {FILTERS.map((option) => (
            <label key={option.value || 'all'} className="refunds__chip">
              <input type="radio" name={`${headingId}-filter`} value={option.value} checked={filter === option.value} onChange={() => setFilter(option.value)} />
              <span>{option.label}</span>
            </label>
          ))}
        </fieldset>
      </div>

      {list.loading ? (
        <p className="muted" role="status">
          Loading refunds…
        </p>
      ) : list.error ? (
        <div className="button-row">
          <p className="form-message form-message--error" role="alert">
            {getErrorMessage(list.error, 'Failed to fetch refunds.')}
          </p>
          <Button variant="secondary" className="btn--sm" onClick={list.reload}>
            Try again
          </Button>
        </div>
      ) : rows.length === 0 ? (
        <p className="empty-state">{EMPTY[filter]}</p>
      ) : (
        <ul className="refunds__list">
          {rows.map((row) => (
            <li key={row.refundId}>
              <RefundCard row={row} onRetry={() => setRetrying(row)} />
            </li>
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={retrying !== null}
        title="Send this refund again?"
        description={
          retrying ? (
            <p>
              <strong>{formatKes(retrying.refundAmount)}</strong> goes back to {retrying.username} on {retrying.phoneNumber} for “{retrying.eventTitle}”.
              It is queued again and sent to M-Pesa within a minute; check the number first if M-Pesa refused it.
            </p>
          ) : null
        }
        confirmLabel="Retry refund"
        busyLabel="Queuing…"
        tone="primary"
        busy={busy}
        error={retryError}
        onConfirm={() => {
          if (retrying) void confirmRetry(retrying);
        }}
        onClose={closeRetry}
      />
    </section>
  );
}

function RefundCard({ row, onRetry }: { row: RefundRow; onRetry: () => void }) {
  const status = REFUND_STATUS[row.status] ?? { tone: 'pending', label: row.status };
  return (
    <article className="refund-card" aria-label={`Refund of ${formatKes(row.refundAmount)} to ${row.username} for ${row.eventTitle}`}>
      <div className="refund-card__top">
        <p className="refund-card__amount">{formatKes(row.refundAmount)}</p>
        <span className={`badge badge--${status.tone}`}>{status.label}</span>
      </div>
      <h3 className="refund-card__title">
        <Link to={paths.event(row.eventId)}>{row.eventTitle}</Link>
      </h3>
      <dl className="refund-card__facts">
        <div>
          <dt>Buyer</dt>
          <dd>
            {row.username} <span className="muted">({row.email})</span>
          </dd>
        </div>
        <div>
          <dt>Phone</dt>
          <dd className="mono">{row.phoneNumber}</dd>
        </div>
        <div>
          <dt>Why</dt>
          <dd>{REFUND_REASON[row.reason] ?? row.reason}</dd>
        </div>
        <div>
          <dt>Order</dt>
          <dd>
            {row.quantity} {row.quantity === 1 ? 'ticket' : 'tickets'}, {formatKes(row.amount)} paid {formatDateTime(row.paidAt)}
            {row.mpesaReceiptNumber ? (
              <>
                {' '}
                · receipt <span className="mono">{row.mpesaReceiptNumber}</span>
              </>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>Refund</dt>
          <dd>
            {METHOD[row.method] ?? row.method} since {formatDateTime(row.flaggedAt)}
            {row.attempts > 0 ? ` · ${row.attempts} ${row.attempts === 1 ? 'attempt' : 'attempts'}` : null}
            {row.status === 'due' && row.attempts > 0 ? ` · next try ${formatDateTime(row.nextAttemptAt)}` : null}
            {row.receipt ? (
              <>
                {' '}
                · receipt <span className="mono">{row.receipt}</span>
              </>
            ) : null}
          </dd>
        </div>
      </dl>
      {row.status === 'failed' ? (
        <div className="button-row">
          <Button variant="secondary" className="btn--sm" aria-haspopup="dialog" aria-label={`Retry refund to ${row.username} for ${row.eventTitle}`} onClick={onRetry}>
            Retry refund
          </Button>
        </div>
      ) : null}
    </article>
  );
}
