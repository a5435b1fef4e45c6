/*
 * TICKET BOX › paid events (loaded lazily by ./ticket-box.tsx).
 * Get Ticket → price confirmation → M-Pesa payment dialog → registration → 'Already Registered'.
 * Signed out, 'Buy as guest' runs the same dialog by phone (and optional email) and ends on the link
 * to the guest's ticket page instead of registering.
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { notify } from '../../../lib/notify';
import { Button } from '../../../components/ui/button';
import type { TicketPurchaseProps } from './ticket-box';
import { useTicketPayment } from '../hooks/use-ticket-payment';
import { listQuestions } from '../api/checkout-questions-api';
import { PaymentDialog } from './payment-dialog';
import '../tickets.css';
import { useT } from '../../../lib/i18n';

export function TicketPurchase(props: TicketPurchaseProps) {
  // A payment belongs to one buyer and one event: signing in or out, or another event, starts a fresh flow
  // (which picks up that buyer's saved push, if any).
  return <Purchase key={`${props.userId ?? 'guest'}:${props.event._id}`} {...props} />;
}

export default TicketPurchase;

function Purchase({ event, userId, order, disabled, disabledLabel, onPurchased, embedded }: TicketPurchaseProps) {
  const t = useT();
  const guest = userId === null;
  const [open, setOpen] = useState(false);
  const openRef = useRef(open);
  useEffect(() => {
    openRef.current = open;
  }, [open]);

  const finish = useCallback(
    (message: string, _quantity: number, registrationProblem: string | null) => {
      if (registrationProblem) {
        notify.warning(t('tickets.paidRegistrationProblem', { problem: registrationProblem }));
      } else {
        notify.success(t('tickets.paymentSuccessful', { message: /[.!]$/.test(message) ? message : `${message}.` }));
      }
      setOpen(false);
      onPurchased();
    },
    [onPurchased, t],
  );

  const payment = useTicketPayment({
    eventId: event._id,
    userId,
    isOpen: () => openRef.current,
    onPurchased: finish,
    onBackgroundOutcome: (status, detail) => notify.error(detail ? `${status}: ${detail}` : status),
  });
  const { state } = payment;

  // A guest's purchase is over once paid (nothing to register): the button can start another.
  // A reservation made (a deposit paid) is over here too: the rest is paid from /profile.
  const inProgress = state.phase === 'initiating' || state.phase === 'pending' || state.phase === 'paybill' || state.phase === 'registering' || (state.phase === 'done' && !guest && !state.reserved);

  // The organiser's checkout questions (docs/decisions/checkout-questions.md): answered in the dialog before the phone number.
  const questions = useQuery({ queryKey: ['checkout-questions', event._id], queryFn: ({ signal }) => listQuestions(event._id, signal), staleTime: 60_000 });

  const openDialog = () => {
    if (!inProgress) payment.begin(order, questions.data);
    setOpen(true);
  };

  const close = () => {
    setOpen(false);
    payment.dismiss();
  };

  return (
    <>
      <Button block disabled={disabled && !inProgress} onClick={openDialog} aria-haspopup="dialog">
        {inProgress ? t('tickets.paymentInProgress') : disabled ? (disabledLabel ?? t('tickets.soldOut')) : guest ? t('tickets.buyAsGuest') : t('tickets.getTicket')}
      </Button>
      {inProgress && !open ? (
        <p className="ticket-box__note" role="status">
          {t('tickets.paymentInProgressNote')}
        </p>
      ) : null}
      <PaymentDialog
        open={open}
        eventTitle={event.title}
        state={state}
        onClose={close}
        onAcceptPrice={(instalments) => payment.acceptPrice(instalments)}
        onAnswer={payment.answer}
        onEditAnswers={payment.editAnswers}
        onPay={(phone, email) => void payment.pay(phone, email)}
        onConfirm={() => void payment.confirmNow()}
        onRetry={payment.retry}
        onUsePaybill={payment.usePaybill}
        guest={guest}
        ticketLinkInNewTab={embedded}
      />
    </>
  );
}
