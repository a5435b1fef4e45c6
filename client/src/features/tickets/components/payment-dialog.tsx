/*
 * The M-Pesa payment dialog (docs/product.md): a native modal <dialog> (focus stays inside,
 * Escape closes, labelled by its heading). Step 1 confirms the price, step 2 takes the phone number
 * and follows the payment; the status line is a polite live region, errors are alerts.
 */
import { MPESA_TRANSACTION_MAX } from '@tukio/shared/limits';
import { KENYAN_PHONE_PATTERN, normaliseKenyanPhone } from '@tukio/shared/phone';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useModalDialog } from '../../../hooks/use-modal-dialog';
import { Button } from '../../../components/ui/button';
import { PrivacyLink } from '../../../components/privacy-link';
import { TextField } from '../../../components/ui/form-field';
import { Spinner } from '../../../components/ui/spinner';
import { formatEventDate, formatEventTime, formatSeriesDate, formatShillings } from '../../../lib/format';
import { PHONE_ERROR, PHONE_HINT } from '../lib/phone';
import { orderAmount, orderSubtotal } from '../lib/ticket-order';
import { STATUS, type PaymentState } from '../lib/payment-flow';
import type { PaybillDetails } from '../api/payment-client';
import type { AnswerInput } from '@tukio/shared/checkout-questions';
import { CheckoutQuestionsStep } from './checkout-questions-step';
import type { InstalmentPlanView } from '../../../types/api';
import { RichText, useT } from '../../../lib/i18n';
import '../../../styles/overlay-dialog.css';

export interface PaymentDialogProps {
  open: boolean;
  eventTitle: string;
  state: PaymentState;
  onClose: () => void;
  /** `instalments`: the buyer chose to pay in parts (only offered when the order's type has a plan). */
  onAcceptPrice: (instalments?: boolean) => void;
  /** The checkout questions answered (the questions step, ./checkout-questions-step.tsx). */
  onAnswer?: (answers: AnswerInput[]) => void;
  /** Back from the phone number to the answers. */
  onEditAnswers?: () => void;
  /** `email` only from a guest (signed out), who may give one for the tickets. */
  onPay: (phone: string, email?: string) => void;
  onConfirm: () => void;
  onRetry: () => void;
  /** "Pay from the M-Pesa menu instead" (shown when the server offers the Paybill). */
  onUsePaybill?: () => void;
  /** A signed-out guest buys: an optional email field, and success ends on the ticket page link. */
  guest?: boolean;
  /** The guest's ticket link opens a new tab (the ticket widget's frame on another website stays on the checkout). */
  ticketLinkInNewTab?: boolean;
}

/** 254712345678 → 0712 345 678, for reading back the number the prompt went to. */
function displayPhone(phone: string | null): string {
  if (!phone || !KENYAN_PHONE_PATTERN.test(phone)) return phone ?? '';
  const local = `0${phone.slice(3)}`;
  return `${local.slice(0, 4)} ${local.slice(4, 7)} ${local.slice(7)}`;
}

