/*
 * /admin › Finance › Paybill payments no order claims (docs/decisions/paybill.md): each with its status, and a waiting
 * one's Refund (a reversal of its M-Pesa TransID, since M-Pesa may hide the payer's number), asked with a reason and
 * confirmed first; a refusal shows the server's message.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/form-field';
import { getErrorMessage } from '../../../lib/errors';
import { formatDateTime, formatShillings } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { useConfirmedAction } from '../../../hooks/use-confirmed-action';
import { getUnmatchedPayments, refundUnmatchedPayment, type UnmatchedPaymentRow, type UnmatchedPaymentStatus } from '../api/finance-api';

/* Catalog keys (admin.*). */
const STATUS: Record<UnmatchedPaymentStatus, { label: string; badge: string }> = {
  waiting: { label: 'admin.unmatchedWaiting', badge: 'badge--pending' },
  attached: { label: 'admin.unmatchedAttached', badge: 'badge--success' },
  refunding: { label: 'admin.unmatchedRefunding', badge: 'badge--pending' },
  refunded: { label: 'admin.unmatchedRefunded', badge: 'badge--success' },
};

/** The server's shortest reason. */
const MIN_REASON = 3;

export function UnmatchedPaymentsSection() {
  const t = useT();
  const headingId = useId();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: ['admin', 'unmatched-payments'], queryFn: ({ signal }) => getUnmatchedPayments(signal) });
  const [reason, setReason] = useState('');
  const refund = useConfirmedAction(async (row: UnmatchedPaymentRow) => {
    if (reason.trim().length < MIN_REASON) return t('admin.unmatchedReasonShort');
    await refundUnmatchedPayment(row._id, reason.trim());
    notify.success(t('admin.unmatchedRefundStarted', { amount: formatShillings(row.amount) }));
    void queryClient.invalidateQueries({ queryKey: ['admin'] });
  }, t('admin.financeActionFailed'));
  const pending = refund.item;

  const rows = list.data ?? [];
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId} className="finance__subhead">
        {t('admin.unmatchedTitle')}
      </h3>
      <p className="muted">{t('admin.unmatchedIntro')}</p>
      {list.isLoading ? (
        <p className="muted" role="status">
          {t('admin.unmatchedLoading')}
        </p>
      ) : list.error ? (
        <p className="form-message form-message--error" role="alert">
          {getErrorMessage(list.error, t('admin.unmatchedLoadFailed'))}
        </p>
      ) : rows.length === 0 ? (
        <p className="empty-state">{t('admin.unmatchedNone')}</p>
      ) : (
        <ul className="refunds__list">
          {rows.map((row) => {
            const status = STATUS[row.status];
            return (
              <li key={row._id}>
                <article className="refund-card" aria-label={t('admin.unmatchedLabel', { amount: formatShillings(row.amount), account: row.billRefNumber })}>
                  <div className="refund-card__top">
                    <p className="refund-card__amount">{formatShillings(row.amount)}</p>
                    <span className={`badge ${status.badge}`}>{t(status.label)}</span>
                  </div>
                  <dl className="refund-card__facts">
                    <div>
                      <dt>{t('admin.unmatchedAccount')}</dt>
                      <dd className="mono">{row.billRefNumber}</dd>
                    </div>
                    <div>
                      <dt>{t('admin.unmatchedReceipt')}</dt>
                      <dd>
                        <span className="mono">{row.transId}</span> · {row.msisdn} · {formatDateTime(row.createdAt)}
                      </dd>
                    </div>
                  </dl>
                  {row.status === 'waiting' ? (
                    <div className="button-row">
                      <Button variant="danger" className="btn--sm" onClick={() => {
                          setReason('');
                          refund.ask(row);
                        }}>
                        {t('admin.unmatchedRefund')}
                      </Button>
                    </div>
                  ) : null}
                </article>
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        {...refund.dialog}
        title={t('admin.unmatchedRefundTitle')}
        description={pending ? <p>{t('admin.unmatchedRefundDescription', { amount: formatShillings(pending.amount), receipt: pending.transId })}</p> : null}
        confirmLabel={t('admin.unmatchedRefund')}
        busyLabel={t('admin.working')}
        tone="danger"
      >
        <TextField label={t('admin.unmatchedReason')} name="reason" value={reason} onChange={(event) => setReason(event.target.value)} hint={t('admin.unmatchedReasonHint')} />
      </ConfirmDialog>
    </section>
  );
}
