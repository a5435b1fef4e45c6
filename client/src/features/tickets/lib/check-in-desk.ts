/*
 * The door check-in desk as one state machine: the event's details (fresh from the server or the copy
 * saved on the device), the gate list, the camera scanner, every scan from the moment it is read until
 * the desk has an answer, the queue of scans made offline and their sync. `checkInDeskReducer` is pure:
 * the decisions (refuse a void ticket offline, queue a scan, merge what a sync answered) are made here
 * and tested as plain function calls; use-check-in-desk.ts only runs the effects (camera, requests,
 * storage, online/offline events) and dispatches what they report. Results hold what happened, not
 * sentences: check-in-desk-text.ts words them in the reader's language when they are shown.
 */
import type { FlaggedScan, GateList, GateTicket, SyncedScan, VoidReason } from '../api/tickets-api';
import type { QueuedScan } from './checkin-queue';
import type { OfflineVerdict } from './ticket-code';
import { getErrorStatus, getServerMessage, isRequestError } from '../../../lib/errors';

/** The event as the desk shows it; also the copy saved on the device for offline visits. */
export interface CheckInEventDetails {
  title: string;
  date: string;
  user: string;
  /** The event was cancelled: every ticket is void (absent in copies saved before). */
  status?: string;
  /** An event series' dates (docs/decisions/event-series.md): the door admits for one of them. */
  dates?: Array<{ _id: string; startsAt: string; status: string }>;
}

export type EventDetailsState =
  | { kind: 'loading' }
  /** From the server. `trusted`: shown from the device's saved copy earlier in this visit (this device was allowed before). */
  | { kind: 'fresh'; details: CheckInEventDetails; trusted: boolean }
  /** The server could not be reached: the copy saved on the device, asked again when the connection returns. */
  | { kind: 'saved'; details: CheckInEventDetails }
  | { kind: 'failed'; notFound: boolean; message: string | null };

/** What the offline signature check said about a code. */
export type OfflineCheck = 'genuine' | 'other-event' | 'invalid' | 'unavailable';

/** What happened to one scan (or one sync), in words later. */
export type ScanOutcome =
  | { kind: 'checked-in'; who: string | null }
  /** The server refused a void ticket; its message says why. */
  | { kind: 'void'; message: string | null }
  /** The saved gate list refused a void ticket offline. */
  | { kind: 'void-offline'; reason: VoidReason }
  | { kind: 'already-used'; when: string | null; where: string | null; who: string | null; message: string | null }
  /** The saved gate list knows the ticket is already in. */
  | { kind: 'already-inside-offline'; first: { device: string | null; scannedAt: string }; username: string }
  /** On a series the saved gate list knows the ticket admits on another date (`date`: its start, null if not known). */
  | { kind: 'wrong-date-offline'; date: string | null }
  /** On a series no date was picked: the desk cannot tell which admission this is. */
  | { kind: 'date-required' }
  /** This device scanned the code offline already; it waits to sync. */
  | { kind: 'already-scanned'; scannedAt: string }
  | { kind: 'saved-offline'; holder: string | null }
  | { kind: 'not-valid'; message: string | null }
  | { kind: 'wrong-event' }
  | { kind: 'synced'; scan: SyncedScan; who: string | null }
  | { kind: 'sync-refused'; message: string | null };

export interface ScanResult {
  id: number;
  code: string;
  outcome: ScanOutcome;
  offline?: OfflineCheck;
}

/** A scan the desk has no answer for yet: its signature is being checked, or the server asked. */
export type ScanInProgress =
  | { step: 'verifying'; code: string; device: string; scannedAt: string; dateId?: string }
  | { step: 'sending'; code: string; device: string; scannedAt: string; dateId?: string; ticketId?: string; offline: OfflineCheck };

export type CameraProblem = 'needs-https' | 'refused' | 'no-camera' | 'in-use' | 'failed';