/** mm:ss until `until`, ticking every second (0:00 once passed). */
function useCountdown(until: number): string {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const seconds = Math.max(0, Math.ceil((until - now) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The Paybill details to type on the phone (docs/decisions/paybill.md), and how long the seats stay held. */
function PaybillPanel({ paybill }: { paybill: PaybillDetails }) {
  const t = useT();
  const until = Date.parse(paybill.holdExpiresAt);
  const left = useCountdown(until);
  const time = new Date(until).toLocaleTimeString(document.documentElement.lang || undefined, { hour: '2-digit', minute: '2-digit' });
  return (
    <section className="notice payment-paybill" aria-labelledby="payment-paybill-title">
      <h3 id="payment-paybill-title">{t('tickets.paybillTitle')}</h3>
      <p>{t('tickets.paybillSteps')}</p>
      <dl className="payment-paybill__details">
        <dt>{t('tickets.paybillNumber')}</dt>
        <dd data-testid="paybill-shortcode">{paybill.shortcode}</dd>
        <dt>{t('tickets.paybillAccount')}</dt>
        <dd data-testid="paybill-account">{paybill.account}</dd>
        <dt>{t('tickets.paybillAmount')}</dt>
        <dd data-testid="paybill-amount">{formatShillings(paybill.amount)}</dd>
      </dl>
      <p>{t('tickets.paybillHeldUntil', { time, left })}</p>
    </section>
  );
}

/** The deposit the prompt will ask for on a plan, before the server says its own figure (it rounds up the same way). */
export const depositEstimate = (amount: number, plan: InstalmentPlanView) => Math.min(Math.ceil((amount * plan.depositPercent) / 100), Math.max(amount - 1, 1));

/** What paying in parts means, said before buying (docs/product.md, "Paying in instalments"). */
export function InstalmentTerms({ plan, amount, quantity }: { plan: InstalmentPlanView; amount: number; quantity: number }) {
  const t = useT();
  return (
    <>
      {t('tickets.instalmentTerms', {
        percent: plan.depositPercent,
        deposit: formatShillings(depositEstimate(amount, plan)),
        date: `${formatEventDate(plan.dueDate)} ${formatEventTime(plan.dueDate)}`,
        fee: formatShillings(Math.min(plan.cancellationFee * quantity, Math.max(depositEstimate(amount, plan) - 1, 0))),
      })}
    </>
  );
}

export function PaymentDialog(props: PaymentDialogProps) {
  const t = useT();
  const { open, eventTitle, state, onClose } = props;
  const dialogRef = useModalDialog(open);
  const phoneRef = useRef<HTMLInputElement>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const summaryId = useId();
  const [phoneText, setPhoneText] = useState('');
  const [emailText, setEmailText] = useState('');
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [payInParts, setPayInParts] = useState(false);

  const { phase } = state;
  const { order } = state;
  // The server's figure once it has answered; before that, what the box showed.
  const total = state.amount ?? (order ? (order.instalments && order.plan ? depositEstimate(orderAmount(order), order.plan) : orderAmount(order)) : 0);
  const plan = !props.guest && order?.plan ? order.plan : null;
  // More than one M-Pesa payment can move: said before any seat is held (the server refuses it too).
  const overMpesaMax = total > MPESA_TRANSACTION_MAX;
  const ticketsText = t('tickets.ticketCount', { count: state.quantity });
  const busy = phase === 'initiating' || phase === 'pending' || phase === 'registering' || phase === 'done';

  // Move focus to what the step asks for next (a disabled control would drop focus out of the dialog).
  useEffect(() => {
    if (!open) return;
    const marked = () => dialogRef.current?.querySelector<HTMLElement>('[data-autofocus]');
    if (phase === 'confirm' || phase === 'failed') marked()?.focus();
    else if (phase === 'phone') phoneRef.current?.focus();
    else if (phase === 'pending' || phase === 'registering' || phase === 'queued') statusRef.current?.focus();
  }, [open, phase, dialogRef]);

  useEffect(() => {
    if (state.error?.kind === 'phone') setPhoneError(state.error.message);
  }, [state.error]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (phase !== 'phone') return;
    const phone = normaliseKenyanPhone(phoneText);
    if (!phone) {
      setPhoneError(t(PHONE_ERROR));
      phoneRef.current?.focus();
      return;
    }
    setPhoneError(null);
    const email = emailText.trim();
    props.onPay(phone, props.guest && email ? email : undefined);
  };
  const guestDone = props.guest && phase === 'done';

  const tone =
    state.status === STATUS.success ? 'success' : phase === 'failed' ? 'error' : phase === 'pending' || phase === 'initiating' || phase === 'queued' || phase === 'paybill' ? 'waiting' : 'idle';
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
        <h2 id={titleId}>{phase === 'confirm' ? t('tickets.confirmPurchase') : t('tickets.payWithMpesa')}</h2>
        <Button variant="ghost" className="btn--sm" onClick={onClose} aria-label={t('tickets.closePaymentDialog')}>
          {t('tickets.close')}
        </Button>
      </div>

      <div className="payment-summary" id={summaryId}>
        <p className="payment-summary__event">{eventTitle}</p>
        {order?.date ? (
          <p className="payment-summary__line" data-testid="payment-date">
            {t('tickets.forDate', { date: formatSeriesDate(order.date.startsAt) })}
          </p>
        ) : null}
        {order ? (
          order.lines.map((line) => (
            <p className="payment-summary__line" key={line.name ?? ''}>
              {line.name ? t('tickets.lineNamed', { count: line.quantity, name: line.name, price: formatShillings(line.price) }) : t('tickets.line', { count: line.quantity, price: formatShillings(line.price) })}
            </p>
          ))
        ) : (
          <p className="payment-summary__line">{ticketsText}</p>
        )}
        {order && order.discount > 0 ? (
          <p className="payment-summary__line">
            {t('tickets.subtotalDiscount', { subtotal: formatShillings(orderSubtotal(order)), code: order.promoCode ? ` (${order.promoCode})` : '', discount: formatShillings(order.discount) })}
          </p>
        ) : null}
        {order?.feeOnTop ? <p className="payment-summary__line">{t('tickets.serviceFeeLine', { fee: formatShillings(order.feeOnTop) })}</p> : null}
        <p className="payment-summary__total">
          {/* Paying in parts: what this prompt asks for is the deposit, out of the order's whole price. */}
          {order?.instalments && order.plan ? (
            <RichText id="tickets.depositOfTotal" values={{ total: formatShillings(orderAmount(order)) }} parts={{ amount: <strong>{formatShillings(total)}</strong> }} />
          ) : (
            <RichText id="tickets.totalAmount" parts={{ amount: <strong>{formatShillings(total)}</strong> }} />
          )}
        </p>
      </div>

      {phase === 'confirm' ? (
        <div className="payment-dialog__step">
          <p>
            <RichText id="tickets.youWillPay" values={{ tickets: ticketsText }} parts={{ amount: <strong>{formatShillings(total)}</strong> }} />
          </p>
          {plan ? (
            <div className="payment-instalments">
              <label className="checkbox">
                <input type="checkbox" checked={payInParts} onChange={(change) => setPayInParts(change.target.checked)} data-testid="pay-in-parts" />
                <span>{t('tickets.payInInstalments')}</span>
              </label>
              <p className="field__hint">
                <InstalmentTerms plan={plan} amount={orderAmount(order!)} quantity={state.quantity} />
              </p>
            </div>
          ) : null}
          {overMpesaMax ? (
            <p className="form-message form-message--error" role="alert">
              {t('errors.order_amount_too_large', { amount: total, max: MPESA_TRANSACTION_MAX })}
            </p>
          ) : null}
          <div className="button-row payment-dialog__actions">
            <Button variant="secondary" onClick={onClose}>
              {t('tickets.cancel')}
            </Button>
            {overMpesaMax ? null : (
              <Button data-autofocus onClick={() => props.onAcceptPrice(Boolean(plan && payInParts))}>
                {t('tickets.continueToPayment')}
              </Button>
            )}
          </div>
        </div>
      ) : phase === 'questions' ? (
        <CheckoutQuestionsStep state={state} onAnswer={(answers) => props.onAnswer?.(answers)} onCancel={onClose} />
      ) : (
        <form className="form payment-dialog__step" onSubmit={submit} noValidate>
          {/* Paying from the menu: the three things to type come first; the prompt's phone number no longer matters. */}
          {phase === 'paybill' && state.push?.paybill ? <PaybillPanel paybill={state.push.paybill} /> : null}
          {phase === 'paybill' ? null : (
          <TextField
            ref={phoneRef}
            label={t('tickets.mpesaPhone')}
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
            hint={t(PHONE_HINT)}
            error={phoneError}
          />
          )}
          {props.guest && phase !== 'paybill' ? (
            <TextField
              label={t('tickets.emailOptional')}
              type="email"
              inputMode="email"
              autoComplete="email"
              value={emailText}
              readOnly={phase !== 'phone'}
              onChange={(change) => setEmailText(change.target.value)}
              hint={t('tickets.emailHint')}
            />
          ) : null}
          <p className="field__hint payment-dialog__privacy">
            {t('tickets.phonePrivacy')} <PrivacyLink newTab />
          </p>

          <div ref={statusRef} className={`payment-status payment-status--${tone}`} role="status" aria-live="polite" aria-atomic="true" tabIndex={-1}>
            <p className="payment-status__line">
              {tone === 'waiting' ? <Spinner size="sm" /> : null}
              <span>{state.status}</span>
            </p>
            {state.detail && !guestDone ? <p className="payment-status__detail">{state.detail}</p> : null}
            {guestDone ? (
              <p className="payment-status__detail">
                {t('tickets.sentBySms', { count: state.quantity, phone: state.phone ?? '' })}{' '}
                {state.guestTicketPath ? (
                  props.ticketLinkInNewTab ? (
                    <a href={state.guestTicketPath} target="_blank" rel="noopener noreferrer">
                      {t('tickets.openYourTickets', { count: state.quantity })}
                    </a>
                  ) : (
                    <Link to={state.guestTicketPath}>{t('tickets.openYourTickets', { count: state.quantity })}</Link>
                  )
                ) : null}
              </p>
            ) : null}
            {phase === 'queued' && state.queue ? (
              <p className="payment-status__detail">{t('tickets.queuePlace', { position: state.queue.position, seconds: state.queue.etaSeconds })}</p>
            ) : null}
            {phase === 'pending' && state.phone && !state.pushUnknown ? (
              <p className="payment-status__detail">
                {state.amount !== null
                  ? t('tickets.promptSentFor', { phone: displayPhone(state.phone), amount: formatShillings(state.amount) })
                  : t('tickets.promptSent', { phone: displayPhone(state.phone) })}
              </p>
            ) : null}
          </div>
          {phase === 'pending' && state.simulatorUrl ? (
            // Offline payments only (no real M-Pesa): this prompt on the simulated phone, for this buyer alone.
            <p className="payment-dialog__simulator">
              <a href={state.simulatorUrl} target="_blank" rel="noopener noreferrer">
                {t('tickets.openSimulator')}
              </a>
            </p>
          ) : null}

          {generalError ? (
            generalError.kind === 'busy' ? (
              <div className="notice payment-busy" role="alert">
                <p>
                  <strong>{t('tickets.promptWaiting')}</strong>
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
              <Button type="submit" loading={phase === 'initiating'} loadingText={t('tickets.sendingPrompt')}>
                {t('tickets.payAmount', { amount: formatShillings(total) })}
              </Button>
            ) : null}
            {phase === 'phone' && state.answers && props.onEditAnswers ? (
              <Button variant="secondary" onClick={props.onEditAnswers}>
                {t('tickets.editAnswers')}
              </Button>
            ) : null}
            {phase === 'pending' && state.confirmVisible ? (
              <Button variant="secondary" loading={state.confirming} loadingText={t('tickets.checking')} onClick={props.onConfirm}>
                {t('tickets.confirm')}
              </Button>
            ) : null}
            {phase === 'pending' && state.push?.paybill && props.onUsePaybill ? (
              <Button variant="secondary" onClick={props.onUsePaybill}>
                {t('tickets.payFromMenu')}
              </Button>
            ) : null}
            {phase === 'failed' ? (
              <Button data-autofocus onClick={props.onRetry}>
                {t('tickets.tryAgain')}
              </Button>
            ) : null}
            {state.reserved ? (
              <>
                <Link className="btn btn--secondary" to="/profile">
                  {t('tickets.seeReservation')}
                </Link>
                <Button onClick={onClose}>{t('tickets.close')}</Button>
              </>
            ) : null}
            {phase === 'registering' || (phase === 'done' && !guestDone && !state.reserved) ? (
              <Button loading loadingText={t('tickets.finishingRegistration')}>
                {t('tickets.done')}
              </Button>
            ) : null}
            {guestDone ? <Button onClick={onClose}>{t('tickets.close')}</Button> : null}
            {busy ? null : (
              <Button variant="secondary" onClick={onClose}>
                {phase === 'queued' ? t('tickets.leaveLine') : t('tickets.cancel')}
              </Button>
            )}
          </div>
          {phase === 'pending' ? (
            <p className="payment-dialog__note muted">
              {t('tickets.closeWhilePending')}
            </p>
          ) : null}
        </form>
      )}
    </dialog>
  );
}
