/*
 * "Cancel this event?" (loaded when an organiser or admin first opens it, ./cancel-event-button.tsx). The
 * reason is required (CANCEL_REASON_MIN..MAX characters, counted as typed): ticket holders read it on the
 * event page. The server voids every ticket and queues a full refund for every buyer; a refusal keeps
 * the typed reason in the field.
 */
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextAreaField } from '../../../components/ui/form-field';
import { getErrorMessage, getErrorResponse, getErrorStatus } from '../../../lib/errors';
import { notify } from '../../../lib/notify';
import { CANCEL_REASON_MAX, CANCEL_REASON_MIN, cancelEvent, getEvent, type EventItem } from '../api/events-api';
import './cancel-event.css';
import { RichText, t, useT } from '../../../lib/i18n';

export interface CancelEventDialogProps {
  event: EventItem;
  open: boolean;
  onClose: () => void;
  /** The server's event after cancelling (status 'cancelled', cancelReason, cancelledAt). */
  onCancelled: (event: EventItem) => void;
}

function reasonProblem(reason: string): string | null {
  const length = reason.trim().length;
  if (length < CANCEL_REASON_MIN) return t('events.reasonTooShort', { min: CANCEL_REASON_MIN });
  if (length > CANCEL_REASON_MAX) return t('events.reasonTooLong', { max: CANCEL_REASON_MAX, length });
  return null;
}

/** The server named the reason as the field it refused (400 `{field: 'reason'}`). */
function isReasonRefusal(error: unknown): boolean {
  const data = getErrorResponse(error)?.data;
  return getErrorStatus(error) === 400 && typeof data === 'object' && data !== null && (data as { field?: unknown }).field === 'reason';
}

export default function CancelEventDialog({ event, open, onClose, onCancelled }: CancelEventDialogProps) {
  const t = useT();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const length = reason.trim().length;

  const confirm = async () => {
    const problem = reasonProblem(reason);
    setReasonError(problem);
    setError(null);
    if (problem) return;
    setBusy(true);
    try {
      const cancelled = await cancelEvent(event, reason.trim());
      notify.success(cancelled.msg ?? (event.isPaid ? t('events.cancelledRefunding') : t('events.cancelledDone')));
      onCancelled(cancelled.event);
      onClose();
    } catch (failure) {
      if (getErrorStatus(failure) === 409) {
        // Cancelled meanwhile (another tab, an admin): show the event as it now is.
        const current = await getEvent(event._id).catch(() => null);
        if (current) {
          notify.info(getErrorMessage(failure, t('events.alreadyCancelled')));
          onCancelled(current);
          onClose();
        } else {
          setError(getErrorMessage(failure, t('events.alreadyCancelled')));
        }
      } else if (isReasonRefusal(failure)) {
        setReasonError(getErrorMessage(failure, t('events.reasonRefused')));
      } else {
        setError(getErrorMessage(failure, t('events.cancelFailed')));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <ConfirmDialog
      open={open}
      title={t('events.cancelQuestion')}
      description={
        <>
          <p>
            <RichText id="events.cancelForEveryone" parts={{ title: <strong>{event.title}</strong> }} />
          </p>
          <p>
            {event.isPaid ? t('events.cancelVoidsPaid') : t('events.cancelVoidsFree')} {t('events.holdersSeeReason')}
          </p>
        </>
      }
      confirmLabel={event.isPaid ? t('events.cancelAndRefund') : t('events.cancelEvent')}
      busyLabel={t('events.cancelling')}
      dismissLabel={t('events.keepEvent')}
      busy={busy}
      error={error}
      onConfirm={() => void confirm()}
      onClose={() => {
        if (!busy) onClose();
      }}
    >
      <TextAreaField
        label={t('events.reasonLabel')}
        name="reason"
        rows={4}
        required
        aria-required="true"
        data-autofocus
        value={reason}
        onChange={(change) => {
          setReason(change.target.value);
          if (reasonError) setReasonError(reasonProblem(change.target.value));
        }}
        hint={
          <span className={length > CANCEL_REASON_MAX ? 'cancel-reason__count--over' : undefined}>
            {t('events.charactersCount', { length, max: CANCEL_REASON_MAX })}
          </span>
        }
        error={reasonError}
      />
    </ConfirmDialog>
  );
}
