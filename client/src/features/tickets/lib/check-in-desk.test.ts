import { describe, expect, it } from 'vitest';
import type { GateList, GateTicket, SyncedScan } from '../api/tickets-api';
import {
  checkInAnswerFromError,
  checkInDeskReducer,
  deskAllowed,
  eventDetails,
  initCheckInDesk,
  MAX_RESULTS,
  usingSavedEvent,
  type CheckInDeskAction,
  type CheckInDeskState,
  type CheckInEventDetails,
} from './check-in-desk';
import { scanOutcomeText } from './check-in-desk-text';
import { formatSeriesDate } from '../../../lib/format';
import { loadCatalogsForTests, switchLanguageForTests } from '../../../lib/i18n/catalogs-for-tests';

const EVENT_ID = 'e'.repeat(24);
const AT = '2026-11-29T18:00:00.000Z';

const ticket = (ticketId: string, username: string, extra: Partial<GateTicket> = {}): GateTicket =>
  ({ ticketId, username, email: `${username}@example.com`, checkedInAt: null, checkedInDevice: null, voidedAt: null, voidReason: null, ...extra }) as GateTicket;

const gateList: GateList = {
  eventId: EVENT_ID,
  generatedAt: AT,
  publicKey: { algorithm: 'Ed25519', jwk: { kty: 'OKP', crv: 'Ed25519', x: 'x' } },
  tickets: [
    ticket('t-alice', 'alice'),
    ticket('t-given', 'baraka', { voidReason: 'transferred', voidedAt: AT }),
    ticket('t-inside', 'chebet', { checkedInAt: AT, checkedInDevice: 'Gate A' }),
  ],
  flagged: [],
};

const saved: CheckInEventDetails = { title: 'Lamu Dhow Race (saved)', date: '2026-12-05T10:00', user: 'owner' };
const fresh: CheckInEventDetails = { title: 'Lamu Dhow Race', date: '2026-12-05T10:00', user: 'owner' };

function desk(overrides: Partial<Parameters<typeof initCheckInDesk>[0]> = {}): CheckInDeskState {
  return initCheckInDesk({ online: true, device: 'Gate B', savedEvent: saved, savedGateList: gateList, queue: [], ...overrides });
}

const run = (state: CheckInDeskState, ...actions: CheckInDeskAction[]) => actions.reduce(checkInDeskReducer, state);

/** A genuine code for this event naming `ticketId`, read and checked offline. */
const genuine = (code: string, ticketId: string): CheckInDeskAction[] => [
  { type: 'code-entered', code, at: AT },
  { type: 'scan-verified', code, verdict: { kind: 'valid', ticketId, eventId: EVENT_ID, forThisEvent: true } },
];

const requestError = (status: number | null, data: unknown = {}) =>
  Object.assign(new Error('request failed'), { isHttpError: true, response: status === null ? undefined : { status, data } });

