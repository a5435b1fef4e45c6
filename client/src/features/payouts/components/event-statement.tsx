import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { getErrorMessage, serverErrorMessage } from '../../../lib/errors';
import { formatDateTime, formatShillings } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { saveFile } from '../../../lib/save-file';
import { getEventStatement, getEventStatementCsv, statementKey, type PayoutStatus } from '../api/payouts-api';
import { signedShillings, statementLines } from '../lib/payout-rows';

const money = (amount: number) => signedShillings(amount, formatShillings);

const PAYOUT_STATUS: Record<PayoutStatus, { label: string; badge: string }> = {
  sending: { label: 'payouts.payoutSending', badge: 'badge--pending' },
  retrying: { label: 'payouts.payoutRetrying', badge: 'badge--pending' },
  paid: { label: 'payouts.payoutPaid', badge: 'badge--success' },
  failed: { label: 'payouts.payoutFailed', badge: 'badge--failed' },
};

/**
 * One event's statement (GET /api/payouts/events/:id/statement): the figures down to the net, the payouts
 * with their M-Pesa receipts, a CSV download and a print button. Printing shows this statement alone
 * (payouts.css marks the page while it prints).
 */
export function EventStatementView({ id, eventId }: { id: string; eventId: string }) {
  const t = useT();
  const statement = useQuery({ queryKey: statementKey(eventId), queryFn: ({ signal }) => getEventStatement(eventId, signal) });
  const [downloading, setDownloading] = useState(false);
  const data = statement.data;

  const download = async () => {
    setDownloading(true);
    try {
      saveFile(await getEventStatementCsv(eventId), `statement-${eventId}.csv`);
    } catch (problem) {
      notify.error(getErrorMessage(problem, t('payouts.csvFailed')));
    } finally {
      setDownloading(false);
    }
  };

  const print = () => {
    // Only this statement prints: the mark tells the print stylesheet which one.
    document.documentElement.dataset.printing = 'statement';
    document.getElementById(id)?.classList.add('payout-statement--printing');
    const done = () => {
      delete document.documentElement.dataset.printing;
      document.getElementById(id)?.classList.remove('payout-statement--printing');
      window.removeEventListener('afterprint', done);
    };
    window.addEventListener('afterprint', done);
    window.print();
  };

  if (!data) {
    return (
      <div id={id} className="payout-statement">
        {statement.isLoading ? (
          <p className="muted" role="status">
            {t('payouts.loadingStatement')}
          </p>
        ) : (
          <>
            <FormMessage tone="error">{serverErrorMessage(statement.error, 'payouts.statementLoadFailed')}</FormMessage>
            <Button variant="secondary" className="btn--sm" onClick={() => void statement.refetch()}>
              {t('payouts.tryAgain')}
            </Button>
          </>
        )}
      </div>
    );
  }

  const { figures, mpesaCharges } = statementLines(data);
  return (
    <section id={id} className="payout-statement" aria-label={t('payouts.statementOf', { title: data.title })}>
      <header className="payout-statement__header">
        <p className="payout-statement__brand">Tukio</p>
        <h5>{t('payouts.statementOf', { title: data.title })}</h5>
        <p className="muted payout-statement__printed">{t('payouts.statementAsOf', { time: formatDateTime(new Date().toISOString()) })}</p>
      </header>
      <table className="payout-statement__figures">
        <caption className="visually-hidden">{t('payouts.statementFigures')}</caption>
        <tbody>
          {figures.map((line) => (
            <tr key={line.label} className={line.total ? 'payout-statement__total' : undefined}>
              <th scope="row">
                {t(line.label)}
                {line.hint ? <span className="payout-statement__hint muted">{t(line.hint)}</span> : null}
              </th>
              <td>{money(line.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted payout-statement__charges">{t('payouts.mpesaChargesNote', { amount: money(mpesaCharges) })}</p>
      <h6 className="payout-statement__payouts-title">{t('payouts.payoutsMade')}</h6>
      {data.payouts.length === 0 ? (
        <p className="muted">{t('payouts.noPayoutsYet')}</p>
      ) : (
        <ul className="payout-statement__payouts">
          {data.payouts.map((payout) => (
            <li key={payout.payoutId}>
              <div className="payout-statement__payout-top">
                <strong>{money(payout.forEvent)}</strong>
                <span className={`badge ${PAYOUT_STATUS[payout.status]?.badge ?? 'badge--pending'}`}>{PAYOUT_STATUS[payout.status] ? t(PAYOUT_STATUS[payout.status].label) : payout.status}</span>
              </div>
              <p className="muted">
                {payout.paidAt ? t('payouts.paidOn', { time: formatDateTime(payout.paidAt) }) : t('payouts.madeOn', { time: formatDateTime(payout.createdAt) })}
                {payout.amount !== payout.forEvent ? ` · ${t('payouts.wholePayout', { amount: money(payout.amount) })}` : null}
              </p>
              {payout.receipt ? (
                <p>
                  {t('payouts.receipt')} <span className="mono">{payout.receipt}</span>
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <div className="payout-statement__actions">
        <Button variant="secondary" className="btn--sm" disabled={downloading} onClick={() => void download()}>
          {downloading ? t('payouts.downloading') : t('payouts.downloadCsv')}
        </Button>
        <Button variant="secondary" className="btn--sm" onClick={print}>
          {t('payouts.printStatement')}
        </Button>
      </div>
    </section>
  );
}
