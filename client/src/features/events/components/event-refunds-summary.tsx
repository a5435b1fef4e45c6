/*
 * The event's cancelled tickets and refunds (GET /api/events/:id/refunds): how many tickets their holders
 * cancelled, the cancellation voided or were transferred; the refunds counted and totalled by state; and
 * each refund with its buyer's username (no phone or email), reason, state, receipt once paid, and dates.
 */
import { useQuery } from '@tanstack/react-query';
import { LoadingOrFailure } from '../../../components/ui/disclosure-panel';
import { formatDateTime, formatShillings } from '../../../lib/format';
import { REFUND_REASON, REFUND_STATUS, type RefundStatus } from '../../../lib/refund-labels';
import { getEventRefunds } from '../api/events-api';
import { RichText, useT } from '../../../lib/i18n';
import '../../../styles/data-table.css';

const STATUSES: readonly RefundStatus[] = ['due', 'sent', 'succeeded', 'failed'];

export default function EventRefundsSummary({ eventId, eventStatus }: { eventId: string; eventStatus: string }) {
  const t = useT();
  const summary = useQuery({ queryKey: ['event-refunds', eventId, eventStatus], queryFn: ({ signal }) => getEventRefunds(eventId, signal) });
  const data = summary.data;

  if (!data) {
    return <LoadingOrFailure error={summary.error} reload={() => void summary.refetch()} loadingText={t('events.loadingRefunds')} failureText={t('events.refundsLoadFailed')} className="event-refunds__error" />;
  }


  const { tickets } = data;
  return (
    <div className="event-refunds__body">
      <dl className="event-refunds__tickets">
        <div>
          <dt>{t('events.cancelledByHolders')}</dt>
          <dd>{t('events.ticketCount', { count: tickets.cancelledByHolders })}</dd>
        </div>
        <div>
          <dt>{t('events.voidedByCancellation')}</dt>
          <dd>{t('events.ticketCount', { count: tickets.voidedByCancellation })}</dd>
        </div>
        <div>
          <dt>{t('events.transferred')}</dt>
          <dd>{t('events.ticketCount', { count: tickets.transferred })}</dd>
        </div>
      </dl>

      {data.total.count === 0 ? (
        <p className="empty-state">{t('events.noRefunds')}</p>
      ) : (
        <>
          <table className="data-table event-refunds__totals">
            <caption>
              {t('events.refundsTotal', { count: data.total.count, amount: formatShillings(data.total.amount) })}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('events.state')}</th>
                <th scope="col">{t('events.refundsColumn')}</th>
                <th scope="col">{t('events.amount')}</th>
              </tr>
            </thead>
            <tbody>
              {STATUSES.map((status) => (
                <tr key={status}>
                  <th scope="row">{REFUND_STATUS[status].label}</th>
                  <td>{data.byStatus[status].count}</td>
                  <td>{formatShillings(data.byStatus[status].amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>

          <ul className="event-refunds__list">
            {data.refunds.map((refund) => {
              const status = REFUND_STATUS[refund.status] ?? { tone: 'pending', label: refund.status };
              return (
                <li key={refund.refundId} className="event-refunds__item" aria-label={t('events.refundOfTo', { amount: formatShillings(refund.amount), username: refund.username })}>
                  <div className="event-refunds__item-top">
                    <span>
                      <RichText id="events.amountTo" values={{ username: refund.username }} parts={{ amount: <strong>{formatShillings(refund.amount)}</strong> }} />
                    </span>
                    <span className={`badge badge--${status.tone}`}>{status.label}</span>
                  </div>
                  <p className="muted">
                    {REFUND_REASON[refund.reason] ?? refund.reason} · {t('events.since', { when: formatDateTime(refund.createdAt) })}
                    {refund.status === 'succeeded' ? ` · ${t('events.paidAt', { when: formatDateTime(refund.updatedAt) })}` : null}
                    {refund.receipt ? (
                      <>
                        {' '}
                        · {t('events.receipt')} <span className="mono">{refund.receipt}</span>
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
