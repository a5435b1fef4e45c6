/*
 * "Transfer this ticket?" (My Tickets, loaded when first opened: ./ticket-actions.tsx). The recipient is named
 * by username or email; they get a new ticket (new QR, emailed to them) and this one stops working. A refusal
 * (unknown account, oneself, too late) is shown inside and the typed name stays.
 */
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/form-field';
import { getErrorMessage } from '../../../lib/errors';
import { notify } from '../../../lib/notify';
import { transferTicket, type MyTicket } from '../api/tickets-api';
import { RichText, useT } from '../../../lib/i18n';

export interface TicketTransferDialogProps {
  ticket: MyTicket;
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}

export default function TicketTransferDialog({ ticket, open, onClose, onDone }: TicketTransferDialogProps) {
  const t = useT();
  const [to, setTo] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setError(null);
    if (!to.trim()) {
      setFieldError(t('tickets.transferNeedsRecipient'));
      return;
    }
    setBusy(true);
    try {
      const done = await transferTicket(ticket._id, to.trim());
      notify.success(done.message);
      onDone();
      onClose();
    } catch (failure) {
      setError(getErrorMessage(failure, t('tickets.transferFailed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <ConfirmDialog
      open={open}
      title={t('tickets.transferQuestion')}
      description={
        <p>
          <RichText id="tickets.transferWhat" parts={{ title: <strong>{ticket.event.title}</strong> }} />
        </p>
      }
      confirmLabel={t('tickets.transferTicket')}
      busyLabel={t('tickets.transferring')}
      dismissLabel={t('tickets.keepMyTicket')}
      tone="primary"
      busy={busy}
      error={error}
      onConfirm={() => void confirm()}
      onClose={() => {
        if (!busy) onClose();
      }}
    >
      <TextField
        label={t('tickets.recipient')}
        name="transfer-to"
        autoComplete="off"
        required
        aria-required="true"
        data-autofocus
        maxLength={254}
        value={to}
        error={fieldError}
        disabled={busy}
        onChange={(change) => {
          setTo(change.target.value);
          // A refusal was about the name typed before: a new one has not been refused yet.
          if (fieldError) setFieldError(null);
          if (error) setError(null);
        }}
      />
    </ConfirmDialog>
  );
}
