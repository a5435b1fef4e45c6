import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GateList } from '../api/tickets-api';
import { checkInTicket, getGateList, syncScans } from '../api/tickets-api';
import { eventDetails, pendingCount, usingSavedEvent } from '../lib/check-in-desk';
import { queryWrapper } from '../../../test-query-client';
import { useCheckInDesk } from './use-check-in-desk';

vi.mock('../api/tickets-api', () => ({
  getGateList: vi.fn(),
  checkInTicket: vi.fn(),
  syncScans: vi.fn(),
  getRole: vi.fn(async () => null),
}));
vi.mock('../lib/ticket-code', () => ({
  loadVerificationKey: vi.fn(async () => null),
  rememberVerificationKey: vi.fn(),
  // Every code names the ticket after its last part ("TK1.alice" → "t-alice"), for this event.
  verifyTicketOffline: vi.fn(async (code: string) => ({ kind: 'valid', ticketId: `t-${code.split('.').pop()}`, eventId: EVENT_ID, forThisEvent: true })),
}));

const EVENT_ID = 'a'.repeat(24);
const OWNER = 'u'.repeat(24);
const AT = '2026-11-29T18:00:00.000Z';
const savedDetails = { title: 'Malindi Kite Festival', date: '2026-12-05T10:00', user: OWNER };
const freshDetails = { ...savedDetails, title: 'Malindi Kite Festival (new venue)' };
const gateList: GateList = {
  eventId: EVENT_ID,
  generatedAt: AT,
  publicKey: { algorithm: 'Ed25519', jwk: { kty: 'OKP', crv: 'Ed25519', x: 'x' } },
  tickets: [{ ticketId: 't-alice', username: 'alice', email: 'alice@example.com', checkedInAt: null, checkedInDevice: null, voidedAt: null, voidReason: null } as GateList['tickets'][number]],
  flagged: [],
};
const unreachable = () => Object.assign(new Error('Network Error'), { isHttpError: true });
const queueKey = `tukio-checkin-queue:${EVENT_ID}`;

let online = false;

beforeEach(() => {
  // The module mocks' calls from an earlier test must not count in this one.
  vi.clearAllMocks();
  localStorage.clear();
  localStorage.setItem('tukio-gate-device', JSON.stringify('Gate C'));
  localStorage.setItem(`tukio-checkin-event:${OWNER}:${EVENT_ID}`, JSON.stringify(savedDetails));
  localStorage.setItem(`tukio-offline:gate-list:${EVENT_ID}`, JSON.stringify(gateList));
  online = false;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  vi.mocked(getGateList).mockImplementation(async () => (online ? gateList : Promise.reject(unreachable())));
  vi.mocked(checkInTicket).mockRejectedValue(unreachable());
});

afterEach(() => {
  // No vitest globals: Testing Library's automatic unmount is not registered.
  cleanup();
  vi.restoreAllMocks();
  vi.mocked(syncScans).mockReset();
});

describe('useCheckInDesk', () => {
  it('opens offline from the saved details, queues a scan in storage, and once back online shows fresh details and syncs the scan', async () => {
    const loadEvent = vi.fn(async () => (online ? freshDetails : Promise.reject(unreachable())));
    const { result } = renderHook(() => useCheckInDesk(EVENT_ID, OWNER, loadEvent), { wrapper: queryWrapper() });

    await waitFor(() => expect(usingSavedEvent(result.current.state)).toBe(true));
    expect(eventDetails(result.current.state)).toEqual(savedDetails);
    expect(result.current.allowed).toBe(true);

    act(() => result.current.enterCode('TK1.alice'));
    await waitFor(() => expect(pendingCount(result.current.state)).toBe(1));
    expect(result.current.state.results[0]?.outcome).toEqual({ kind: 'saved-offline', holder: 'alice' });
    expect(JSON.parse(localStorage.getItem(queueKey) ?? '[]')).toMatchObject([{ code: 'TK1.alice', ticketId: 't-alice', device: 'Gate C' }]);
    expect(checkInTicket).not.toHaveBeenCalled();

    vi.mocked(syncScans).mockImplementation(async (_eventId, scans) => ({
      results: scans.map((scan) => ({ ...scan, status: 'accepted' as const, ticketId: 't-alice', checkedInAt: AT })),
    }));
    online = true;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });

    // Fresh details replace the saved copy without a reload, and the notice goes.
    await waitFor(() => expect(eventDetails(result.current.state)).toEqual(freshDetails));
    expect(usingSavedEvent(result.current.state)).toBe(false);
    expect(loadEvent).toHaveBeenCalledTimes(2);

    await waitFor(() => expect(result.current.state.results[0]?.outcome).toMatchObject({ kind: 'synced', scan: { status: 'accepted' }, who: 'alice' }));
    expect(syncScans).toHaveBeenCalledWith(EVENT_ID, [{ ticketCode: 'TK1.alice', scannedAt: expect.any(String), device: 'Gate C' }]);
    expect(pendingCount(result.current.state)).toBe(0);
    expect(localStorage.getItem(queueKey)).toBeNull();
    // After the sync the gate list is downloaded again.
    await waitFor(() => expect(result.current.state.gate.fresh).toBe(true));
    await waitFor(() => expect(result.current.state.syncing).toBeNull());
  });

  it('online, sends a scan to the server and shows who came in', async () => {
    online = true;
    vi.mocked(checkInTicket).mockResolvedValue({ message: 'ok', ticket: { _id: 't-alice', userId: 'x', checkedInAt: AT } });
    const { result } = renderHook(() => useCheckInDesk(EVENT_ID, OWNER, async () => freshDetails), { wrapper: queryWrapper() });
    await waitFor(() => expect(result.current.state.gate.fresh).toBe(true));

    act(() => result.current.enterCode('TK1.alice'));
    await waitFor(() => expect(result.current.state.results[0]?.outcome).toEqual({ kind: 'checked-in', who: 'alice' }));
    // An event with one date: no date named.
    expect(checkInTicket).toHaveBeenCalledWith(EVENT_ID, 'TK1.alice', 'Gate C', undefined);
    expect(pendingCount(result.current.state)).toBe(0);
    expect(usingSavedEvent(result.current.state)).toBe(false);
    // Fresh details of the organiser's event are saved for an offline visit.
    expect(JSON.parse(localStorage.getItem(`tukio-checkin-event:${OWNER}:${EVENT_ID}`) ?? 'null')).toMatchObject({ title: freshDetails.title });
  });
});
