/*
 * The event's cancelled tickets and refunds (GET /api/events/:id/refunds): how many tickets their holders
 * cancelled, the cancellation voided or were transferred; the refunds counted and totalled by state; and
 * each refund with its buyer's username (no phone or email), reason, state, receipt once paid, and dates.
 */
import { LoadingOrFailure } from '../../../components/ui/disclosure-panel';
import { useFetch } from '../../../hooks/use-fetch';
import { formatDateTime, formatKes } from '../../../lib/format';
import { REFUND_REASON, REFUND_STATUS, type RefundStatus } from '../../../lib/refund-labels';
import { getEventRefunds } from '../api/events-api';

const STATUSES: readonly RefundStatus[] = ['due', 'sent', 'succeeded', 'failed'];

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export default function EventRefundsSummary({ eventId, eventStatus }: { eventId: string; eventStatus: string }) {
  const summary = useFetch(`event-refunds:${eventId}:${eventStatus}`, (signal) => getEventRefunds(eventId, signal));
  const data = summary.data;

  if (!data) {
    return <LoadingOrFailure error={summary.error} reload={summary.reload} loadingText="Loading refunds…" failureText="Could not load the refunds. Please try again." className="event-refunds__error" />;
  }


  const { tickets } = data;
  return (
    <div className="event-refunds__body">
      <dl className="event-refunds__tickets">
        <div>
          <dt>Cancelled by holders</dt>
          <dd>{plural(tickets.cancelledByHolders, 'ticket', 'tickets')}</dd>
        </div>
        <div>
          <dt>Voided by the event’s cancellation</dt>
          <dd>{plural(tickets.voidedByCancellation, 'ticket', 'tickets')}</dd>
        </div>
        <div>
          <dt>Transferred</dt>
          <dd>{plural(tickets.transferred, 'ticket', 'tickets')}</dd>
        </div>
      </dl>

      {data.total.count === 0 ? (
        <p className="empty-state">No refunds for this event.</p>
      ) : (
        <>
          <table className="data-table event-refunds__totals">
            <caption>
              {plural(data.total.count, 'refund', 'refunds')}, {formatKes(data.total.amount)} in all
            </caption>
            <thead>
              <tr>
                <th scope="col">State</th>
                <th scope="col">Refunds</th>
                <th scope="col">Amount</th>
              </tr>
            </thead>
            <tbody>
              {STATUSES.map((status) => (
                <tr key={status}>
                  <th scope="row">{REFUND_STATUS[status].label}</th>
                  <td>{data.byStatus[status].count}</td>
                  <td>{formatKes(data.byStatus[status].amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>

          <ul className="event-refunds__list">
            {data.refunds.map((refund) => {
              const status = REFUND_STATUS[refund.status] ?? { tone: 'pending', label: refund.status };
              return (
                <li key={refund.refundId} className="event-refunds__item" aria-label={`Refund of ${formatKes(refund.amount)} to ${refund.username}`}>
                  <div className="event-refunds__item-top">
                    <span>
                      <strong>{formatKes(refund.amount)}</strong> to {refund.username}
                    </span>
                    <span className={`badge badge--${status.tone}`}>{status.label}</span>
                  </div>
                  <p className="muted">
                    {REFUND_REASON[refund.reason] ?? refund.reason} · since {formatDateTime(refund.createdAt)}
                    {refund.status === 'succeeded' ? ` · paid ${formatDateTime(refund.updatedAt)}` : null}
                    {refund.receipt ? (
                      <>
                        {' '}
                        · receipt <span className="mono">{refund.receipt}</span>
                      </>
                    ) : null}
                  </p>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </div>
  );
}
