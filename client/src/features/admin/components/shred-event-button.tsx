/*
 * ADMIN › an event's card › "Erase buyers' data" (docs/decisions/data-rights.md, "Retention"): what the daily job
 * does PERSONAL_DATA_RETENTION_DAYS after an event, done now for one ended event, with a reason (kept and logged).
 * The confirmation says what goes and what stays; the server refuses an event that has not ended.
 */
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/form-field';
import { getErrorMessage } from '../../../lib/errors';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import type { ListedEvent } from '../../../types/api';
import { shredEvent } from '../api/retention-api';

/** The reason must say something (the server asks for 3 to 500 characters). */
const REASON_MIN = 3;

export function ShredEventButton({ event }: { event: ListedEvent }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    if (busy) return;
    setOpen(false);
    setError(null);
  };
  const confirm = async () => {
    if (reason.trim().length < REASON_MIN) {
      setError(t('admin.shredReasonRequired'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const answer = await shredEvent(event._id, reason.trim());
      notify.success(t('admin.shredDone', { title: event.title, count: answer.rowsErased }));
      setOpen(false);
      setReason('');
    } catch (failure) {
      setError(getErrorMessage(failure, t('admin.shredFailed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="secondary" className="btn--sm" aria-label={t('admin.shredButtonLabel', { title: event.title })} onClick={() => setOpen(true)}>
        {t('admin.shred')}
      </Button>
      <ConfirmDialog
        open={open}
        title={t('admin.shredTitle', { title: event.title })}
        description={<p>{t('admin.shredDescription')}</p>}
        confirmLabel={t('admin.shredConfirm')}
        busyLabel={t('admin.working')}
        tone="danger"
        busy={busy}
        error={error}
        onConfirm={() => void confirm()}
        onClose={close}
      >
        <TextField label={t('admin.shredReason')} name="reason" value={reason} onChange={(change) => setReason(change.target.value)} hint={t('admin.shredReasonHint')} autoComplete="off" />
      </ConfirmDialog>
    </>
  );
}
