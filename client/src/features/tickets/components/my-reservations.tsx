/*
 * The profile's reservations (docs/product.md, "Paying in instalments"): each order paid in parts with what is
 * paid, what is left, the due date, the Paybill details, and "Pay now" (a prompt for the rest or a chosen part,
 * followed until M-Pesa answers). A reservation paid off turns into tickets in My Tickets.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { normaliseKenyanPhone } from '@tukio/shared/phone';
import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { formatDateTime, formatShillings } from '../../../lib/format';
import { getServerMessage } from '../../../lib/errors';
import { useT } from '../../../lib/i18n';
import { confirmPayment } from '../api/payment-client';
import { getReservations, payTowardsReservation, reservationsQueryKey, type Reservation } from '../api/reservations-api';
import { PHONE_ERROR } from '../lib/phone';

const POLL_MS = 3_000;
const POLL_FOR_MS = 120_000;

type PayState = { phase: 'idle' } | { phase: 'sending' } | { phase: 'waiting'; checkoutRequestId: string; until: number } | { phase: 'paid' } | { phase: 'failed'; message: string };

/** One reservation's "Pay now": the amount (the balance unless changed) and the phone, then the prompt followed. */
function PayNow({ reservation, onSettled }: { reservation: Reservation; onSettled: () => void }) {
  const t = useT();
  const [amountText, setAmountText] = useState(String(reservation.balance));
  const [phoneText, setPhoneText] = useState('');
  const [fieldError, setFieldError] = useState<{ field: 'amount' | 'phone'; message: string } | null>(null);
  const [state, setState] = useState<PayState>({ phase: 'idle' });

  // Following the prompt: every 3 s until M-Pesa answers (or two minutes pass).
  useEffect(() => {
    if (state.phase !== 'waiting') return;
    const timer = window.setTimeout(() => {
      confirmPayment(state.checkoutRequestId)
        .then((result) => {
          if (result.status === 'success') {
            setState({ phase: 'paid' });
            onSettled();
          } else if (result.status !== 'pending') setState({ phase: 'failed', message: result.resultDesc ?? t('tickets.errorPayment') });
          else if (Date.now() > state.until) setState({ phase: 'failed', message: t('tickets.notConfirmedYet') });
          else setState({ ...state });
        })
        .catch(() => (Date.now() > state.until ? setState({ phase: 'failed', message: t('tickets.errorConfirm') }) : setState({ ...state })));
    }, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [state, onSettled, t]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const amount = Number(amountText);
    if (!Number.isInteger(amount) || amount < 1 || amount > reservation.balance) {
      setFieldError({ field: 'amount', message: t('tickets.reservationAmountError', { balance: formatShillings(reservation.balance) }) });
      return;
    }
    const phone = phoneText.trim() === '' ? undefined : normaliseKenyanPhone(phoneText);
    if (phone === null) {
      setFieldError({ field: 'phone', message: t(PHONE_ERROR) });
      return;
    }
    setFieldError(null);
    setState({ phase: 'sending' });
    payTowardsReservation(reservation.orderId, { amount, ...(phone ? { phone } : {}) })
      .then((answer) => setState({ phase: 'waiting', checkoutRequestId: answer.CheckoutRequestID, until: Date.now() + POLL_FOR_MS }))
      .catch((error: unknown) => setState({ phase: 'failed', message: getServerMessage(error) ?? t('tickets.errorInitiate') }));
  };

  const busy = state.phase === 'sending' || state.phase === 'waiting';
  return (
    <form className="form reservation__pay" onSubmit={submit} noValidate>
      <TextField
        label={t('tickets.reservationAmount')}
        type="number"
        inputMode="numeric"
        min={1}
        max={reservation.balance}
        value={amountText}
        readOnly={busy}
        onChange={(change) => setAmountText(change.target.value)}
        error={fieldError?.field === 'amount' ? fieldError.message : null}
      />
      <TextField
        label={t('tickets.mpesaPhone')}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder="0712 345 678"
        value={phoneText}
        readOnly={busy}
        onChange={(change) => setPhoneText(change.target.value)}
        hint={t('tickets.reservationPhoneHint')}
        error={fieldError?.field === 'phone' ? fieldError.message : null}
      />
      <div role="status" aria-live="polite">
        {state.phase === 'waiting' ? <p>{t('tickets.waitingForMpesa')}</p> : null}
        {state.phase === 'paid' ? <p>{t('tickets.reservationPaymentReceived')}</p> : null}
      </div>
      {state.phase === 'failed' ? (
        <p className="form-message form-message--error" role="alert">
          {state.message}
        </p>
      ) : null}
      <div className="button-row">
        <Button type="submit" loading={busy} loadingText={state.phase === 'sending' ? t('tickets.sendingPrompt') : t('tickets.checking')}>
          {t('tickets.payNow')}
        </Button>
      </div>
    </form>
  );
}

function ReservationItem({ reservation, onSettled }: { reservation: Reservation; onSettled: () => void }) {
  const t = useT();
  const [paying, setPaying] = useState(false);
  const open = reservation.status === 'reserved';
  return (
    <li className="reservation" data-testid="reservation">
      <h3 className="reservation__title">{reservation.eventTitle}</h3>
      <p className="muted">
        {reservation.ticketTypeName ? `${reservation.ticketTypeName} · ` : ''}
        {t('tickets.ticketCount', { count: reservation.quantity })}
      </p>
      <dl className="reservation__figures">
        <dt>{t('tickets.reservationPaid')}</dt>
        <dd data-testid="reservation-paid">{formatShillings(reservation.paid)}</dd>
        <dt>{t('tickets.reservationLeft')}</dt>
        <dd data-testid="reservation-balance">{formatShillings(reservation.balance)}</dd>
        {open && reservation.dueAt ? (
          <>
            <dt>{t('tickets.reservationDue')}</dt>
            <dd>{formatDateTime(reservation.dueAt)}</dd>
          </>
        ) : null}
        {open && reservation.paybill && reservation.orderCode ? (
          <>
            <dt>{t('tickets.paybillNumber')}</dt>
            <dd className="mono">{reservation.paybill}</dd>
            <dt>{t('tickets.paybillAccount')}</dt>
            <dd className="mono" data-testid="reservation-code">
              {reservation.orderCode}
            </dd>
          </>
        ) : null}
      </dl>
      {open ? (
        <>
          <p className="field__hint">{t('tickets.reservationLapseNote', { kept: formatShillings(reservation.keptIfLapsed), refund: formatShillings(reservation.refundIfLapsed) })}</p>
          {paying ? (
            <PayNow reservation={reservation} onSettled={onSettled} />
          ) : (
            <Button onClick={() => setPaying(true)}>{t('tickets.payNow')}</Button>
          )}
        </>
      ) : (
        <p className="form-message" role="status">
          {reservation.status === 'paid' ? t('tickets.reservationPaidOff') : t('tickets.reservationLapsed', { refund: formatShillings(reservation.refundIfLapsed), kept: formatShillings(reservation.keptIfLapsed) })}
        </p>
      )}
    </li>
  );
}

/** Shown only when the buyer has reservations (open, or ended in the last 30 days). */
export function MyReservations({ userId, onPaidOff }: { userId: string; onPaidOff?: () => void }) {
  const t = useT();
  const queryClient = useQueryClient();
  const reservations = useQuery({ queryKey: reservationsQueryKey(userId), queryFn: ({ signal }) => getReservations(signal) });
  const settled = () => {
    void queryClient.invalidateQueries({ queryKey: reservationsQueryKey(userId) });
    onPaidOff?.();
  };
  if (reservations.isLoading) {
    return (
      <p className="muted" role="status">
        {t('tickets.loadingReservations')}
      </p>
    );
  }
  if (reservations.error) {
    return (
      <p className="form-message form-message--error" role="alert">
        {t('tickets.reservationsFailed')}
      </p>
    );
  }
  if (!reservations.data || reservations.data.length === 0) return null;
  return (
    <section className="profile-section" aria-labelledby="my-reservations-heading">
      <div className="profile-section__header">
        <h2 id="my-reservations-heading">{t('tickets.myReservations')}</h2>
      </div>
      <ul className="reservation-list">
        {reservations.data.map((reservation) => (
          <ReservationItem key={reservation.orderId} reservation={reservation} onSettled={settled} />
        ))}
      </ul>
    </section>
  );
}
