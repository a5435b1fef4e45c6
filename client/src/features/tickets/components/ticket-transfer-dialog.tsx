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

export interface TicketTransferDialogProps {
  ticket: MyTicket;
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}

export default function TicketTransferDialog({ ticket, open, onClose, onDone }: TicketTransferDialogProps) {
  const [to, setTo] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setError(null);
    if (!to.trim()) {
      setFieldError('Enter the username or email address of the person receiving the ticket.');
      return;
    }
    setBusy(true);
    try {
      const done = await transferTicket(ticket._id, to.trim());
      notify.success(done.message);
      onDone();
      onClose();
    } catch (failure) {
      setError(getErrorMessage(failure, 'The ticket could not be transferred. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <ConfirmDialog
      open={open}
      title="Transfer this ticket?"
      description={
        <p>
          Your ticket for <strong>{ticket.event.title}</strong> goes to another Tukio account. They get a new QR code by email and on their
          profile; yours stops working at the door. This cannot be undone.
        </p>
      }
      confirmLabel="Transfer ticket"
      busyLabel="Transferring…"
      dismissLabel="Keep my ticket"
      tone="primary"
      busy={busy}
      error={error}
      onConfirm={() => void confirm()}
      onClose={() => {
        if (!busy) onClose();
      }}
    >
      <TextField
        label="Recipient's username or email"
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
