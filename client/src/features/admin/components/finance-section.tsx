/*
 * /admin › Finance (docs/decisions/payouts.md, docs/decisions/fees.md): the ledger's balances as money in the
 * shortcode, owed to organisers and buyers, Tukio's revenue and M-Pesa's charges; the payouts (GET
 * /api/admin/payouts?status=) with a failed one's retry; an event's payout hold and its release; an
 * organiser's early-payout trust. Every action is confirmed first and a refusal shows the server's message.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { StatusFilter } from './status-filter';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/form-field';
import { getErrorMessage } from '../../../lib/errors';
import { formatDateTime, formatShillings } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { useConfirmedAction } from '../../../hooks/use-confirmed-action';
import {
  getAdminPayouts,
  getLedgerBalances,
  getPayoutHolds,
  holdEventPayouts,
  releaseEventPayouts,
  retryPayout,
  setEarlyPayouts,
  type AdminPayoutRow,
  type AdminPayoutStatus,
} from '../api/finance-api';
import { financeFigures } from '../lib/finance-figures';
import { ReconciliationPanel } from './reconciliation-panel';
import { UnmatchedPaymentsSection } from './unmatched-payments-section';

type Filter = AdminPayoutStatus | '';

/* Catalog keys (admin.*). */
const FILTERS: ReadonlyArray<{ value: Filter; label: string }> = [
  { value: 'failed', label: 'admin.payoutsFailed' },
  { value: 'retrying', label: 'admin.payoutsRetrying' },
  { value: 'sending', label: 'admin.payoutsSending' },
  { value: 'paid', label: 'admin.payoutsPaid' },
  { value: '', label: 'admin.filterAll' },
];

const STATUS: Record<AdminPayoutStatus, { label: string; badge: string }> = {
  sending: { label: 'admin.payoutStatusSending', badge: 'badge--pending' },
  retrying: { label: 'admin.payoutStatusRetrying', badge: 'badge--pending' },
  paid: { label: 'admin.payoutStatusPaid', badge: 'badge--success' },
  failed: { label: 'admin.payoutStatusFailed', badge: 'badge--failed' },
};

/* Brand names, the same in both languages (catalog keys of the payouts feature). */
const METHOD: Record<string, string> = { mpesa: 'payouts.methodMpesa', paybill: 'payouts.methodPaybill', till: 'payouts.methodTill' };

/** The question waiting for its confirmation, and what it does. */
type Pending =
  | { kind: 'retry'; row: AdminPayoutRow }
  | { kind: 'hold'; eventId: string; reason: string }
  | { kind: 'release'; eventId: string }
  | { kind: 'early'; organiserId: string; username: string; allowed: boolean };

