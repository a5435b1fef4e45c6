/*
 * TICKET BOX › paid events (loaded lazily by ./ticket-box.tsx).
 * Get Ticket → price confirmation → M-Pesa payment dialog → registration → 'Already Registered'.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { notify } from '../../../lib/notify';
import { Button } from '../../../components/ui/button';
import type { TicketPurchaseProps } from './ticket-box';
import { useTicketPayment } from '../hooks/use-ticket-payment';
import { PaymentDialog } from './payment-dialog';
import '../tickets.css';

export function TicketPurchase(props: TicketPurchaseProps) {
  if (!props.userId) return null; // the ticket box sends visitors to /login before this
  return <Purchase {...props} userId={props.userId} />;
}

export default TicketPurchase;

function Purchase({ event, userId, quantity, disabled, onPurchased }: TicketPurchaseProps & { userId: string }) {
  const [open, setOpen] = useState(false);
  const openRef = useRef(open);
  useEffect(() => {
    openRef.current = open;
  }, [open]);

  const finish = useCallback(
    (message: string, _quantity: number, registrationProblem: string | null) => {
      if (registrationProblem) {
        notify.warning(`Payment successful. Your tickets are issued and in your profile (${registrationProblem}).`);
      } else {
        notify.success(`Payment successful. ${/[.!]$/.test(message) ? message : `${message}.`}`);
      }
      setOpen(false);
      onPurchased();
    },
    [onPurchased],
  );

  const payment = useTicketPayment({
    eventId: event._id,
    userId,
    ticketPrice: event.ticketPrice,
    isOpen: () => openRef.current,
    onPurchased: finish,
    onBackgroundOutcome: (status, detail) => notify.error(detail ? `${status}: ${detail}` : status),
  });
  const { state } = payment;

  const inProgress = state.phase === 'initiating' || state.phase === 'pending' || state.phase === 'registering' || state.phase === 'done';

  const openDialog = () => {
    if (!inProgress) payment.begin(quantity);
    setOpen(true);
  };

  const close = () => {
    setOpen(false);
    payment.dismiss();
  };

  return (
    <>
      <Button block disabled={disabled && !inProgress} onClick={openDialog} aria-haspopup="dialog">
        {inProgress ? 'Payment in progress…' : disabled ? 'Sold out' : 'Get Ticket'}
      </Button>
      {inProgress && !open ? (
        <p className="ticket-box__note" role="status">
          An M-Pesa payment for this event is in progress. Press the button to see it.
        </p>
      ) : null}
      <PaymentDialog
        open={open}
        eventTitle={event.title}
        ticketPrice={event.ticketPrice}
        state={state}
        onClose={close}
        onAcceptPrice={payment.acceptPrice}
        onPay={(phone) => void payment.pay(phone)}
        onConfirm={() => void payment.confirmNow()}
        onRetry={payment.retry}
      />
    </>
  );
}
