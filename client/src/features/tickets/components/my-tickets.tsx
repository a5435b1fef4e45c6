/*
 * PROFILE › "My Tickets" (docs/product.md /profile): the user's issued tickets from GET
 * /api/tickets/mine/paged, a page at a time, one card per ticket with its QR code (the signed code the
 * door scans). Search matches the event title of the loaded tickets, case-insensitively; up to 4
 * columns. The loaded pages are saved on the device: offline, the saved copy is shown
 * (lib/offline-tickets.ts).
 */
import { SearchField } from '../../../components/ui/search-field';
import { useMemo, useState } from 'react';
import { LoadMore } from '../../../components/ui/load-more';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { usePagedList } from '../../../hooks/use-paged-list';
import { useSession } from '../../../hooks/use-session';
import { isRequestError } from '../../../lib/errors';
import { hasStarted } from '../../../lib/event-clock';
import { formatDateTime, formatEventDate, formatEventTime } from '../../../lib/format';
import { getMyTicketPage, type MyPagedTicket, type MyTicket } from '../api/tickets-api';
import { readSavedTickets, saveTickets } from '../lib/offline-tickets';
import { TicketActions } from './ticket-actions';
import { AnswersEditor } from './answers-editor';
import { TicketQr } from './ticket-qr';
import '../tickets.css';
import { t, useT } from '../../../lib/i18n';

interface TicketView {
  ticket: MyTicket;
  /** 1-based position among this user's tickets for the same event. */
  index: number;
  of: number;
}

/**
 * Whether the holder paid for this ticket, so a refund is theirs: not when it is free, nor when someone
 * gave it to them (the buyer is refunded). A copy saved before the server said so: bought, unless received.
 */
const holderPaid = (ticket: MyTicket) => ticket.paidByHolder ?? (ticket.orderId !== null && !ticket.transferredFrom);

/** What a void ticket's card says, by why it is void (the cancellation email says the same about the money). */
function voidNotice(ticket: MyTicket): { badge: string; text: string } {
  if (ticket.voidReason === 'self_cancel') {
    return { badge: t('tickets.badgeCancelled'), text: holderPaid(ticket) && (ticket.pricePaid ?? 0) > 0 ? t('tickets.youCancelledPaid') : t('tickets.youCancelled') };
  }
  if (ticket.voidReason === 'transferred') return { badge: t('tickets.badgeTransferred'), text: t('tickets.youTransferred') };
  if (ticket.voidReason === 'payment_reversed') return { badge: t('tickets.badgePaymentReversed'), text: t('tickets.youPaymentReversed') };
  if (holderPaid(ticket)) return { badge: t('tickets.badgeEventCancelled'), text: t('tickets.voidRefunded') };
  return { badge: t('tickets.badgeEventCancelled'), text: ticket.transferredFrom ? t('tickets.voidReceived') : t('tickets.void') };
}

/** Valid, unused tickets of an event that has not started: they can still be cancelled or transferred. */
const isActionable = (ticket: MyTicket) => !ticket.voidedAt && !ticket.checkedInAt && !hasStarted(ticket.event.date);

/** Each ticket's place among the holder's tickets for its event: as the server counted it (every page), else among those loaded. */
function numberTickets(tickets: MyPagedTicket[]): TicketView[] {
  const totals = new Map<string, number>();
  for (const ticket of tickets) totals.set(ticket.event._id, (totals.get(ticket.event._id) ?? 0) + 1);
  const seen = new Map<string, number>();
  return tickets.map((ticket) => {
    const index = (seen.get(ticket.event._id) ?? 0) + 1;
    seen.set(ticket.event._id, index);
    return { ticket, index: ticket.position?.index ?? index, of: ticket.position?.of ?? totals.get(ticket.event._id) ?? 1 };
  });
}

/**
 * The tickets from the server, a page at a time (the loaded pages saved on the device as they come), or
 * the saved copy when the server cannot be reached.
 */
function useMyTickets(userId: string) {
  const list = usePagedList(`my-tickets:${userId}`, async (cursor, signal) => {
    const page = await getMyTicketPage(cursor, signal);
    // A first page starts the saved copy again; a later one adds to it.
    const earlier = cursor ? (readSavedTickets(userId)?.tickets ?? []).filter((saved) => !page.items.some((ticket) => ticket._id === saved._id)) : [];
    saveTickets(userId, [...earlier, ...page.items]);
    return page;
  });
  const unreachable = Boolean(list.error) && isRequestError(list.error) && !list.error.response;
  const saved = useMemo(() => (unreachable && list.items.length === 0 ? readSavedTickets(userId) : null), [unreachable, list.items.length, userId]);
  const data: MyPagedTicket[] | undefined = saved ? saved.tickets : list.loading || list.error ? undefined : list.items;
  return { list, data, total: saved ? saved.tickets.length : list.total, error: saved ? undefined : list.error, loading: list.loading, reload: list.reload, savedAt: saved?.savedAt ?? null };
}

