/*
 * "Cancel tickets?" (My Tickets, loaded when first opened: ./ticket-actions.tsx). Shows how many tickets and
 * the refund the event's policy gives before anything happens; the server applies the same rule
 * (@tukio/shared/refund-policy) and its refusal is shown inside.
 */
import { useState } from 'react';
import { selfCancelRefund } from '@tukio/shared/refund-policy';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { getErrorMessage } from '../../../lib/errors';
import { notify } from '../../../lib/notify';
import { formatShillings } from '../../../lib/format';
import { cancelTickets, type MyTicket } from '../api/tickets-api';
import { RichText, useT } from '../../../lib/i18n';

export interface TicketCancelDialogProps {
  /** The holder's cancellable tickets of one event, the one they chose first. */
  tickets: MyTicket[];
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}

/** What the chosen tickets bring back: per order, the sum of each ticket's own price x percent, rounded down (as the server counts). */
function refundFor(tickets: MyTicket[]): number {
  const byOrder = new Map<string, MyTicket[]>();
  for (const ticket of tickets) byOrder.set(ticket.orderId ?? ticket._id, [...(byOrder.get(ticket.orderId ?? ticket._id) ?? []), ticket]);
  let total = 0;
  // A mixed order's tickets cost different amounts (a VIP and a GA): each counts at its own price.
  for (const group of byOrder.values()) total += selfCancelRefund(group.reduce((sum, ticket) => sum + (ticket.pricePaid ?? 0), 0), 1, group[0]!.selfCancel?.refundPercent ?? 0);
  return total;
}

export default function TicketCancelDialog({ tickets, open, onClose, onDone }: TicketCancelDialogProps) {
  const t = useT();
  const [count, setCount] = useState(1);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const chosen = tickets.slice(0, count);
  const refund = refundFor(chosen);
  const paid = chosen.some((ticket) => (ticket.pricePaid ?? 0) > 0);
  const title = tickets[0]?.event.title ?? t('tickets.thisEvent');
  const percent = tickets[0]?.selfCancel?.refundPercent ?? 0;

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      const done = await cancelTickets(chosen.map((ticket) => ticket._id));
      notify.success(done.msg);
      onDone();
      onClose();
    } catch (failure) {
      setError(getErrorMessage(failure, t('tickets.cancelFailed')));
    } finally {
      setBusy(false);
    }
  };

  const what = t('tickets.ticketCount', { count });
  return (
    <ConfirmDialog
      open={open}
      title={t('tickets.cancelCountTickets', { count })}
      description={
        <>
          <p>
            <RichText id="tickets.cancelWhat" values={{ what, count }} parts={{ title: <strong>{title}</strong> }} />
          </p>
          <p className="ticket-cancel__refund">
            {paid
              ? refund > 0
                ? t('tickets.refundAmount', { amount: formatShillings(refund), percent })
                : t('tickets.refundNothing')
              : t('tickets.freeNothingRefunded')}
          </p>
        </>
      }
      confirmLabel={t('tickets.cancelWhatButton', { what })}
      busyLabel={t('tickets.cancelling')}
      dismissLabel={t('tickets.keepMyTickets')}
      busy={busy}
      error={error}
      onConfirm={() => void confirm()}
      onClose={() => {
        if (!busy) onClose();
      }}
    >
      {tickets.length > 1 ? (
        <div className="field">
          <label className="field__label" htmlFor="ticket-cancel-count">
            {t('tickets.howMany')}
          </label>
          <select
            id="ticket-cancel-count"
            className="field__control"
            value={count}
            disabled={busy}
            data-autofocus
            onChange={(change) => setCount(Number(change.target.value))}
          >
            {tickets.map((_, index) => (
              <option key={index + 1} value={index + 1}>
                {index + 1 === tickets.length ? t('tickets.allCount', { count: tickets.length }) : index + 1}
              </option>
            ))}
          </select>
        </div>
      ) : null}
    </ConfirmDialog>
  );
}