/** The camera scanner; `last` is the code it last reported and when, so one QR held up is read once. */
export type ScannerState =
  | { kind: 'off' }
  | { kind: 'starting' }
  | { kind: 'scanning'; last: { code: string; at: number } | null }
  | { kind: 'failed'; problem: CameraProblem };

export interface GateListState {
  list: GateList | null;
  /** Downloaded on this visit (false: the copy saved on the device, or the last download failed). */
  fresh: boolean;
  loading: boolean;
  error: unknown;
  /** Bumped to ask for a new download. */
  request: number;
}

export interface CheckInDeskState {
  online: boolean;
  device: string;
  /** On an event series: the date the door admits for ('' until the staff pick one); each scan keeps the date it was made for. */
  dateId: string;
  event: EventDetailsState;
  /** The copy of the event saved on the device, if any. */
  savedEvent: CheckInEventDetails | null;
  /** Bumped to ask the server for the event's details again. */
  eventRequest: number;
  gate: GateListState;
  /** Whether the public key is on the device (null: not known yet). */
  keyReady: boolean | null;
  scanner: ScannerState;
  scans: ScanInProgress[];
  /** Scans made offline, waiting for the server (kept in localStorage by the hook). */
  queue: QueuedScan[];
  /** The scans being sent by the sync under way, null when none is. */
  syncing: QueuedScan[] | null;
  /** Newest first, at most MAX_RESULTS. */
  results: ScanResult[];
  nextResultId: number;
}

/** What the server answered to one POST /checkin, as the desk needs it. */
export type CheckInAnswer =
  | { kind: 'accepted'; ticketId: string; checkedInAt: string }
  | { kind: 'void'; message: string | null }
  | { kind: 'already-used'; checkedInAt: string | null; device: string | null; message: string | null }
  | { kind: 'not-valid'; message: string | null }
  /** No answer (no connection, or a server error): the scan is decided offline and queued. */
  | { kind: 'unreachable' };

export type CheckInDeskAction =
  | { type: 'connection-changed'; online: boolean }
  | { type: 'event-requested' }
  | { type: 'event-loaded'; details: CheckInEventDetails }
  | { type: 'event-failed'; reason: 'unreachable' | 'not-found' | 'refused'; message: string | null }
  | { type: 'gate-list-requested' }
  | { type: 'gate-list-loaded'; list: GateList }
  | { type: 'gate-list-failed'; error: unknown }
  | { type: 'key-checked'; ready: boolean }
  | { type: 'device-renamed'; name: string }
  | { type: 'date-picked'; dateId: string }
  | { type: 'camera-toggled' }
  | { type: 'camera-started' }
  | { type: 'camera-failed'; problem: CameraProblem }
  /** The camera read a code at `now` (ms); it becomes a scan unless the same QR is still held up. */
  | { type: 'code-seen'; code: string; now: number; at: string }
  /** A code typed in. `at`: when, for the queue. */
  | { type: 'code-entered'; code: string; at: string }
  | { type: 'scan-verified'; code: string; verdict: OfflineVerdict }
  | { type: 'scan-answered'; code: string; answer: CheckInAnswer }
  | { type: 'sync-requested' }
  | { type: 'sync-answered'; results: SyncedScan[] }
  | { type: 'sync-finished'; refusal?: { message: string | null } };

export const MAX_RESULTS = 8;
/** The camera reports a code at most this often, and the same code again only after SAME_CODE_PAUSE_MS. */
export const ANY_CODE_PAUSE_MS = 1_200;
export const SAME_CODE_PAUSE_MS = 4_000;

export interface CheckInDeskStart {
  online: boolean;
  device: string;
  savedEvent: CheckInEventDetails | null;
  savedGateList: GateList | null;
  queue: QueuedScan[];
}

export function initCheckInDesk(start: CheckInDeskStart): CheckInDeskState {
  return {
    online: start.online,
    device: start.device,
    dateId: '',
    event: { kind: 'loading' },
    savedEvent: start.savedEvent,
    eventRequest: 0,
    gate: { list: start.savedGateList, fresh: false, loading: true, error: undefined, request: 0 },
    keyReady: null,
    scanner: { kind: 'off' },
    scans: [],
    queue: start.queue,
    syncing: null,
    results: [],
    nextResultId: 1,
  };
}