export function MyTickets({ userId }: { userId: string }) {
  const t = useT();
  const { list, data, total, error, loading, reload, savedAt } = useMyTickets(userId);
  // The holder's name at the door: these are the signed-in user's own tickets.
  const holder = useSession().user?.username ?? '';
  const [query, setQuery] = useState('');

  const tickets = useMemo(() => numberTickets(data ?? []), [data]);
  /** Per event, the tickets the holder may cancel now (one dialog cancels some or all of them). */
  const cancellable = useMemo(() => {
    const byEvent = new Map<string, MyTicket[]>();
    for (const ticket of data ?? []) {
      if (isActionable(ticket) && ticket.selfCancel?.allowed) byEvent.set(ticket.event._id, [...(byEvent.get(ticket.event._id) ?? []), ticket]);
    }
    return byEvent;
  }, [data]);
  const visible = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? tickets.filter(({ ticket }) => ticket.event.title.toLowerCase().includes(q)) : tickets;
  }, [tickets, query]);

  return (
    <section className="profile-section" aria-labelledby="my-tickets-heading">
      <div className="profile-section__header">
        <h2 id="my-tickets-heading">{t('tickets.myTickets')}{data && total > 0 ? ` (${total})` : ''}</h2>
        <SearchField label={t('tickets.searchTickets')} placeholder={t('tickets.searchTicketsPlaceholder')} value={query} onChange={setQuery} />
      </div>
      {savedAt ? (
        <p className="form-message ticket-offline-note" role="status">
          {t('tickets.offlineSaved', { when: formatDateTime(savedAt) })}
        </p>
      ) : null}
      {loading && !data ? (
        <p className="muted" role="status">
          {t('tickets.loadingYourTickets')}
        </p>
      ) : error && !data ? (
        <div className="button-row">
          <p className="form-message form-message--error" role="alert">
            {t('tickets.fetchFailed')}
          </p>
          <Button variant="secondary" className="btn--sm" onClick={reload}>
            {t('tickets.tryAgain')}
          </Button>
        </div>
      ) : tickets.length === 0 ? (
        <p className="empty-state">{t('tickets.noRegistered')}</p>
      ) : visible.length === 0 ? (
        <p className="empty-state" role="status">
          {t('tickets.noMatch', { query: query.trim() })}
        </p>
      ) : (
        <ul className="ticket-grid">
          {visible.map(({ ticket, index, of }) => (
            <li key={ticket._id} className={`ticket-card card${ticket.checkedInAt ? ' ticket-card--used' : ''}${ticket.voidedAt ? ' ticket-card--void' : ''}`}>
              <h3 className="ticket-card__title">
                <Link to={paths.event(ticket.event._id)}>{ticket.event.title}</Link>
              </h3>
              {of > 1 ? <p className="ticket-card__count muted">{t('tickets.ticketOf', { index, of })}</p> : null}
              <dl className="ticket-card__meta">
                {/* On a series the ticket's own date (or "every date" for a pass), not the series' first. */}
                <div>
                  <dt>{t('tickets.date')}</dt>
                  <dd data-testid="ticket-date">{ticket.allDates ? t('tickets.allDatesPass') : formatEventDate(ticket.seriesDate?.startsAt ?? ticket.event.date)}</dd>
                </div>
                {ticket.allDates ? null : (
                  <div>
                    <dt>{t('tickets.time')}</dt>
                    <dd>{formatEventTime(ticket.seriesDate?.startsAt ?? ticket.event.date)}</dd>
                  </div>
                )}
                <div>
                  <dt>{t('tickets.location')}</dt>
                  <dd>{ticket.event.location}</dd>
                </div>
                {/* A free event's one type says nothing; a paid one's tells the door (and the holder) which ticket this is. */}
                {ticket.ticketType && ticket.event.isPaid ? (
                  <div>
                    <dt>{t('tickets.ticketType')}</dt>
                    <dd>{ticket.ticketType.name}</dd>
                  </div>
                ) : null}
                {holder ? (
                  <div>
                    <dt>{t('tickets.holder')}</dt>
                    <dd>{holder}</dd>
                  </div>
                ) : null}
              </dl>
              {ticket.voidedAt ? (
                // A void ticket admits nobody: no code to show at the door.
                <p className="ticket-card__void">
                  <span className="badge badge--cancelled">{voidNotice(ticket).badge}</span>
                  <span>{voidNotice(ticket).text}</span>
                </p>
              ) : (
                <div className="ticket-card__qr">
                  <TicketQr code={ticket.code} label={t('tickets.qrFor', { title: ticket.event.title, index, of })} />
                </div>
              )}
              {ticket.checkedInAt ? (
                <p className="ticket-card__used">
                  <span className="badge badge--pending">{t('tickets.usedAt', { when: formatDateTime(ticket.checkedInAt) })}</span>
                </p>
              ) : null}
              {ticket.voidedAt ? null : (
                <details className="ticket-card__code">
                  <summary>{t('tickets.showCode')}</summary>
                  <p className="mono">{ticket.code}</p>
                </details>
              )}
              {/* The order's answers to the organiser's questions, once per order (under its first ticket here). */}
              {ticket.orderId && holderPaid(ticket) && !ticket.voidedAt && !savedAt && visible.find((other) => other.ticket.orderId === ticket.orderId)?.ticket._id === ticket._id ? (
                <AnswersEditor orderId={ticket.orderId} />
              ) : null}
              {isActionable(ticket) && !savedAt ? (
                <TicketActions
                  ticket={ticket}
                  cancellable={[ticket, ...(cancellable.get(ticket.event._id) ?? []).filter((other) => other._id !== ticket._id)]}
                  onChanged={reload}
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {savedAt ? null : (
        <LoadMore shown={list.items.length} total={list.total} hasMore={list.hasMore} loading={list.loadingMore} error={list.loadMoreError} onLoadMore={list.loadMore} />
      )}
    </section>
  );
}
