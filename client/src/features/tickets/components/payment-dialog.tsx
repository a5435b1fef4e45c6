/*
 * The M-Pesa payment dialog (docs/product.md): a native modal <dialog> (focus stays inside,
 * Escape closes, labelled by its heading). Step 1 confirms the price, step 2 takes the phone number
 * and follows the payment; the status line is a polite live region, errors are alerts.
 */
import { KENYAN_PHONE_PATTERN, normaliseKenyanPhone } from '@tukio/shared/phone';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useModalDialog } from '../../../hooks/use-modal-dialog';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { Spinner } from '../../../components/ui/spinner';
import { formatShillings } from '../../../lib/format';
import { PHONE_ERROR, PHONE_HINT } from '../lib/phone';
import { orderAmount, orderSubtotal } from '../lib/ticket-order';
import type { PaymentState } from '../hooks/use-ticket-payment';

export interface PaymentDialogProps {
  open: boolean;
  eventTitle: string;
  state: PaymentState;
  onClose: () => void;
  onAcceptPrice: () => void;
  /** `email` only from a guest (signed out), who may give one for the tickets. */
  onPay: (phone: string, email?: string) => void;
  onConfirm: () => void;
  onRetry: () => void;
  /** A signed-out guest buys: an optional email field, and success ends on the ticket page link. */
  guest?: boolean;
}

/** 254712345678 → 0712 345 678, for reading back the number the prompt went to. */
function displayPhone(phone: string | null): string {
  if (!phone || !KENYAN_PHONE_PATTERN.test(phone)) return phone ?? '';
  const local = `0${phone.slice(3)}`;
  return `${local.slice(0, 4)} ${local.slice(4, 7)} ${local.slice(7)}`;
}

