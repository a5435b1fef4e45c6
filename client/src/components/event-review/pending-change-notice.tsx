/*
 * /edit-event: the organiser's changes to a published event that wait for review (or were rejected, with the
 * admin's reason), side by side with the published values, and a button to withdraw (or dismiss) them.
 */
import { useState } from 'react';
import { Button } from '../ui/button';
import { FormMessage } from '../ui/form-message';
import { getErrorMessage } from '../../lib/errors';
import { useT } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { withdrawPendingChange, type PendingChange } from '../../lib/event-review-api';
import { ChangeTable } from './change-table';

export function PendingChangeNotice({ change, onWithdrawn }: { change: PendingChange; onWithdrawn: () => void }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const rejected = change.status === 'rejected';
  const withdraw = async () => {
    setBusy(true);
    setError(null);
    try {
      await withdrawPendingChange(change.eventId);
      if (!rejected) notify.success(t('event-review.withdrawn'));
      onWithdrawn();
    } catch (failure) {
      setError(getErrorMessage(failure, t('event-review.withdrawFailed')));
      setBusy(false);
    }
  };
  const title = rejected ? t('event-review.rejectedTitle') : t('event-review.pendingTitle');
  return (
    <section className={`review-notice${rejected ? ' review-notice--rejected' : ''}`} aria-label={title} data-testid="pending-change-notice">
      <h2>{title}</h2>
      <p>{rejected ? t('event-review.rejectedIntro') : t('event-review.pendingIntro')}</p>
      {rejected && change.rejectReason ? <p>{t('event-review.rejectedReason', { reason: change.rejectReason })}</p> : null}
      {!rejected && change.pausesSales ? <p role="note"><strong>{t('event-review.pendingPaused')}</strong></p> : null}
      <ChangeTable changes={change.changes} caption={title} />
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      <Button variant="secondary" className="btn--sm" loading={busy} loadingText={t('event-review.withdrawing')} onClick={() => void withdraw()}>
        {rejected ? t('event-review.dismiss') : t('event-review.withdraw')}
      </Button>
    </section>
  );
}