export function checkInDeskReducer(state: CheckInDeskState, action: CheckInDeskAction): CheckInDeskState {
  switch (action.type) {
    case 'connection-changed': {
      if (action.online === state.online) return state;
      if (!action.online) return { ...state, online: false };
      // Back online: the saved details are asked for again, and scans made offline are sent.
      const back = { ...state, online: true, eventRequest: state.event.kind === 'saved' ? state.eventRequest + 1 : state.eventRequest };
      return startSync(back);
    }
    case 'event-requested':
      return { ...state, event: state.event.kind === 'failed' ? { kind: 'loading' } : state.event, eventRequest: state.eventRequest + 1 };
    case 'event-loaded':
      return { ...state, event: { kind: 'fresh', details: action.details, trusted: state.event.kind === 'saved' || (state.event.kind === 'fresh' && state.event.trusted) } };
    case 'event-failed': {
      // What is shown stays while the server cannot be reached; the saved copy stands in when nothing is.
      if (action.reason === 'unreachable') {
        if (state.event.kind === 'fresh' || state.event.kind === 'saved') return state;
        if (state.savedEvent) return { ...state, event: { kind: 'saved', details: state.savedEvent } };
      }
      return { ...state, event: { kind: 'failed', notFound: action.reason === 'not-found', message: action.message } };
    }
    case 'gate-list-requested':
      return { ...state, gate: { ...state.gate, loading: true, request: state.gate.request + 1 } };
    case 'gate-list-loaded':
      return { ...state, gate: { ...state.gate, list: action.list, fresh: true, loading: false, error: undefined } };
    case 'gate-list-failed':
      return { ...state, gate: { ...state.gate, fresh: false, loading: false, error: action.error } };
    case 'key-checked':
      return { ...state, keyReady: action.ready };
    case 'device-renamed':
      return { ...state, device: action.name };
    case 'date-picked':
      return { ...state, dateId: action.dateId };
    case 'camera-toggled':
      return { ...state, scanner: state.scanner.kind === 'off' ? { kind: 'starting' } : { kind: 'off' } };
    case 'camera-started':
      return state.scanner.kind === 'starting' ? { ...state, scanner: { kind: 'scanning', last: null } } : state;
    case 'camera-failed':
      return state.scanner.kind === 'off' ? state : { ...state, scanner: { kind: 'failed', problem: action.problem } };
    case 'code-seen': {
      const scanner = state.scanner;
      if (scanner.kind !== 'scanning') return state;
      const last = scanner.last;
      if (last && (action.now - last.at <= ANY_CODE_PAUSE_MS || (action.code === last.code && action.now - last.at <= SAME_CODE_PAUSE_MS))) return state;
      return startScan({ ...state, scanner: { kind: 'scanning', last: { code: action.code, at: action.now } } }, action.code, action.at);
    }
    case 'code-entered':
      return startScan(state, action.code, action.at);
    case 'scan-verified':
      return verified(state, action.code, action.verdict);
    case 'scan-answered':
      return answered(state, action.code, action.answer);
    case 'sync-requested':
      return startSync(state);
    case 'sync-answered':
      return mergeSynced(state, action.results);
    case 'sync-finished': {
      const finished = { ...state, syncing: null, gate: { ...state.gate, loading: true, request: state.gate.request + 1 } };
      // A refusal (e.g. no longer allowed) is shown and the scans kept; an unreachable server just leaves them waiting.
      return action.refusal ? addResult(finished, '', { kind: 'sync-refused', message: action.refusal.message }) : finished;
    }
  }
}

// ---- scans ----

/** A code being checked already is not checked twice at once. */
function startScan(state: CheckInDeskState, raw: string, at: string): CheckInDeskState {
  const code = raw.trim();
  if (!code || state.scans.some((scan) => scan.code === code)) return state;
  return { ...state, scans: [...state.scans, { step: 'verifying', code, device: state.device, scannedAt: at, ...(state.dateId ? { dateId: state.dateId } : {}) }] };
}

