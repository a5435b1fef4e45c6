/*
 * ADMIN › an event's card › "Erase buyers' data" (docs/decisions/data-rights.md, "Retention"): what the daily job
 * does PERSONAL_DATA_RETENTION_DAYS after an event, done now for one ended event, with a reason (kept and logged).
 * The confirmation says what goes and what stays; the server refuses an event that has not ended.
 */
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/form-field';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { useConfirmedAction } from '../../../hooks/use-confirmed-action';
import type { ListedEvent } from '../../../types/api';
import { shredEvent } from '../api/retention-api';

/** The reason must say something (the server asks for 3 to 500 characters). */
const REASON_MIN = 3;

export function ShredEventButton({ event }: { event: ListedEvent }) {
  const t = useT();
  const [reason, setReason] = useState('');
  const shred = useConfirmedAction(async () => {
    if (reason.trim().length < REASON_MIN) return t('admin.shredReasonRequired');
    const answer = await shredEvent(event._id, reason.trim());
    notify.success(t('admin.shredDone', { title: event.title, count: answer.rowsErased }));
    setReason('');
  }, t('admin.shredFailed'));

  return (
    <>
      <Button variant="secondary" className="btn--sm" aria-label={t('admin.shredButtonLabel', { title: event.title })} onClick={() => shred.ask(event)}>
        {t('admin.shred')}
      </Button>
      <ConfirmDialog
        {...shred.dialog}
        title={t('admin.shredTitle', { title: event.title })}
        description={<p>{t('admin.shredDescription')}</p>}
        confirmLabel={t('admin.shredConfirm')}
        busyLabel={t('admin.working')}
        tone="danger"
      >
        <TextField label={t('admin.shredReason')} name="reason" value={reason} onChange={(change) => setReason(change.target.value)} hint={t('admin.shredReasonHint')} autoComplete="off" />
      </ConfirmDialog>
    </>
  );
}
