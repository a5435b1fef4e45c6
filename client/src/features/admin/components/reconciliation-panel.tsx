/*
 * /admin › Finance › Reconciliation (docs/decisions/reconciliation.md): the daily comparison of M-Pesa's list of
 * Paybill payments with Tukio's, its findings, and "Reconcile now".
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { getErrorMessage } from '../../../lib/errors';
import { formatDateTime, formatShillings } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { getReconciliations, reconcileNow, type ReconciliationFinding } from '../api/finance-api';

/* Catalog keys (admin.*). */
const KIND: Record<ReconciliationFinding['kind'], string> = {
  recovered: 'admin.reconcileRecovered',
  unmatched: 'admin.reconcileUnmatched',
  amount_differs: 'admin.reconcileAmountDiffers',
  missing_at_mpesa: 'admin.reconcileMissingAtMpesa',
};

const amount = (value: number | null) => (value === null ? '–' : formatShillings(value));

export function ReconciliationPanel() {
  const t = useT();
  const queryClient = useQueryClient();
  const runs = useQuery({ queryKey: ['admin', 'reconciliation'], queryFn: ({ signal }) => getReconciliations(signal) });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const runNow = async () => {
    setBusy(true);
    setError(null);
    try {
      await reconcileNow();
      await queryClient.invalidateQueries({ queryKey: ['admin'] });
    } catch (caught) {
      setError(getErrorMessage(caught, t('admin.reconcileFailed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <div className="refunds__header">
        <h3>{t('admin.reconciliation')}</h3>
        <Button className="btn--sm" onClick={() => void runNow()} disabled={busy}>
          {busy ? t('admin.reconciling') : t('admin.reconcileNow')}
        </Button>
      </div>
      <p className="muted">{t('admin.reconciliationIntro')}</p>
      {error ? (
        <p className="form-message form-message--error" role="alert">
          {error}
        </p>
      ) : null}
      {runs.isLoading ? (
        <p className="muted" role="status">
          {t('admin.loadingReconciliation')}
        </p>
      ) : runs.error ? (
        <p className="form-message form-message--error" role="alert">
          {getErrorMessage(runs.error, t('admin.reconciliationLoadFailed'))}
        </p>
      ) : !runs.data?.length ? (
        <p className="empty-state">{t('admin.noReconciliation')}</p>
      ) : (
        <ul className="refunds__list">
          {runs.data.map((run) => (
            <li key={run._id}>
              <article className="refund-card" aria-label={t('admin.reconciliationRun', { date: formatDateTime(run.createdAt) })}>
                <div className="refund-card__top">
                  <p>{t('admin.reconciliationWindow', { from: formatDateTime(run.windowFrom), to: formatDateTime(run.windowTo) })}</p>
                  <span className={`badge ${run.status === 'failed' ? 'badge--failed' : run.findings.length ? 'badge--pending' : 'badge--success'}`}>
                    {run.status === 'failed' ? t('admin.reconcileRunFailed') : t('admin.reconcileFindings', { count: run.findings.length })}
                  </span>
                </div>
                <p className="muted">{run.status === 'failed' ? run.error : t('admin.reconcilePulled', { count: run.pulled })}</p>
                {run.findings.length ? (
                  <dl className="refund-card__facts">
                    {run.findings.map((finding) => (
                      <div key={`${finding.kind}-${finding.transId}`}>
                        <dt>{t(KIND[finding.kind])}</dt>
                        <dd>
                          <span className="mono">{finding.transId}</span> · {t('admin.reconcileAmounts', { mpesa: amount(finding.mpesaAmount), tukio: amount(finding.tukioAmount) })}
                        </dd>
                      </div>
                    ))}
                  </dl>
                ) : null}
              </article>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