export function PaymentDialog(props: PaymentDialogProps) {
  const { open, eventTitle, state, onClose } = props;
  const dialogRef = useModalDialog(open);
  const phoneRef = useRef<HTMLInputElement>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const summaryId = useId();
  const [phoneText, setPhoneText] = useState('');
  const [emailText, setEmailText] = useState('');
  const [phoneError, setPhoneError] = useState<string | null>(null);

  const { phase } = state;
  const { order } = state;
  // The server's figure once it has answered; before that, what the box showed.
  const total = state.amount ?? (order ? orderAmount(order) : 0);
  const ticketsText = `${state.quantity} ${state.quantity === 1 ? 'ticket' : 'tickets'}`;
  const busy = phase === 'initiating' || phase === 'pending' || phase === 'registering' || phase === 'done';

  // Move focus to what the step asks for next (a disabled control would drop focus out of the dialog).
  useEffect(() => {
    if (!open) return;
    const marked = () => dialogRef.current?.querySelector<HTMLElement>('[data-autofocus]');
    if (phase === 'confirm' || phase === 'failed') marked()?.focus();
    else if (phase === 'phone') phoneRef.current?.focus();
    else if (phase === 'pending' || phase === 'registering') statusRef.current?.focus();
  }, [open, phase, dialogRef]);

  useEffect(() => {
    if (state.error?.kind === 'phone') setPhoneError(state.error.message);
  }, [state.error]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (phase !== 'phone') return;
    const phone = normaliseKenyanPhone(phoneText);
    if (!phone) {
      setPhoneError(PHONE_ERROR);
      phoneRef.current?.focus();
      return;
    }
    setPhoneError(null);
    const email = emailText.trim();
    props.onPay(phone, props.guest && email ? email : undefined);
  };
  const guestDone = props.guest && phase === 'done';

  const tone =
    state.status === 'Payment successful' ? 'success' : phase === 'failed' ? 'error' : phase === 'pending' || phase === 'initiating' ? 'waiting' : 'idle';
  const generalError = state.error && state.error.kind !== 'phone' ? state.error : null;

  return (
    <dialog
      ref={dialogRef}
      className="overlay-dialog payment-dialog"
      aria-labelledby={titleId}
      aria-describedby={summaryId}
      onClose={onClose}
    >
      <div className="overlay-dialog__header">
        <h2 id={titleId}>{phase === 'confirm' ? 'Confirm your purchase' : 'Pay with M-Pesa'}</h2>
        <Button variant="ghost" className="btn--sm" onClick={onClose} aria-label="Close payment dialog">
          Close
        </Button>
      </div>

      <div className="payment-summary" id={summaryId}>
        <p className="payment-summary__event">{eventTitle}</p>
        {order ? (
          order.lines.map((line) => (
            <p className="payment-summary__line" key={line.name ?? ''}>
              {line.quantity} {line.name ? `${line.name} ` : ''}
              {line.quantity === 1 ? 'ticket' : 'tickets'} × {formatShillings(line.price)}
            </p>
          ))
        ) : (
          <p className="payment-summary__line">{ticketsText}</p>
        )}
        {order && order.discount > 0 ? (
          <p className="payment-summary__line">
            Subtotal {formatShillings(orderSubtotal(order))}, discount{order.promoCode ? ` (${order.promoCode})` : ''} −{formatShillings(order.discount)}
          </p>
        ) : null}
        <p className="payment-summary__total">
          Total <strong>{formatShillings(total)}</strong>
        </p>
      </div>

      {phase === 'confirm' ? (
        <div className="payment-dialog__step">
          <p>
            You will pay <strong>{formatShillings(total)}</strong> by M-Pesa for {ticketsText}. Continue?
          </p>
          <div className="button-row payment-dialog__actions">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button data-autofocus onClick={props.onAcceptPrice}>
              Continue to payment
            </Button>
          </div>
        </div>
      ) : (
        <form className="form payment-dialog__step" onSubmit={submit} noValidate>
          <TextField
            ref={phoneRef}
            label="M-Pesa phone number"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            placeholder="0712 345 678"
            value={phase === 'phone' || phase === 'idle' ? phoneText : displayPhone(state.phone) || phoneText}
            readOnly={phase !== 'phone'}
            aria-readonly={phase !== 'phone' || undefined}
            onChange={(change) => {
              setPhoneText(change.target.value);
              if (phoneError) setPhoneError(null);
            }}
            hint={PHONE_HINT}
            error={phoneError}
          />
          {props.guest ? (
            <TextField
              label="Email (optional)"
              type="email"
              inputMode="email"
              autoComplete="email"
              value={emailText}
              readOnly={phase !== 'phone'}
              onChange={(change) => setEmailText(change.target.value)}
              hint="Your tickets go to your phone by SMS; give an email to get them there too."
            />
          ) : null}

          <div ref={statusRef} className={`payment-status payment-status--${tone}`} role="status" aria-live="polite" aria-atomic="true" tabIndex={-1}>
            <p className="payment-status__line">
              {tone === 'waiting' ? <Spinner size="sm" /> : null}
              <span>{state.status}</span>
            </p>
            {state.detail && !guestDone ? <p className="payment-status__detail">{state.detail}</p> : null}
            {guestDone ? (
              <p className="payment-status__detail">
                Your {state.quantity === 1 ? 'ticket was' : 'tickets were'} sent by SMS to {state.phone}.{' '}
                {state.guestTicketPath ? <Link to={state.guestTicketPath}>Open your {state.quantity === 1 ? 'ticket' : 'tickets'}</Link> : null}
              </p>
            ) : null}
            {phase === 'pending' && state.phone ? (
              <p className="payment-status__detail">
                Prompt sent to {displayPhone(state.phone)}
                {state.amount !== null ? ` for ${formatShillings(state.amount)}` : ''}.
              </p>
            ) : null}
          </div>
          {phase === 'pending' && state.simulatorUrl ? (
            // Offline payments only (no real M-Pesa): this prompt on the simulated phone, for this buyer alone.
            <p className="payment-dialog__simulator">
              <a href={state.simulatorUrl} target="_blank" rel="noopener noreferrer">
                Open the simulated M-Pesa phone
              </a>
            </p>
          ) : null}

          {generalError ? (
            generalError.kind === 'busy' ? (
              <div className="notice payment-busy" role="alert">
                <p>
                  <strong>An M-Pesa prompt is already waiting on this phone.</strong>
                </p>
                <p className="payment-busy__detail">{generalError.message}</p>
              </div>
            ) : (
              <p className="form-message form-message--error" role="alert">
                {generalError.message}
              </p>
            )
          ) : null}

          <div className="button-row payment-dialog__actions">
            {phase === 'phone' || phase === 'initiating' ? (
              <Button type="submit" loading={phase === 'initiating'} loadingText="Sending the prompt…">
                Pay {formatShillings(total)}
              </Button>
            ) : null}
            {phase === 'pending' && state.confirmVisible ? (
              <Button variant="secondary" loading={state.confirming} loadingText="Checking…" onClick={props.onConfirm}>
                Confirm
              </Button>
            ) : null}
            {phase === 'failed' ? (
              <Button data-autofocus onClick={props.onRetry}>
                Try again
              </Button>
            ) : null}
            {phase === 'registering' || (phase === 'done' && !guestDone) ? (
              <Button loading loadingText="Finishing your registration…">
                Done
              </Button>
            ) : null}
            {guestDone ? <Button onClick={onClose}>Close</Button> : null}
            {busy ? null : (
              <Button variant="secondary" onClick={onClose}>
                Cancel
              </Button>
            )}
          </div>
          {phase === 'pending' ? (
            <p className="payment-dialog__note muted">
              You can close this window: the payment is followed in the background and your tickets appear in your profile once
              it is paid.
            </p>
          ) : null}
        </form>
      )}
    </dialog>
  );
}