const offlineCheck = (verdict: OfflineVerdict): OfflineCheck =>
  verdict.kind === 'invalid' ? 'invalid' : verdict.kind === 'valid' ? (verdict.forThisEvent ? 'genuine' : 'other-event') : 'unavailable';

function verified(state: CheckInDeskState, code: string, verdict: OfflineVerdict): CheckInDeskState {
  const scan = state.scans.find((item) => item.code === code && item.step === 'verifying');
  if (!scan) return state;
  const offline = offlineCheck(verdict);
  if (verdict.kind === 'invalid') return finishScan(state, code, { kind: 'not-valid', message: null }, offline);
  if (verdict.forThisEvent === false) return finishScan(state, code, { kind: 'wrong-event' }, offline);
  const sending: ScanInProgress = { ...scan, step: 'sending', ticketId: verdict.ticketId, offline };
  if (!state.online) return decideOffline(state, sending);
  return { ...state, scans: state.scans.map((item) => (item === scan ? sending : item)) };
}

function answered(state: CheckInDeskState, code: string, answer: CheckInAnswer): CheckInDeskState {
  const scan = state.scans.find((item) => item.code === code && item.step === 'sending');
  if (!scan || scan.step !== 'sending') return state;
  const offline = scan.offline;
  switch (answer.kind) {
    case 'unreachable':
      return decideOffline(state, scan);
    case 'accepted': {
      const marked = markInside(state, answer.ticketId, answer.checkedInAt, scan.device, scan.dateId);
      return finishScan(marked, code, { kind: 'checked-in', who: nameOf(marked, answer.ticketId) }, offline);
    }
    case 'void':
      return finishScan(state, code, { kind: 'void', message: answer.message }, offline);
    case 'already-used': {
      const marked = answer.checkedInAt && scan.ticketId ? markInside(state, scan.ticketId, answer.checkedInAt, answer.device, scan.dateId) : state;
      const outcome: ScanOutcome = { kind: 'already-used', when: answer.checkedInAt, where: answer.device, who: nameOf(marked, scan.ticketId), message: answer.message };
      return finishScan(marked, code, outcome, offline);
    }
    case 'not-valid':
      return finishScan(state, code, { kind: 'not-valid', message: answer.message }, offline);
  }
}

/**
 * No connection: the saved gate list refuses what it can (void and already-used tickets, and on a
 * series a ticket for another date or one already admitted on this date), a code this device already
 * queued is said to be waiting, and anything else joins the queue for the server.
 */
function decideOffline(state: CheckInDeskState, scan: Extract<ScanInProgress, { step: 'sending' }>): CheckInDeskState {
  const known = findTicket(state, scan.ticketId);
  if (known?.voidReason) return finishScan(state, scan.code, { kind: 'void-offline', reason: known.voidReason }, scan.offline);
  const admitted = admissionOf(state, known, scan.dateId);
  if (admitted === 'date-required') return finishScan(state, scan.code, { kind: 'date-required' }, scan.offline);
  if (admitted?.kind === 'wrong-date') return finishScan(state, scan.code, { kind: 'wrong-date-offline', date: admitted.date }, scan.offline);
  if (admitted?.kind === 'inside') {
    const outcome: ScanOutcome = { kind: 'already-inside-offline', first: admitted.first, username: known!.username };
    return finishScan(state, scan.code, outcome, scan.offline);
  }
  // A pass scanned for another date of a series is another admission, not the same scan again.
  const waiting = state.queue.find((item) => item.code === scan.code && (item.dateId ?? '') === (scan.dateId ?? ''));
  if (waiting) return finishScan(state, scan.code, { kind: 'already-scanned', scannedAt: waiting.scannedAt }, scan.offline);
  const queued: QueuedScan = { code: scan.code, ticketId: scan.ticketId, scannedAt: scan.scannedAt, device: scan.device, ...(scan.dateId ? { dateId: scan.dateId } : {}) };
  return finishScan({ ...state, queue: [...state.queue, queued] }, scan.code, { kind: 'saved-offline', holder: known?.username ?? null }, scan.offline);
}

