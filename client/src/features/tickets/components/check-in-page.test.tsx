import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GateList } from '../api/tickets-api';
import { getGateList } from '../api/tickets-api';
import { queryWrapper } from '../../../test-query-client';
import { CheckInPage } from './check-in-page';

/* The unit tier registers the English catalogs as the build does: the page is read by its English words. */

vi.mock('../api/tickets-api', () => ({
  getGateList: vi.fn(),
  checkInTicket: vi.fn(),
  syncScans: vi.fn(),
  getRole: vi.fn(async () => null),
  getAttendeePage: vi.fn(() => Promise.reject(Object.assign(new Error('Network Error'), { isHttpError: true }))),
  getAttendeesCsv: vi.fn(),
}));
vi.mock('../lib/ticket-code', () => ({
  loadVerificationKey: vi.fn(async () => null),
  rememberVerificationKey: vi.fn(),
  verifyTicketOffline: vi.fn(async () => ({ kind: 'valid', ticketId: 't-amani', eventId: EVENT_ID, forThisEvent: true })),
}));

const EVENT_ID = 'b'.repeat(24);
const OWNER = 'o'.repeat(24);
const details = { title: 'Kisumu Lakefront Run', date: '2026-12-12T07:00', user: OWNER };
const gateList: GateList = {
  eventId: EVENT_ID,
  generatedAt: '2026-11-29T06:00:00.000Z',
  publicKey: { algorithm: 'Ed25519', jwk: { kty: 'OKP', crv: 'Ed25519', x: 'x' } },
  tickets: [{ ticketId: 't-amani', username: 'amani', email: 'amani@example.com', checkedInAt: null, checkedInDevice: null, voidedAt: null, voidReason: null } as GateList['tickets'][number]],
  flagged: [],
};
const unreachable = () => Object.assign(new Error('Network Error'), { isHttpError: true });

let online = false;

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('tukio-gate-device', JSON.stringify('Gate D'));
  localStorage.setItem(`tukio-checkin-event:${OWNER}:${EVENT_ID}`, JSON.stringify({ ...details, title: `${details.title} (saved)` }));
  localStorage.setItem(`tukio-offline:gate-list:${EVENT_ID}`, JSON.stringify(gateList));
  online = false;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined); // keys without catalogs
  vi.mocked(getGateList).mockImplementation(async () => (online ? gateList : Promise.reject(unreachable())));
});

afterEach(() => {
  // No vitest globals: Testing Library's automatic unmount is not registered.
  cleanup();
  vi.restoreAllMocks();
});

describe('CheckInPage', () => {
  it('offline, opens from the saved details and saves a typed scan; back online, shows fresh details without the notice', async () => {
    const loadEvent = vi.fn(async () => (online ? details : Promise.reject(unreachable())));
    render(
      <MemoryRouter>
        <CheckInPage eventId={EVENT_ID} userId={OWNER} loadEvent={loadEvent} />
      </MemoryRouter>,
      { wrapper: queryWrapper() },
    );

    await screen.findByRole('heading', { level: 1, name: `${details.title} (saved)` });
    expect(screen.getByText('Using saved event details.')).toBeTruthy();
    expect(screen.getByText('Offline')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Ticket code'), { target: { value: 'TK1.amani' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check in' }));
    await screen.findByText('Saved offline');
    expect(screen.getByText('Offline check: genuine ticket for this event.')).toBeTruthy();

    online = true;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await screen.findByRole('heading', { level: 1, name: details.title });
    await waitFor(() => expect(screen.queryByText('Using saved event details.')).toBeNull());
    expect(screen.getByText('Online')).toBeTruthy();
  });
});