export function FinanceSection() {
  const t = useT();
  const headingId = useId();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<Filter>('failed');
  const balances = useQuery({ queryKey: ['admin', 'ledger-balances'], queryFn: ({ signal }) => getLedgerBalances(signal) });
  const payouts = useQuery({ queryKey: ['admin', 'payouts', filter], queryFn: ({ signal }) => getAdminPayouts(filter, signal) });
  const holds = useQuery({ queryKey: ['admin', 'payout-holds'], queryFn: ({ signal }) => getPayoutHolds(signal) });
  const [holdEventId, setHoldEventId] = useState('');
  const [holdReason, setHoldReason] = useState('');

  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['admin'] });

  const confirmation = useConfirmedAction(async (action: Pending) => {
    if (action.kind === 'retry') {
      const answer = await retryPayout(action.row.payoutId);
      notify.success(answer.newPayoutId ? t('admin.payoutRetried', { amount: formatShillings(action.row.amount), username: action.row.username }) : t('admin.payoutRetriedWaiting'));
    } else if (action.kind === 'hold') {
      await holdEventPayouts(action.eventId, action.reason);
      notify.success(t('admin.payoutHeld'));
      setHoldEventId('');
      setHoldReason('');
    } else if (action.kind === 'release') {
      await releaseEventPayouts(action.eventId);
      notify.success(t('admin.payoutReleased'));
      setHoldEventId('');
    } else {
      const answer = await setEarlyPayouts(action.organiserId, action.allowed);
      notify.success(t(answer.earlyPayouts ? 'admin.earlyPayoutsOn' : 'admin.earlyPayoutsOff', { username: action.username }));
    }
    refresh();
  }, t('admin.financeActionFailed'));
  const { item: pending, ask } = confirmation;

  const askHold = (event: FormEvent) => {
    event.preventDefault();
    ask({ kind: 'hold', eventId: holdEventId.trim(), reason: holdReason.trim() });
  };

  const dialog = pending ? dialogText(pending) : null;
  function dialogText(action: Pending) {
    switch (action.kind) {
      case 'retry':
        return {
          title: t('admin.retryPayoutTitle'),
          description: t('admin.retryPayoutDescription', { amount: formatShillings(action.row.amount), username: action.row.username }),
          confirm: t('admin.retryPayout'),
          tone: 'primary' as const,
        };
      case 'hold':
        return { title: t('admin.holdPayoutsTitle'), description: t('admin.holdPayoutsDescription', { eventId: action.eventId, reason: action.reason }), confirm: t('admin.holdPayouts'), tone: 'danger' as const };
      case 'release':
        return { title: t('admin.releasePayoutsTitle'), description: t('admin.releasePayoutsDescription', { eventId: action.eventId }), confirm: t('admin.releasePayouts'), tone: 'primary' as const };
      case 'early':
        return action.allowed
          ? { title: t('admin.earlyPayoutsOnTitle'), description: t('admin.earlyPayoutsOnDescription', { username: action.username }), confirm: t('admin.allowEarlyPayouts'), tone: 'primary' as const }
          : { title: t('admin.earlyPayoutsOffTitle'), description: t('admin.earlyPayoutsOffDescription', { username: action.username }), confirm: t('admin.stopEarlyPayouts'), tone: 'danger' as const };
    }
  }

  const rows = payouts.data ?? [];
  return (
    <section className="admin-section finance" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('admin.finance')}</h2>
      <p className="muted">{t('admin.financeIntro')}</p>

      {balances.isLoading ? (
        <p className="muted" role="status">
          {t('admin.loadingFinance')}
        </p>
      ) : !balances.data ? (
        <div className="button-row">
          <p className="form-message form-message--error" role="alert">
            {getErrorMessage(balances.error, t('admin.financeLoadFailed'))}
          </p>
          <Button variant="secondary" className="btn--sm" onClick={() => void balances.refetch()}>
            {t('admin.tryAgain')}
          </Button>
        </div>
      ) : (
        <dl className="finance__figures">
          {financeFigures(balances.data).map((figure) => (
            <div key={figure.id} className="finance__figure">
              <dt>{t(figure.label)}</dt>
              <dd className="finance__amount">{formatShillings(figure.amount)}</dd>
              <dd className="muted finance__hint">{t(figure.hint)}</dd>
            </div>
          ))}
        </dl>
      )}

      <div className="refunds__header">
        <h3>{t('admin.payouts')}</h3>
        <StatusFilter legend={t('admin.showPayouts')} name={`${headingId}-filter`} options={FILTERS} value={filter} onChange={setFilter} />
      </div>
      {payouts.isLoading ? (
        <p className="muted" role="status">
          {t('admin.loadingPayouts')}
        </p>
      ) : payouts.error ? (
        <div className="button-row">
          <p className="form-message form-message--error" role="alert">
            {getErrorMessage(payouts.error, t('admin.payoutsLoadFailed'))}
          </p>
          <Button variant="secondary" className="btn--sm" onClick={() => void payouts.refetch()}>
            {t('admin.tryAgain')}
          </Button>
        </div>
      ) : rows.length === 0 ? (
        <p className="empty-state">{t(filter === 'failed' ? 'admin.noFailedPayouts' : 'admin.noPayouts')}</p>
      ) : (
        <ul className="refunds__list">
          {rows.map((row) => {
            const status = STATUS[row.status] ?? { label: row.status, badge: 'badge--pending' };
            const trusted = row.earlyPayouts;
            return (
              <li key={row.payoutId}>
                <article className="refund-card" aria-label={t('admin.payoutLabel', { amount: formatShillings(row.amount), username: row.username })}>
                  <div className="refund-card__top">
                    <p className="refund-card__amount">{formatShillings(row.amount)}</p>
                    <span className={`badge ${status.badge}`}>{STATUS[row.status] ? t(status.label) : status.label}</span>
                  </div>
                  <dl className="refund-card__facts">
                    <div>
                      <dt>{t('admin.organiser')}</dt>
                      <dd>{row.username}</dd>
                    </div>
                    <div>
                      <dt>{t('admin.payoutMade')}</dt>
                      <dd>
                        {formatDateTime(row.createdAt)} · <span className="nowrap">{METHOD[row.method] ? t(METHOD[row.method]!) : row.method}</span> · {t('admin.attempts', { count: row.attempts })}
                        {row.status === 'retrying' && row.nextAttemptAt ? ` · ${t('admin.nextTry', { date: formatDateTime(row.nextAttemptAt) })}` : null}
                      </dd>
                    </div>
                    {row.receipt ? (
                      <div>
                        <dt>{t('admin.payoutReceipt')}</dt>
                        <dd>
                          <span className="mono">{row.receipt}</span>
                          {row.paidAt ? ` · ${formatDateTime(row.paidAt)}` : null}
                        </dd>
                      </div>
                    ) : null}
                    {row.failure ? (
                      <div>
                        <dt>{t('admin.why')}</dt>
                        <dd>
                          {row.failure}
                          {row.lastResultCode ? <span className="mono"> ({row.lastResultCode})</span> : null}
                        </dd>
                      </div>
                    ) : null}
                  </dl>
                  <div className="button-row">
                    {row.status === 'failed' && !row.retriedAt ? (
                      <Button className="btn--sm" onClick={() => ask({ kind: 'retry', row })}>
                        {t('admin.retryPayout')}
                      </Button>
                    ) : null}
                    {row.retriedAt ? <span className="muted">{t('admin.payoutRetriedOn', { date: formatDateTime(row.retriedAt) })}</span> : null}
                    <Button
                      variant="secondary"
                      className="btn--sm"
                      onClick={() => ask({ kind: 'early', organiserId: row.organiserId, username: row.username, allowed: !trusted })}
                    >
                      {trusted ? t('admin.stopEarlyPayoutsFor', { username: row.username }) : t('admin.allowEarlyPayoutsFor', { username: row.username })}
                    </Button>
                  </div>
                </article>
              </li>
            );
          })}
        </ul>
      )}

      <ReconciliationPanel />

      <h3 className="finance__subhead">{t('admin.heldNow')}</h3>
      {holds.isLoading ? (
        <p className="muted" role="status">
          {t('admin.loadingHolds')}
        </p>
      ) : holds.error ? (
        <p className="form-message form-message--error" role="alert">
          {getErrorMessage(holds.error, t('admin.holdsLoadFailed'))}
        </p>
      ) : !holds.data?.length ? (
        <p className="empty-state">{t('admin.noHolds')}</p>
      ) : (
        <ul className="finance__holds">
          {holds.data.map((hold) => (
            <li key={hold.eventId} className="finance__held">
              <div>
                <strong>{hold.title}</strong>
                <p className="muted">{t('admin.heldBecause', { organiser: hold.organiser, reason: hold.reason, when: formatDateTime(hold.heldAt) })}</p>
              </div>
              <Button variant="secondary" className="btn--sm" onClick={() => ask({ kind: 'release', eventId: hold.eventId })}>
                {t('admin.releasePayouts')}
              </Button>
            </li>
          ))}
        </ul>
      )}

      <form className="finance__hold" onSubmit={askHold}>
        <h3>{t('admin.holdTitle')}</h3>
        <p className="muted">{t('admin.holdIntro')}</p>
        <TextField label={t('admin.holdEventId')} name="eventId" value={holdEventId} onChange={(event) => setHoldEventId(event.target.value)} autoComplete="off" />
        <TextField label={t('admin.holdReason')} name="reason" value={holdReason} onChange={(event) => setHoldReason(event.target.value)} hint={t('admin.holdReasonHint')} />
        <div className="button-row">
          <Button type="submit" variant="danger" className="btn--sm" disabled={!holdEventId.trim()}>
            {t('admin.holdPayouts')}
          </Button>
          <Button variant="secondary" className="btn--sm" disabled={!holdEventId.trim()} onClick={() => ask({ kind: 'release', eventId: holdEventId.trim() })}>
            {t('admin.releasePayouts')}
          </Button>
        </div>
      </form>

      <UnmatchedPaymentsSection />

      <ConfirmDialog
        {...confirmation.dialog}
        title={dialog?.title ?? ''}
        description={dialog ? <p>{dialog.description}</p> : null}
        confirmLabel={dialog?.confirm ?? ''}
        busyLabel={t('admin.working')}
        tone={dialog?.tone ?? 'primary'}
      />
    </section>
  );
}