function finishScan(state: CheckInDeskState, code: string, outcome: ScanOutcome, offline: OfflineCheck): CheckInDeskState {
  return addResult({ ...state, scans: state.scans.filter((scan) => scan.code !== code) }, code, outcome, offline);
}

function addResult(state: CheckInDeskState, code: string, outcome: ScanOutcome, offline?: OfflineCheck): CheckInDeskState {
  const result: ScanResult = { id: state.nextResultId, code, outcome, ...(offline ? { offline } : {}) };
  return { ...state, results: [result, ...state.results].slice(0, MAX_RESULTS), nextResultId: state.nextResultId + 1 };
}

// ---- the gate list ----

const findTicket = (state: CheckInDeskState, ticketId: string | undefined): GateTicket | undefined =>
  ticketId ? state.gate.list?.tickets.find((ticket) => ticket.ticketId === ticketId) : undefined;

const nameOf = (state: CheckInDeskState, ticketId: string | undefined): string | null => findTicket(state, ticketId)?.username ?? null;

/**
 * What the saved gate list says about admitting `ticket` now. On a series (docs/decisions/event-series.md: the
 * list gives its tickets a `dateId`, null for a pass) the desk admits for `dateId`: a ticket for another date is
 * refused, and "already inside" means admitted on this date (a pass is admitted once on each). On an event with one
 * date: admitted at all. undefined: nothing against it.
 */
export function admissionOf(
  state: Pick<CheckInDeskState, 'event'>,
  ticket: GateTicket | undefined,
  dateId: string | undefined,
): { kind: 'inside'; first: { device: string | null; scannedAt: string } } | { kind: 'wrong-date'; date: string | null } | 'date-required' | undefined {
  if (!ticket) return undefined;
  const series = ticket.dateId !== undefined;
  if (!series) return ticket.checkedInAt ? { kind: 'inside', first: { device: ticket.checkedInDevice, scannedAt: ticket.checkedInAt } } : undefined;
  if (!dateId) return 'date-required';
  if (ticket.dateId && ticket.dateId !== dateId) {
    const own = state.event.kind === 'fresh' || state.event.kind === 'saved' ? state.event.details.dates?.find((date) => date._id === ticket.dateId) : undefined;
    return { kind: 'wrong-date', date: own?.startsAt ?? null };
  }
  // A list saved before it carried admissions per date: a day ticket's one admission is on its own date.
  const onDate = ticket.dateCheckins
    ? ticket.dateCheckins.find((admission) => admission.dateId === dateId)
    : ticket.dateId && ticket.checkedInAt
      ? { checkedInAt: ticket.checkedInAt, device: ticket.checkedInDevice }
      : undefined;
  return onDate ? { kind: 'inside', first: { device: onDate.device, scannedAt: onDate.checkedInAt } } : undefined;
}

/** A check-in this device just learned of (on a series, on `dateId`), shown in the list until the next download. */
function markInside(state: CheckInDeskState, ticketId: string, checkedInAt: string, device: string | null, dateId?: string): CheckInDeskState {
  const list = state.gate.list;
  if (!list) return state;
  const tickets = list.tickets.map((ticket) => {
    if (ticket.ticketId !== ticketId) return ticket;
    // The ticket's first admission stays what it was; the date's admission is added once.
    const first = ticket.checkedInAt ? { checkedInAt: ticket.checkedInAt, checkedInDevice: ticket.checkedInDevice } : { checkedInAt, checkedInDevice: device };
    if (ticket.dateId === undefined || !dateId) return { ...ticket, checkedInAt, checkedInDevice: device };
    const others = (ticket.dateCheckins ?? []).filter((admission) => admission.dateId !== dateId);
    return { ...ticket, ...first, dateCheckins: [...others, { dateId, checkedInAt, device }] };
  });
  return { ...state, gate: { ...state.gate, list: { ...list, tickets } } };
}

