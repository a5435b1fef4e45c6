/*
 * "Cancel ticket" and "Transfer" on a ticket in My Tickets (docs/product.md /profile), before its event starts.
 * Cancel follows the event's refund policy: outside it the button is disabled and the reason the server
 * gives (`selfCancel.reason`) is shown under it. The dialogs' code downloads when a button is first
 * pointed at, focused or pressed.
 */
import { Suspense, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import type { MyTicket } from '../api/tickets-api';
import { lazyWithTexts, useT } from '../../../lib/i18n';

const loadCancel = () => import('./ticket-cancel-dialog');
const loadTransfer = () => import('./ticket-transfer-dialog');
const TicketCancelDialog = lazyWithTexts(loadCancel);
const TicketTransferDialog = lazyWithTexts(loadTransfer);

export interface TicketActionsProps {
  ticket: MyTicket;
  /** The holder's tickets of the same event that can be cancelled now, this one first. */
  cancellable: MyTicket[];
  onChanged: () => void;
}

export function TicketActions({ ticket, cancellable, onChanged }: TicketActionsProps) {
  const t = useT();
  const [open, setOpen] = useState<'cancel' | 'transfer' | null>(null);
  const whyId = useId();
  const allowed = ticket.selfCancel?.allowed ?? false;
  const reason = ticket.selfCancel?.reason ?? null;
  const preloadCancel = () => void loadCancel().catch(() => undefined);
  const preloadTransfer = () => void loadTransfer().catch(() => undefined);

  return (
    <div className="ticket-card__actions">
      <div className="button-row">
        <Button
          variant="danger"
          className="btn--sm"
          aria-haspopup="dialog"
          disabled={!allowed}
          aria-describedby={!allowed && reason ? whyId : undefined}
          onPointerEnter={preloadCancel}
          onFocus={preloadCancel}
          onClick={() => setOpen('cancel')}
        >
          {t('tickets.cancelTicket')}
        </Button>
        <Button variant="secondary" className="btn--sm" aria-haspopup="dialog" onPointerEnter={preloadTransfer} onFocus={preloadTransfer} onClick={() => setOpen('transfer')}>
          {t('tickets.transfer')}
        </Button>
      </div>
      {!allowed && reason ? (
        <p id={whyId} className="ticket-card__why muted">
          {reason}
        </p>
      ) : null}
      <Suspense fallback={null}>
        {open === 'cancel' ? <TicketCancelDialog tickets={cancellable} open onClose={() => setOpen(null)} onDone={onChanged} /> : null}
        {open === 'transfer' ? <TicketTransferDialog ticket={ticket} open onClose={() => setOpen(null)} onDone={onChanged} /> : null}
      </Suspense>
    </div>
  );
}
