/*
 * GUEST TICKETS (/t/:token): a guest buyer's tickets with their QR codes, opened from the SMS link. The
 * token is the capability (no account); once the order is claimed by an account the page says where to look.
 */
import type { ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { PageLoader } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useFetch } from '../../../hooks/use-fetch';
import { getServerMessage } from '../../../lib/errors';
import { formatEventDate, formatEventTime } from '../../../lib/format';
import { getGuestTickets } from '../api/guest-tickets-api';
import '../guest-tickets.css';
import { RichText, useT } from '../../../lib/i18n';

/** The tickets feature's QR code, passed in by the route (features do not import each other). */
export type TicketQrComponent = ComponentType<{ code: string; label: string }>;

export function GuestTicketsPage({ token, TicketQr }: { token: string; TicketQr: TicketQrComponent }) {
  const t = useT();
  const { data, error, loading } = useFetch(`guest-tickets:${token}`, (signal) => getGuestTickets(token, signal));

  if (loading && !data) return <PageLoader label={t('guest-tickets.loading')} />;
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
  return (
    <section className="guest-tickets" aria-labelledby="guest-tickets-title">
      <h1 id="guest-tickets-title">{event.title}</h1>
      <p className="guest-tickets__when">
        {formatEventDate(event.date)} · {formatEventTime(event.date)} · {event.location}
      </p>
      {tickets.length === 0 ? (
        <p className="muted" role="status">
          {t('guest-tickets.noTicketsYet')}
        </p>
      ) : (
        <ul className="guest-tickets__list">
          {tickets.map((ticket, index) => (
            <li key={ticket._id} className="guest-tickets__ticket card">
              <p className="guest-tickets__holder">
                {ticket.holder}
                {tickets.length > 1 ? ` · ${t('guest-tickets.ticketOf', { index: index + 1, of: tickets.length })}` : ''}
              </p>
              {ticket.voidedAt ? (
                <p className="badge badge--cancelled">{t('guest-tickets.void')}</p>
              ) : (
                <TicketQr code={ticket.code} label={t('guest-tickets.qrFor', { title: event.title, index: index + 1, of: tickets.length })} />
              )}
              {ticket.checkedInAt ? <p className="muted">{t('guest-tickets.checkedIn')}</p> : null}
            </li>
          ))}
        </ul>
      )}
      <p className="muted">{t('guest-tickets.howToMove')}</p>
    </section>
  );
}