// ---- sync ----

/** Sends every queued scan, once online and when no sync is under way (scans queued before devices had names carry this one's). */
function startSync(state: CheckInDeskState): CheckInDeskState {
  if (state.syncing || !state.online || state.queue.length === 0) return state;
  return { ...state, syncing: state.queue.map((item) => (item.device ? item : { ...item, device: state.device })) };
}

/** What the server decided about queued scans: each leaves the queue and is shown. */
function mergeSynced(state: CheckInDeskState, answers: SyncedScan[]): CheckInDeskState {
  const answeredCodes = new Set(answers.map((answer) => answer.ticketCode));
  let next: CheckInDeskState = { ...state, queue: state.queue.filter((item) => !answeredCodes.has(item.code)) };
  for (const answer of answers) {
    const ticketId = 'ticketId' in answer ? answer.ticketId : undefined;
    next = addResult(next, answer.ticketCode, { kind: 'synced', scan: answer, who: nameOf(next, ticketId) });
  }
  return next;
}

// ---- reading what effects report ----

/** POST /checkin failed: what the refusal means for the desk (no answer at all, or a 5xx, is 'unreachable'). */
export function checkInAnswerFromError(error: unknown): CheckInAnswer {
  if (!isRequestError(error) || !error.response || error.response.status >= 500) return { kind: 'unreachable' };
  const body = (error.response.data ?? {}) as { checkedInAt?: unknown; checkedInDevice?: unknown; voidReason?: unknown };
  const message = getServerMessage(error) ?? null;
  // A void ticket (the event was cancelled, its holder cancelled it, or it was transferred): the server's refusal says why.
  if (typeof body.voidReason === 'string' || (message && /event (was|has been) cancelled/i.test(message))) return { kind: 'void', message };
  if (error.response.status === 409) {
    return {
      kind: 'already-used',
      checkedInAt: typeof body.checkedInAt === 'string' ? body.checkedInAt : null,
      device: typeof body.checkedInDevice === 'string' ? body.checkedInDevice : null,
      message,
    };
  }
  return { kind: 'not-valid', message };
}

/** Loading the event failed: unreachable (the saved copy may stand in), not found, or refused with the server's words. */
export function eventFailureFrom(error: unknown): Extract<CheckInDeskAction, { type: 'event-failed' }> {
  if (isRequestError(error) && !error.response) return { type: 'event-failed', reason: 'unreachable', message: null };
  if (getErrorStatus(error) === 404) return { type: 'event-failed', reason: 'not-found', message: null };
  return { type: 'event-failed', reason: 'refused', message: getServerMessage(error) ?? null };
}

// ---- what the page shows ----

export const eventDetails = (state: CheckInDeskState): CheckInEventDetails | null =>
  state.event.kind === 'fresh' || state.event.kind === 'saved' ? state.event.details : null;

/** "Using saved event details": the server could not be reached and the saved copy is shown. */
export const usingSavedEvent = (state: CheckInDeskState): boolean => state.event.kind === 'saved';

/**
 * Whether the desk opens for this user. Offline, an admin's role cannot be asked again: a device
 * that was allowed before (it saved the event) stays allowed, also while the role is asked again
 * once the connection returns.
 */
export function deskAllowed(state: CheckInDeskState, access: 'checking' | 'allowed' | 'denied'): boolean {
  if (access === 'allowed' || state.event.kind === 'saved') return true;
  return access === 'checking' && state.event.kind === 'fresh' && state.event.trusted;
}

export const pendingCount = (state: CheckInDeskState): number => state.queue.length;
export const isChecking = (state: CheckInDeskState): boolean => state.scans.length > 0;
export const flaggedScans = (state: CheckInDeskState): FlaggedScan[] => state.gate.list?.flagged ?? [];
/** "Using the list saved at 19:42": a gate list is shown that was not downloaded on this visit. */
export const usingSavedGateList = (state: CheckInDeskState): boolean => !state.gate.fresh && state.gate.list !== null;
