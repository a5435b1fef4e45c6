import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { paths } from '../../../config/paths';
import { getErrorStatus, serverErrorMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { getPayoutAccount, payoutAccountKey } from '../api/payout-account-api';
import { CodeEntry } from './code-entry';
import { DestinationForm } from './destination-form';
import { DestinationText } from './destination-text';

/**
 * "Where to be paid": the active destination (masked), the 24 h hold after a change, and the two steps of
 * adding or changing it (form with the password, then the SMS code). The server decides who may; a refusal
 * (not an organiser) is shown as it comes.
 */
export function PayoutDestinationSection() {
  const t = useT();
  const account = useQuery({ queryKey: payoutAccountKey, queryFn: ({ signal }) => getPayoutAccount(signal) });
  // The form is shown on demand; a change waiting for its code shows the code step unless the organiser starts again.
  const [editing, setEditing] = useState(false);
  const data = account.data;

  let body: React.ReactNode;
  if (!data) {
    if (account.isLoading) {
      body = (
        <p className="muted" role="status">
          {t('payouts.loading')}
        </p>
      );
    } else if (getErrorStatus(account.error) === 403) {
      body = (
        <p className="empty-state">
          {serverErrorMessage(account.error)} <Link to={paths.plan}>{t('payouts.planEvent')}</Link>
        </p>
      );
    } else {
      body = (
        <>
          <FormMessage tone="error">{serverErrorMessage(account.error, 'payouts.loadFailed')}</FormMessage>
          <Button variant="secondary" onClick={() => void account.refetch()}>
            {t('payouts.tryAgain')}
          </Button>
        </>
      );
    }
  } else {
    const showCode = data.pending && !editing;
    body = (
      <>
        <div className="payout-current card">
          <h3>{t('payouts.currentTitle')}</h3>
          {data.active ? (
            <p className="payout-current__destination">
              <strong>
                <DestinationText destination={data.active} />
              </strong>{' '}
              <span className="muted">{t('payouts.confirmedOn', { time: formatDateTime(data.active.confirmedAt) })}</span>
            </p>
          ) : (
            <p>{t('payouts.none')}</p>
          )}
          {data.heldUntil ? (
            <p className="payout-hold" role="status">
              {t('payouts.heldNotice', { time: formatDateTime(data.heldUntil) })}
            </p>
          ) : null}
        </div>
        {showCode && data.pending ? (
          <CodeEntry pending={data.pending} onStartAgain={() => setEditing(true)} />
        ) : editing || !data.active ? (
          <DestinationForm isChange={Boolean(data.active)} onCancel={data.active ? () => setEditing(false) : undefined} onSent={() => setEditing(false)} />
        ) : (
          <Button variant="secondary" onClick={() => setEditing(true)}>
            {t('payouts.change')}
          </Button>
        )}
      </>
    );
  }

  return (
    <section className="payouts-section" aria-labelledby="payout-destination-title">
      <h2 id="payout-destination-title">{t('payouts.whereTitle')}</h2>
      <p className="muted">{t('payouts.whereLead')}</p>
      {body}
    </section>
  );
}
