import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { paths } from '../../../config/paths';
import { getErrorStatus, serverErrorMessage } from '../../../lib/errors';
import { formatEventDate, formatShillings } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { getOrganiserPayoutSummary, getPayoutSummary, organiserSummaryKey, payoutSummaryKey } from '../api/payouts-api';
import { BADGE, balanceTiles, eventRows, nextPayoutMessage, signedShillings, type EventDisplayRow, type Message } from '../lib/payout-rows';
import { EventStatementView } from './event-statement';

const money = (amount: number) => signedShillings(amount, formatShillings);

/** A message's numbers are shillings; its date (if any) an event day. */
function useMessageText() {
  const t = useT();
  return (message: Message & { date?: string }) =>
    t(message.key, {
      ...Object.fromEntries(Object.entries(message.params ?? {}).map(([name, value]) => [name, typeof value === 'number' ? money(value) : value])),
      ...(message.date ? { date: formatEventDate(message.date) } : {}),
    });
}

/**
 * "Your balances" (GET /api/payouts): what is payable now, pending until each event's payout date, held, on
 * its way and paid; a negative balance (refunds after a payout) said plainly; then one row per event with
 * why its money is or is not paid now, and its statement on demand. With `organiserId` it is another organiser's,
 * read by a finance member for all their events: the same figures, without the links that lead to the
 * organiser's own actions (adding a destination, planning an event).
 */
export function PayoutBalancesSection({ organiserId }: { organiserId?: string } = {}) {
  const t = useT();
  const text = useMessageText();
  const summary = useQuery({
    queryKey: organiserId ? organiserSummaryKey(organiserId) : payoutSummaryKey,
    queryFn: ({ signal }) => (organiserId ? getOrganiserPayoutSummary(organiserId, signal) : getPayoutSummary(signal)),
  });
  const readOnly = organiserId !== undefined;
  const [openStatement, setOpenStatement] = useState<string | null>(null);
  const data = summary.data;

  let body: React.ReactNode;
  if (!data) {
    body = summary.isLoading ? (
      <p className="muted" role="status">
        {t('payouts.loadingBalances')}
      </p>
    ) : getErrorStatus(summary.error) === 403 ? (
      <p className="empty-state">{serverErrorMessage(summary.error)}</p>
    ) : (
      <>
        <FormMessage tone="error">{serverErrorMessage(summary.error, 'payouts.balancesLoadFailed')}</FormMessage>
        <Button variant="secondary" onClick={() => void summary.refetch()}>
          {t('payouts.tryAgain')}
        </Button>
      </>
    );
  } else {
    const next = nextPayoutMessage(data);
    const rows = eventRows(data);
    body = (
      <>
        <dl className="payout-balances">
          {balanceTiles(data).map((tile) => (
            <div key={tile.id} className={`payout-balance payout-balance--${tile.tone}`}>
              <dt>{t(tile.label)}</dt>
              <dd className="payout-balance__amount">{money(tile.amount)}</dd>
              <dd className="payout-balance__hint muted">{t(tile.hint)}</dd>
            </div>
          ))}
        </dl>
        {data.negativeBalance > 0 ? (
          <div className="payout-negative" role="note">
            <p>
              <strong>{t('payouts.negativeTitle', { amount: money(data.negativeBalance) })}</strong>
            </p>
            <p>{t('payouts.negativeExplained')}</p>
          </div>
        ) : null}
        <p className={`payout-next payout-next--${next.tone}`} role="status">
          {text(next)}
          {data.waitingFor === 'no_destination' && !readOnly ? (
            <>
              {' '}
              <a href="#payout-destination-title">{t('payouts.addDestinationLink')}</a>
            </>
          ) : null}
        </p>
        <h3 className="payout-events__title">{t('payouts.byEvent')}</h3>
        {rows.length === 0 ? (
          <p className="empty-state">
            {t('payouts.noEvents')} {readOnly ? null : <Link to={paths.plan}>{t('payouts.planEvent')}</Link>}
          </p>
        ) : (
          <ul className="payout-events">
            {rows.map((row) => (
              <li key={row.eventId}>
                <EventPayoutCard row={row} note={text(row.note)} open={openStatement === row.eventId} onToggle={() => setOpenStatement((current) => (current === row.eventId ? null : row.eventId))} />
              </li>
            ))}
          </ul>
        )}
      </>
    );
  }

  return (
    <section className="payouts-section payout-balances-section" aria-labelledby="payout-balances-title">
      <h2 id="payout-balances-title">{t(readOnly ? 'payouts.organiserBalancesTitle' : 'payouts.balancesTitle')}</h2>
      <p className="muted">{t(readOnly ? 'payouts.organiserBalancesLead' : 'payouts.balancesLead')}</p>
      {body}
    </section>
  );
}

function EventPayoutCard({ row, note, open, onToggle }: { row: EventDisplayRow; note: string; open: boolean; onToggle: () => void }) {
  const t = useT();
  const statementId = `payout-statement-${row.eventId}`;
  return (
    <article className={`card payout-event${open ? ' payout-event--open' : ''}`} aria-label={row.title}>
      <div className="payout-event__top">
        <h4 className="payout-event__title">
          <Link to={paths.event(row.eventId)}>{row.title}</Link>
        </h4>
        <span className={`badge ${BADGE[row.status.tone]}`}>{t(row.status.label)}</span>
      </div>
      <p className="muted payout-event__date">{formatEventDate(row.startsAt)}</p>
      <dl className="payout-event__figures">
        <div>
          <dt>{t('payouts.owedNow')}</dt>
          <dd>{money(row.owed)}</dd>
        </div>
        <div>
          <dt>{t('payouts.paidOut')}</dt>
          <dd>{money(row.paidOut)}</dd>
        </div>
      </dl>
      <p className="payout-event__note">{note}</p>
      <Button variant="secondary" className="btn--sm" aria-expanded={open} aria-controls={open ? statementId : undefined} onClick={onToggle}>
        {open ? t('payouts.hideStatement') : t('payouts.viewStatement')}
      </Button>
      {open ? <EventStatementView id={statementId} eventId={row.eventId} /> : null}
    </article>
  );
}
