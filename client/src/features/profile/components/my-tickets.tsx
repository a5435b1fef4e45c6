/*
 * PROFILE › "My Tickets" (SPEC §2 /profile, §9). Built from GET /api/events/getevnt, keeping the
 * events whose registeredUsers contains the user. Later work may extend the ticket card
 * (e.g. a QR code via qrcode.react: import it only from here / the profile route chunk).
 */
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { useFetch } from '../../../hooks/use-fetch';
import { formatEventDate, formatEventTime } from '../../../lib/format';
import type { TukioEvent } from '../../../types/api';
import { getAllEvents } from '../api/profile-api';

function isRegistered(event: TukioEvent, userId: string): boolean {
  const entries: unknown[] = Array.isArray(event.registeredUsers) ? event.registeredUsers : [];
  return entries.some((entry) => {
    if (typeof entry === 'string') return entry === userId;
    if (typeof entry === 'object' && entry !== null) {
      const record = entry as Record<string, unknown>;
      return record.user === userId || record.userId === userId || record._id === userId;
    }
    return false;
  });
}

export function MyTickets({ userId }: { userId: string }) {
  const { data, error, loading } = useFetch(`tickets:${userId}`, (signal) => getAllEvents(signal));
  const [query, setQuery] = useState('');

  const tickets = useMemo(
    () => (data ?? []).filter((event) => isRegistered(event, userId)),
    [data, userId],
  );
  const visible = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? tickets.filter((event) => event.title.toLowerCase().includes(q)) : tickets;
  }, [tickets, query]);

  return (
    <section className="profile-section" aria-labelledby="my-tickets-heading">
      <div className="profile-section__header">
        <h2 id="my-tickets-heading">My Tickets</h2>
        <div className="search-field">
          <label htmlFor="ticket-search" className="visually-hidden">
            Search tickets
          </label>
          <input
            id="ticket-search"
            type="search"
            className="field__control"
            placeholder="Search tickets..."
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
        </div>
      </div>
      {loading ? (
        <p className="muted" role="status">
          Loading your tickets…
        </p>
      ) : error ? (
        <p className="form-message form-message--error">Failed to fetch your tickets. Please try again later.</p>
      ) : tickets.length === 0 ? (
        <p className="empty-state">No registered events yet.</p>
      ) : visible.length === 0 ? (
        <p className="empty-state">No tickets match “{query.trim()}”.</p>
      ) : (
        <ul className="ticket-grid">
          {visible.map((event) => (
            <li key={event._id} className="ticket-card card">
              <h3 className="ticket-card__title">
                <Link to={paths.event(event._id)}>{event.title}</Link>
              </h3>
              <dl className="ticket-card__meta">
                <div>
                  <dt>Date</dt>
                  <dd>{formatEventDate(event.date)}</dd>
                </div>
                <div>
                  <dt>Time</dt>
                  <dd>{formatEventTime(event.date)}</dd>
                </div>
                <div>
                  <dt>Location</dt>
                  <dd>{event.location}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