describe('the check-in desk reducer', () => {
  describe('a scan online', () => {
    it('is checked offline, then sent; the accepted ticket is welcomed and marked inside', () => {
      const verifying = run(desk(), { type: 'code-entered', code: '  TK1.alice  ', at: AT });
      expect(verifying.scans).toEqual([{ step: 'verifying', code: 'TK1.alice', device: 'Gate B', scannedAt: AT }]);

      const sending = run(verifying, genuine('TK1.alice', 't-alice')[1]!);
      expect(sending.scans).toMatchObject([{ step: 'sending', code: 'TK1.alice', ticketId: 't-alice', offline: 'genuine' }]);
      expect(sending.results).toEqual([]);

      const done = run(sending, { type: 'scan-answered', code: 'TK1.alice', answer: { kind: 'accepted', ticketId: 't-alice', checkedInAt: AT } });
      expect(done.scans).toEqual([]);
      expect(done.results).toEqual([{ id: 1, code: 'TK1.alice', outcome: { kind: 'checked-in', who: 'alice' }, offline: 'genuine' }]);
      expect(done.gate.list?.tickets.find((t) => t.ticketId === 't-alice')).toMatchObject({ checkedInAt: AT, checkedInDevice: 'Gate B' });
      expect(done.queue).toEqual([]);
    });

    it('shows a refusal (already used at another gate) and marks the ticket with where it went in', () => {
      const state = run(desk(), ...genuine('TK1.alice', 't-alice'), {
        type: 'scan-answered',
        code: 'TK1.alice',
        answer: { kind: 'already-used', checkedInAt: AT, device: 'Gate A', message: 'Ticket already used' },
      });
      expect(state.results[0]?.outcome).toEqual({ kind: 'already-used', when: AT, where: 'Gate A', who: 'alice', message: 'Ticket already used' });
      expect(state.gate.list?.tickets[0]).toMatchObject({ checkedInAt: AT, checkedInDevice: 'Gate A' });
    });

    it('refuses a void ticket and a code that is not valid as the server says', () => {
      const voided = run(desk(), ...genuine('TK1.given', 't-given'), { type: 'scan-answered', code: 'TK1.given', answer: { kind: 'void', message: 'It was transferred.' } });
      expect(voided.results[0]?.outcome).toEqual({ kind: 'void', message: 'It was transferred.' });
      const invalid = run(desk(), ...genuine('TK1.x', 't-x'), { type: 'scan-answered', code: 'TK1.x', answer: { kind: 'not-valid', message: null } });
      expect(invalid.results[0]?.outcome).toEqual({ kind: 'not-valid', message: null });
      expect(invalid.queue).toEqual([]);
    });

    it('answers a forged code and another event\'s ticket without asking the server', () => {
      const forged = run(desk(), { type: 'code-entered', code: 'TK1.forged', at: AT }, { type: 'scan-verified', code: 'TK1.forged', verdict: { kind: 'invalid' } });
      expect(forged.scans).toEqual([]);
      expect(forged.results[0]).toMatchObject({ outcome: { kind: 'not-valid', message: null }, offline: 'invalid' });
      const other = run(desk(), { type: 'code-entered', code: 'TK1.other', at: AT }, {
        type: 'scan-verified',
        code: 'TK1.other',
        verdict: { kind: 'valid', ticketId: 't-9', eventId: 'f'.repeat(24), forThisEvent: false },
      });
      expect(other.scans).toEqual([]);
      expect(other.results[0]).toMatchObject({ outcome: { kind: 'wrong-event' }, offline: 'other-event' });
    });

    it('queues the scan when the server cannot be reached', () => {
      const state = run(desk(), ...genuine('TK1.alice', 't-alice'), { type: 'scan-answered', code: 'TK1.alice', answer: { kind: 'unreachable' } });
      expect(state.queue).toEqual([{ code: 'TK1.alice', ticketId: 't-alice', scannedAt: AT, device: 'Gate B' }]);
      expect(state.results[0]?.outcome).toEqual({ kind: 'saved-offline', holder: 'alice' });
    });
  });

  describe('a scan offline', () => {
    const offline = () => desk({ online: false });

    it('is queued at once with its holder from the saved gate list', () => {
      const state = run(offline(), ...genuine('TK1.alice', 't-alice'));
      expect(state.scans).toEqual([]);
      expect(state.queue).toEqual([{ code: 'TK1.alice', ticketId: 't-alice', scannedAt: AT, device: 'Gate B' }]);
      expect(state.results[0]).toMatchObject({ outcome: { kind: 'saved-offline', holder: 'alice' }, offline: 'genuine' });
    });

    it('queues a ticket the saved list does not know, for the server to decide', () => {
      const state = run(offline(), ...genuine('TK1.new', 't-new'));
      expect(state.queue).toHaveLength(1);
      expect(state.results[0]?.outcome).toEqual({ kind: 'saved-offline', holder: null });
    });

    it('refuses a void ticket and one already inside from the saved gate list, queueing neither', () => {
      const state = run(offline(), ...genuine('TK1.given', 't-given'), ...genuine('TK1.inside', 't-inside'));
      expect(state.queue).toEqual([]);
      expect(state.results.map((result) => result.outcome)).toEqual([
        { kind: 'already-inside-offline', first: { device: 'Gate A', scannedAt: AT }, username: 'chebet' },
        { kind: 'void-offline', reason: 'transferred' },
      ]);
    });

    it('says a code scanned twice is already waiting, and queues it once', () => {
      const once = run(offline(), ...genuine('TK1.alice', 't-alice'));
      const twice = run(once, { type: 'code-entered', code: 'TK1.alice', at: '2026-11-29T18:05:00.000Z' }, genuine('TK1.alice', 't-alice')[1]!);
      expect(twice.queue).toEqual(once.queue);
      expect(twice.results[0]?.outcome).toEqual({ kind: 'already-scanned', scannedAt: AT });
    });

    it('on a series keeps the date each scan was made for, and queues a pass again for another date', () => {
      const saturday = run(offline(), { type: 'date-picked', dateId: 'd-sat' }, ...genuine('TK1.alice', 't-alice'));
      // The staff move the door to Sunday before syncing: Saturday's scan still goes as Saturday's.
      const sunday = run(saturday, { type: 'date-picked', dateId: 'd-sun' }, ...genuine('TK1.alice', 't-alice'));
      expect(sunday.dateId).toBe('d-sun');
      expect(sunday.queue).toEqual([
        { code: 'TK1.alice', ticketId: 't-alice', scannedAt: AT, device: 'Gate B', dateId: 'd-sat' },
        { code: 'TK1.alice', ticketId: 't-alice', scannedAt: AT, device: 'Gate B', dateId: 'd-sun' },
      ]);
      // The same date twice is the same scan.
      const again = run(sunday, ...genuine('TK1.alice', 't-alice'));
      expect(again.queue).toEqual(sunday.queue);
      expect(again.results[0]?.outcome).toEqual({ kind: 'already-scanned', scannedAt: AT });
    });
  });

  describe('a scan offline on an event series', () => {
    const SAT = '2026-12-05T18:00:00.000Z';
    const SUN = '2026-12-06T18:00:00.000Z';
    const seriesEvent: CheckInEventDetails = {
      ...saved,
      dates: [
        { _id: 'd-sat', startsAt: SAT, status: 'active' },
        { _id: 'd-sun', startsAt: SUN, status: 'active' },
      ],
    };
    // The gate list of a series gives every ticket its date (null: a pass) and its admissions per date.
    const seriesList: GateList = {
      ...gateList,
      tickets: [
        ticket('t-sat', 'amani', { dateId: 'd-sat', dateCheckins: [] }),
        ticket('t-pass', 'baraka', { dateId: null, checkedInAt: AT, checkedInDevice: 'Gate A', dateCheckins: [{ dateId: 'd-sat', checkedInAt: AT, device: 'Gate A' }] }),
        ticket('t-pass2', 'chebet', { dateId: null, dateCheckins: [] }),
      ],
    };
    const seriesDesk = (dateId: string) => run(desk({ online: false, savedEvent: seriesEvent, savedGateList: seriesList }), { type: 'event-failed', reason: 'unreachable', message: null }, { type: 'date-picked', dateId });

    it('refuses a one-date ticket on another date, naming its date, and queues nothing', () => {
      const state = run(seriesDesk('d-sun'), ...genuine('TK1.sat', 't-sat'));
      expect(state.queue).toEqual([]);
      expect(state.results[0]?.outcome).toEqual({ kind: 'wrong-date-offline', date: SAT });
      // On its own date it is valid.
      const own = run(seriesDesk('d-sat'), ...genuine('TK1.sat', 't-sat'));
      expect(own.results[0]?.outcome).toEqual({ kind: 'saved-offline', holder: 'amani' });
      expect(own.queue).toEqual([{ code: 'TK1.sat', ticketId: 't-sat', scannedAt: AT, device: 'Gate B', dateId: 'd-sat' }]);
    });

    it('admits a pass once on each date: inside on the date it was admitted, valid on another', () => {
      const saturday = run(seriesDesk('d-sat'), ...genuine('TK1.pass', 't-pass'));
      expect(saturday.queue).toEqual([]);
      expect(saturday.results[0]?.outcome).toEqual({ kind: 'already-inside-offline', first: { device: 'Gate A', scannedAt: AT }, username: 'baraka' });
      const sunday = run(seriesDesk('d-sun'), ...genuine('TK1.pass', 't-pass'));
      expect(sunday.results[0]?.outcome).toEqual({ kind: 'saved-offline', holder: 'baraka' });
      expect(sunday.queue).toEqual([{ code: 'TK1.pass', ticketId: 't-pass', scannedAt: AT, device: 'Gate B', dateId: 'd-sun' }]);
    });

    it('marks an online admission on its date only: the pass is then inside on that date and still valid on the other', () => {
      const online = run(seriesDesk('d-sat'), { type: 'connection-changed', online: true }, ...genuine('TK1.pass2', 't-pass2'), {
        type: 'scan-answered',
        code: 'TK1.pass2',
        answer: { kind: 'accepted', ticketId: 't-pass2', checkedInAt: AT },
      });
      expect(online.gate.list?.tickets.find((item) => item.ticketId === 't-pass2')?.dateCheckins).toEqual([{ dateId: 'd-sat', checkedInAt: AT, device: 'Gate B' }]);
      const offlineAgain = run(online, { type: 'connection-changed', online: false }, ...genuine('TK1.pass2', 't-pass2'));
      expect(offlineAgain.results[0]?.outcome).toMatchObject({ kind: 'already-inside-offline', username: 'chebet' });
      const otherDay = run(offlineAgain, { type: 'date-picked', dateId: 'd-sun' }, ...genuine('TK1.pass2', 't-pass2'));
      expect(otherDay.results[0]?.outcome).toEqual({ kind: 'saved-offline', holder: 'chebet' });
    });

    it('asks for the date when none is picked', () => {
      const state = run(seriesDesk(''), ...genuine('TK1.pass2', 't-pass2'));
      expect(state.queue).toEqual([]);
      expect(state.results[0]?.outcome).toEqual({ kind: 'date-required' });
    });

    it('words a wrong date in English and Kiswahili', async () => {
      await loadCatalogsForTests('tickets');
      await switchLanguageForTests('en');
      const en = scanOutcomeText({ kind: 'wrong-date-offline', date: SAT });
      expect(en).toMatchObject({ tone: 'error', title: 'Wrong date' });
      expect(en.detail).toMatch(/^This ticket is for .+, not for this date\.$/);
      expect(en.detail).toContain(formatSeriesDate(SAT));
      expect(scanOutcomeText({ kind: 'wrong-date-offline', date: null }).detail).toBe('This ticket is for another date, not for this one.');
      await switchLanguageForTests('sw');
      try {
        const sw = scanOutcomeText({ kind: 'wrong-date-offline', date: SAT });
        expect(sw).toMatchObject({ tone: 'error', title: 'Tarehe si sahihi' });
        expect(sw.detail).toMatch(/^Tiketi hii ni ya .+, si ya tarehe hii\.$/);
        expect(sw.detail).toContain(formatSeriesDate(SAT));
      } finally {
        await switchLanguageForTests('en');
      }
    });
  });

  it('checks a code once while it is being checked (the camera reads it again meanwhile)', () => {
    const state = run(desk(), { type: 'code-entered', code: 'TK1.alice', at: AT }, { type: 'code-entered', code: 'TK1.alice', at: AT });
    expect(state.scans).toHaveLength(1);
    expect(run(desk(), { type: 'code-entered', code: '   ', at: AT }).scans).toEqual([]);
  });

  it('keeps the newest results only', () => {
    let state = desk({ online: false });
    for (let i = 0; i < MAX_RESULTS + 2; i += 1) state = run(state, ...genuine(`TK1.n${i}`, `t-n${i}`));
    expect(state.results).toHaveLength(MAX_RESULTS);
    expect(state.results[0]?.code).toBe(`TK1.n${MAX_RESULTS + 1}`);
    expect(state.queue).toHaveLength(MAX_RESULTS + 2);
  });

  describe('syncing', () => {
    const queued = [
      { code: 'TK1.alice', ticketId: 't-alice', scannedAt: AT, device: 'Gate B' },
      { code: 'TK1.dup', ticketId: 't-inside', scannedAt: AT },
      { code: 'TK1.given', ticketId: 't-given', scannedAt: AT, device: 'Gate B' },
    ];

    it('starts when the connection returns, with this device named on old scans, and only once', () => {
      const back = run(desk({ online: false, queue: queued }), { type: 'connection-changed', online: true });
      expect(back.online).toBe(true);
      expect(back.syncing?.map((item) => item.device)).toEqual(['Gate B', 'Gate B', 'Gate B']);
      expect(run(back, { type: 'sync-requested' }).syncing).toBe(back.syncing);
    });

    it('does not start offline or with nothing queued', () => {
      expect(run(desk({ online: false, queue: queued }), { type: 'sync-requested' }).syncing).toBeNull();
      expect(run(desk(), { type: 'sync-requested' }).syncing).toBeNull();
    });

    it('merges the answers: accepted, duplicate flagged and void refused leave the queue and are shown', () => {
      const results: SyncedScan[] = [
        { ticketCode: 'TK1.alice', scannedAt: AT, device: 'Gate B', status: 'accepted', ticketId: 't-alice', checkedInAt: AT },
        { ticketCode: 'TK1.dup', scannedAt: AT, device: 'Gate B', status: 'duplicate', ticketId: 't-inside', first: { device: 'Gate A', scannedAt: AT }, message: 'Already checked in' },
        { ticketCode: 'TK1.given', scannedAt: AT, device: 'Gate B', status: 'void', ticketId: 't-given', voidReason: 'transferred', voidedAt: AT, message: 'Transferred' },
      ];
      const syncing = run(desk({ queue: queued }), { type: 'sync-requested' });
      const merged = run(syncing, { type: 'sync-answered', results });
      expect(merged.queue).toEqual([]);
      expect(merged.results.map((result) => [result.code, result.outcome])).toEqual([
        ['TK1.given', { kind: 'synced', scan: results[2], who: 'baraka' }],
        ['TK1.dup', { kind: 'synced', scan: results[1], who: 'chebet' }],
        ['TK1.alice', { kind: 'synced', scan: results[0], who: 'alice' }],
      ]);
      expect(merged.syncing).not.toBeNull();

      const finished = run(merged, { type: 'sync-finished' });
      expect(finished.syncing).toBeNull();
      // The gate list is downloaded again, so this device learns what other gates synced.
      expect(finished.gate.request).toBe(merged.gate.request + 1);
    });

    it('keeps unanswered scans; a refusal is shown', () => {
      const refused = run(desk({ queue: queued }), { type: 'sync-requested' }, { type: 'sync-finished', refusal: { message: 'Only the organiser can sync scans.' } });
      expect(refused.queue).toEqual(queued);
      expect(refused.syncing).toBeNull();
      expect(refused.results[0]?.outcome).toEqual({ kind: 'sync-refused', message: 'Only the organiser can sync scans.' });
      const unreachable = run(desk({ queue: queued }), { type: 'sync-requested' }, { type: 'sync-finished' });
      expect(unreachable.queue).toEqual(queued);
      expect(unreachable.results).toEqual([]);
    });

    it('keeps a scan queued during a sync for the next one', () => {
      const state = run(desk({ queue: queued.slice(0, 1) }), { type: 'sync-requested' }, { type: 'connection-changed', online: false }, ...genuine('TK1.new', 't-new'));
      const after = run(state, { type: 'sync-answered', results: [{ ticketCode: 'TK1.alice', scannedAt: AT, device: 'Gate B', status: 'accepted', ticketId: 't-alice', checkedInAt: AT }] });
      expect(after.queue.map((item) => item.code)).toEqual(['TK1.new']);
    });
  });

  describe('the event details', () => {
    it('are the saved copy when the server cannot be reached, and fresh once the connection returns', () => {
      const offline = run(desk({ online: false }), { type: 'event-failed', reason: 'unreachable', message: null });
      expect(usingSavedEvent(offline)).toBe(true);
      expect(eventDetails(offline)).toEqual(saved);

      const back = run(offline, { type: 'connection-changed', online: true });
      // Asked again, with the saved copy (and the desk) shown meanwhile.
      expect(back.eventRequest).toBe(offline.eventRequest + 1);
      expect(eventDetails(back)).toEqual(saved);

      const loaded = run(back, { type: 'event-loaded', details: fresh });
      expect(usingSavedEvent(loaded)).toBe(false);
      expect(eventDetails(loaded)).toEqual(fresh);
    });

    it('stay saved when asking again fails, and are not asked again when they were fresh', () => {
      const offline = run(desk({ online: false }), { type: 'event-failed', reason: 'unreachable', message: null });
      const stillDown = run(offline, { type: 'connection-changed', online: true }, { type: 'event-failed', reason: 'unreachable', message: null });
      expect(usingSavedEvent(stillDown)).toBe(true);

      const freshDesk = run(desk(), { type: 'event-loaded', details: fresh }, { type: 'connection-changed', online: false });
      expect(run(freshDesk, { type: 'connection-changed', online: true }).eventRequest).toBe(freshDesk.eventRequest);
    });

    it('fail without a saved copy, or when the event is gone', () => {
      const none = run(desk({ savedEvent: null }), { type: 'event-failed', reason: 'unreachable', message: null });
      expect(none.event).toEqual({ kind: 'failed', notFound: false, message: null });
      const gone = run(desk(), { type: 'event-failed', reason: 'not-found', message: null });
      expect(gone.event).toEqual({ kind: 'failed', notFound: true, message: null });
      expect(run(gone, { type: 'event-requested' }).event).toEqual({ kind: 'loading' });
    });

    it('keep a device that opened from its saved copy allowed while an admin\'s role is asked again', () => {
      const offline = run(desk({ online: false }), { type: 'event-failed', reason: 'unreachable', message: null });
      expect(deskAllowed(offline, 'denied')).toBe(true);
      const back = run(offline, { type: 'connection-changed', online: true }, { type: 'event-loaded', details: fresh });
      expect(deskAllowed(back, 'checking')).toBe(true);
      expect(deskAllowed(back, 'denied')).toBe(false);
      expect(deskAllowed(run(desk(), { type: 'event-loaded', details: fresh }), 'checking')).toBe(false);
    });
  });

  describe('the camera scanner', () => {
    const scanning = () => run(desk(), { type: 'camera-toggled' }, { type: 'camera-started' });

    it('starts, scans, fails with a reason, and turns off', () => {
      expect(run(desk(), { type: 'camera-toggled' }).scanner).toEqual({ kind: 'starting' });
      expect(scanning().scanner).toEqual({ kind: 'scanning', last: null });
      expect(run(desk(), { type: 'camera-toggled' }, { type: 'camera-failed', problem: 'refused' }).scanner).toEqual({ kind: 'failed', problem: 'refused' });
      expect(run(scanning(), { type: 'camera-toggled' }).scanner).toEqual({ kind: 'off' });
      // A report from a camera already switched off changes nothing.
      expect(run(desk(), { type: 'camera-failed', problem: 'in-use' }).scanner).toEqual({ kind: 'off' });
    });

    it('takes a QR held up once, another code after a short pause, the same code again only after a longer one', () => {
      const first = run(scanning(), { type: 'code-seen', code: 'TK1.a', now: 10_000, at: AT });
      expect(first.scans.map((scan) => scan.code)).toEqual(['TK1.a']);
      const settled = run(first, { type: 'scan-verified', code: 'TK1.a', verdict: { kind: 'invalid' } });

      expect(run(settled, { type: 'code-seen', code: 'TK1.a', now: 13_000, at: AT }).scans).toEqual([]);
      expect(run(settled, { type: 'code-seen', code: 'TK1.b', now: 10_500, at: AT }).scans).toEqual([]);
      expect(run(settled, { type: 'code-seen', code: 'TK1.b', now: 11_500, at: AT }).scans.map((scan) => scan.code)).toEqual(['TK1.b']);
      expect(run(settled, { type: 'code-seen', code: 'TK1.a', now: 14_500, at: AT }).scans.map((scan) => scan.code)).toEqual(['TK1.a']);
    });
  });
});

describe('checkInAnswerFromError', () => {
  it('reads the server\'s refusals and treats no answer or a server error as unreachable', () => {
    expect(checkInAnswerFromError(requestError(null))).toEqual({ kind: 'unreachable' });
    expect(checkInAnswerFromError(requestError(503))).toEqual({ kind: 'unreachable' });
    expect(checkInAnswerFromError(new Error('boom'))).toEqual({ kind: 'unreachable' });
    expect(checkInAnswerFromError(requestError(409, { msg: 'Already used', checkedInAt: AT, checkedInDevice: 'Gate A' }))).toEqual({
      kind: 'already-used',
      checkedInAt: AT,
      device: 'Gate A',
      message: 'Already used',
    });
    expect(checkInAnswerFromError(requestError(409, { msg: 'Void', voidReason: 'transferred' }))).toEqual({ kind: 'void', message: 'Void' });
    expect(checkInAnswerFromError(requestError(400, { msg: 'This event was cancelled' }))).toEqual({ kind: 'void', message: 'This event was cancelled' });
    expect(checkInAnswerFromError(requestError(400, { msg: 'Invalid ticket' }))).toEqual({ kind: 'not-valid', message: 'Invalid ticket' });
  });
});
