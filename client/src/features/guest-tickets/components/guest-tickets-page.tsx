/*
 * GUEST TICKETS (/t/:token): a guest buyer's tickets with their QR codes, opened from the SMS link. The
 * token is the capability (no account); once the order is claimed by an account the page says where to look.
 * A cancelled event says so first, with its reason and where each refund stands (its M-Pesa receipt once
 * paid); a void ticket shows why instead of its QR code, and nothing invites the guest to the door.
 */
import { useQuery } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { PageLoader } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { getServerMessage } from '../../../lib/errors';
import { formatDateTime, formatEventDate, formatEventTime, formatShillings } from '../../../lib/format';
import { getGuestTickets, type GuestRefund, type GuestVoidReason } from '../api/guest-tickets-api';
import '../guest-tickets.css';
import { RichText, t as translate, useT } from '../../../lib/i18n';

/** The tickets feature's QR code, passed in by the route (features do not import each other). */
export type TicketQrComponent = ComponentType<{ code: string; label: string }>;
/** The tickets feature's answers editor for this order (shows nothing when the event asks no questions). */
export type GuestAnswersComponent = ComponentType<{ token: string }>;

function voidText(reason: GuestVoidReason | null | undefined): string {
  if (reason === 'event_cancelled') return translate('guest-tickets.voidEventCancelled');
  if (reason === 'self_cancel') return translate('guest-tickets.voidSelfCancelled');
  if (reason === 'transferred') return translate('guest-tickets.voidTransferred');
  return translate('guest-tickets.void');
}

/** One refund as the guest reads it: how much, and where it stands (with the receipt once paid). */
function refundText(refund: GuestRefund): string {
  const amount = formatShillings(refund.amount);
  if (refund.status === 'succeeded') {
    return refund.receipt ? translate('guest-tickets.refundPaidReceipt', { amount, receipt: refund.receipt }) : translate('guest-tickets.refundPaid', { amount });
  }
  if (refund.status === 'failed') return translate('guest-tickets.refundRetrying', { amount });
  if (refund.status === 'sent') return translate('guest-tickets.refundSent', { amount });
  return translate('guest-tickets.refundDue', { amount });
}

export function GuestTicketsPage({ token, TicketQr, Answers }: { token: string; TicketQr: TicketQrComponent; Answers?: GuestAnswersComponent }) {
  const t = useT();
  const { data, error, isLoading } = useQuery({ queryKey: ['guest-tickets', token], queryFn: ({ signal }) => getGuestTickets(token, signal) });

  if (isLoading) return <PageLoader label={t('guest-tickets.loading')} />;
  if (!data) {
    return (
      <section className="guest-tickets card">
        <h1>{t('guest-tickets.notFound')}</h1>
        <p className="form-message form-message--error" role="alert">
          {getServerMessage(error) ?? t('guest-tickets.loadFailed')}
        </p>
        <p>
          <RichText id="guest-tickets.signedInSince" parts={{ profile: <Link to={paths.profile}>{t('guest-tickets.yourProfile')}</Link> }} />
        </p>
      </section>
    );
  }

  const { event, tickets } = data;
  const refunds = data.refunds ?? [];
  const cancelled = event.status === 'cancelled';
  const cancelledWhen = formatDateTime(event.cancelledAt);
  // The door is only worth mentioning while a ticket still admits someone.
  const anyValid = tickets.some((ticket) => !ticket.voidedAt);
  return (
    <section className="guest-tickets" aria-labelledby="guest-tickets-title">
      <h1 id="guest-tickets-title">{event.title}</h1>
      <p className="guest-tickets__when">
        {formatEventDate(event.date)} · {formatEventTime(event.date)} · {event.location}
      </p>
      {cancelled ? (
        <section className="guest-tickets__cancelled" aria-labelledby="guest-tickets-cancelled-title">
          <h2 id="guest-tickets-cancelled-title">{t('guest-tickets.cancelledTitle')}</h2>
          {cancelledWhen ? <p>{t('guest-tickets.cancelledOn', { when: cancelledWhen })}</p> : null}
          {event.cancelReason ? (
            <blockquote className="guest-tickets__reason">
              <p>
                <span className="visually-hidden">{t('guest-tickets.reason')} </span>
                {event.cancelReason}
              </p>
            </blockquote>
          ) : null}
          {refunds.length === 0 ? <p>{t('guest-tickets.cancelledNoRefund')}</p> : null}
        </section>
      ) : null}
      {refunds.length > 0 ? (
        <section className="guest-tickets__refunds" aria-labelledby="guest-tickets-refunds-title">
          <h2 id="guest-tickets-refunds-title">{t('guest-tickets.refundsTitle')}</h2>
          <ul>
            {refunds.map((refund) => (
              <li key={refund.createdAt + refund.amount} className={`guest-tickets__refund guest-tickets__refund--${refund.status}`}>
                {refundText(refund)}
              </li>
            ))}
          </ul>
          <p className="muted">{t('guest-tickets.refundsWhere')}</p>
        </section>
      ) : null}
      {tickets.length === 0 ? (
        <p className="muted" role="status">
          {cancelled ? t('guest-tickets.noTicketsCancelled') : t('guest-tickets.noTicketsYet')}
        </p>
      ) : (
        <ul className="guest-tickets__list">
          {tickets.map((ticket, index) => (
            <li key={ticket._id} className={`guest-tickets__ticket card${ticket.voidedAt ? ' guest-tickets__ticket--void' : ''}`}>
              <p className="guest-tickets__holder">
                {ticket.holder}
                {tickets.length > 1 ? ` · ${t('guest-tickets.ticketOf', { index: index + 1, of: tickets.length })}` : ''}
              </p>
              {ticket.voidedAt ? (
                <p className="badge badge--cancelled">{voidText(ticket.voidReason)}</p>
              ) : (
                <>
                  <TicketQr code={ticket.code} label={t('guest-tickets.qrFor', { title: event.title, index: index + 1, of: tickets.length })} />
                  {ticket.checkedInAt ? <p className="muted">{t('guest-tickets.checkedIn')}</p> : null}
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {anyValid && Answers ? <Answers token={token} /> : null}
      {anyValid ? <p className="muted">{t('guest-tickets.howToMove')}</p> : null}
    </section>
  );
}
