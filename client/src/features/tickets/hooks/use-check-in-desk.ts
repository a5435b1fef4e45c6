/*
 * The effects of the door check-in desk: the requests (event, gate list, check-in, sync), the device's
 * storage (saved event, gate list, offline queue, device name), the public key, online/offline events
 * and the gate list's periodic refresh. Every decision is made by the pure reducer in
 * lib/check-in-desk.ts; this hook runs what the state asks for and dispatches what comes back.
 */
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { checkInTicket, getGateList, syncScans } from '../api/tickets-api';
import { readQueue, saveQueueChanges } from '../lib/checkin-queue';
import {
  checkInAnswerFromError,
  checkInDeskReducer,
  deskAllowed,
  eventFailureFrom,
  initCheckInDesk,
  type CameraProblem,
  type CheckInEventDetails,
  type ScanInProgress,
} from '../lib/check-in-desk';
import { readDeviceName, readSavedGateList, saveDeviceName, saveGateList } from '../lib/gate';
import { readJson, writeJson } from '../lib/storage';
import { loadVerificationKey, rememberVerificationKey, verifyTicketOffline, type OfflineVerdict } from '../lib/ticket-code';
import { isRequestError, getServerMessage } from '../../../lib/errors';
import { useStaffAccess } from './use-staff-access';

/** Loads the event being checked in; the events feature's getEvent, passed in by app/routes/checkin.tsx. */
export type LoadCheckInEvent = (eventId: string, signal?: AbortSignal) => Promise<CheckInEventDetails>;

/** Scans per sync request (the server takes at most 500). */
const SYNC_BATCH = 200;
/** While online the gate list is downloaded again this often, so scans made at other gates show up. */
export const GATE_REFRESH_MS = 30_000;

const pickDetails = (event: CheckInEventDetails): CheckInEventDetails => ({
  title: event.title,
  date: event.date,
  user: event.user,
  status: event.status,
  ...(event.dates?.length ? { dates: event.dates.map(({ _id, startsAt, status }) => ({ _id, startsAt, status })) } : {}),
});

export function useCheckInDesk(eventId: string, userId: string, loadEvent: LoadCheckInEvent) {
  const storageKey = `tukio-checkin-event:${userId}:${eventId}`;
  const [state, dispatch] = useReducer(checkInDeskReducer, null, () =>
    initCheckInDesk({
      online: navigator.onLine,
      device: readDeviceName(),
      savedEvent: readJson<CheckInEventDetails>(storageKey),
      savedGateList: readSavedGateList(eventId),
      queue: readQueue(eventId),
    }),
  );
  const access = useStaffAccess(userId, state.event.kind === 'fresh' || state.event.kind === 'saved' ? state.event.details.user : undefined, state.online, { eventId, roles: ['co_organiser', 'gate_staff'] });
  const allowed = deskAllowed(state, access);

  useEffect(() => {
    const report = () => dispatch({ type: 'connection-changed', online: navigator.onLine });
    window.addEventListener('online', report);
    window.addEventListener('offline', report);
    return () => {
      window.removeEventListener('online', report);
      window.removeEventListener('offline', report);
    };
  }, []);

  // The event: on opening, on "Try again", and when the connection returns while the saved copy is shown.
  useEffect(() => {
    const controller = new AbortController();
    loadEvent(eventId, controller.signal).then(
      (event) => !controller.signal.aborted && dispatch({ type: 'event-loaded', details: pickDetails(event) }),
      (error: unknown) => !controller.signal.aborted && dispatch(eventFailureFrom(error)),
    );
    return () => controller.abort();
  }, [eventId, loadEvent, state.eventRequest]);

  // Fresh details of an event this user may check in are kept for an offline visit.
  const freshDetails = state.event.kind === 'fresh' ? state.event.details : null;
  useEffect(() => {
    if (access === 'allowed' && freshDetails) writeJson(storageKey, freshDetails);
  }, [access, freshDetails, storageKey]);

  // Everything below is the desk's, once it is open.
  useEffect(() => {
    if (!allowed) return;
    const controller = new AbortController();
    getGateList(eventId, controller.signal).then(
      (list) => {
        if (controller.signal.aborted) return;
        saveGateList(list);
        rememberVerificationKey(list.publicKey.jwk);
        dispatch({ type: 'gate-list-loaded', list });
      },
      (error: unknown) => !controller.signal.aborted && dispatch({ type: 'gate-list-failed', error }),
    );
    return () => controller.abort();
  }, [allowed, eventId, state.gate.request]);

  useEffect(() => {
    if (!allowed || !state.online) return;
    const timer = window.setInterval(() => dispatch({ type: 'gate-list-requested' }), GATE_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [allowed, state.online]);

  // The public key at once (and again with each change of connection), so codes can still be checked offline.
  useEffect(() => {
    if (!allowed) return;
    let live = true;
    void loadVerificationKey().then((key) => live && dispatch({ type: 'key-checked', ready: Boolean(key) }));
    return () => {
      live = false;
    };
  }, [allowed, state.online]);

  // Opened with scans waiting: send them.
  useEffect(() => {
    if (allowed) dispatch({ type: 'sync-requested' });
  }, [allowed]);

  // The offline queue lives in localStorage: what the reducer added or removed is written there.
  const storedQueue = useRef(state.queue);
  useEffect(() => {
    saveQueueChanges(eventId, storedQueue.current, state.queue);
    storedQueue.current = state.queue;
  }, [eventId, state.queue]);

  // Each scan's next step, started once: the offline signature check, then the server.
  const started = useRef(new WeakSet<ScanInProgress>());
  useEffect(() => {
    for (const scan of state.scans) {
      if (started.current.has(scan)) continue;
      started.current.add(scan);
      const code = scan.code;
      if (scan.step === 'verifying') {
        // A check that cannot run leaves the decision to the server.
        void verifyTicketOffline(code, eventId)
          .catch((): OfflineVerdict => ({ kind: 'unchecked' }))
          .then((verdict) => dispatch({ type: 'scan-verified', code, verdict }));
      } else {
        checkInTicket(eventId, code, scan.device, scan.dateId).then(
          (answer) => dispatch({ type: 'scan-answered', code, answer: { kind: 'accepted', ticketId: answer.ticket._id, checkedInAt: answer.ticket.checkedInAt } }),
          (error: unknown) => dispatch({ type: 'scan-answered', code, answer: checkInAnswerFromError(error) }),
        );
      }
    }
  }, [eventId, state.scans]);

  // A sync the reducer started: the scans go in batches; the server decides across every gate device.
  const syncing = state.syncing;
  const syncStarted = useRef(new WeakSet<object>());
  useEffect(() => {
    if (!syncing || syncStarted.current.has(syncing)) return;
    syncStarted.current.add(syncing);
    void (async () => {
      try {
        for (let start = 0; start < syncing.length; start += SYNC_BATCH) {
          const batch = syncing.slice(start, start + SYNC_BATCH);
          const { results } = await syncScans(
            eventId,
            // On a series each scan goes with the date it was made for (the server refuses another date's tickets).
            batch.map((item) => ({ ticketCode: item.code, scannedAt: item.scannedAt, device: item.device ?? '', ...(item.dateId ? { dateId: item.dateId } : {}) })),
          );
          dispatch({ type: 'sync-answered', results });
        }
        dispatch({ type: 'sync-finished' });
      } catch (error) {
        const refused = isRequestError(error) && error.response && error.response.status < 500;
        dispatch({ type: 'sync-finished', ...(refused ? { refusal: { message: getServerMessage(error) ?? null } } : {}) });
      }
    })();
  }, [eventId, syncing]);

  // The camera reports a code: a short buzz when the desk takes it as a new scan.
  const lastSeen = state.scanner.kind === 'scanning' ? state.scanner.last : null;
  useEffect(() => {
    if (lastSeen) navigator.vibrate?.(60);
  }, [lastSeen]);

  const enterCode = useCallback((code: string) => dispatch({ type: 'code-entered', code, at: new Date().toISOString() }), []);
  const seeCode = useCallback((code: string) => dispatch({ type: 'code-seen', code, now: Date.now(), at: new Date().toISOString() }), []);
  // On a series the door admits for one date (the staff pick it); each scan keeps the date it was made for.
  const setDateId = useCallback((dateId: string) => dispatch({ type: 'date-picked', dateId }), []);
  const renameDevice = useCallback((name: string) => dispatch({ type: 'device-renamed', name: saveDeviceName(name) }), []);
  const cameraStarted = useCallback(() => dispatch({ type: 'camera-started' }), []);
  const cameraFailed = useCallback((problem: CameraProblem) => dispatch({ type: 'camera-failed', problem }), []);

  return {
    state,
    access,
    allowed,
    dateId: state.dateId,
    setDateId,
    enterCode,
    seeCode,
    renameDevice,
    cameraStarted,
    cameraFailed,
    toggleCamera: useCallback(() => dispatch({ type: 'camera-toggled' }), []),
    syncNow: useCallback(() => dispatch({ type: 'sync-requested' }), []),
    reloadEvent: useCallback(() => dispatch({ type: 'event-requested' }), []),
    reloadGateList: useCallback(() => dispatch({ type: 'gate-list-requested' }), []),
  };
}
