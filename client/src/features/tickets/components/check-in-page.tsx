/*
 * /checkin/:eventId — the door. The organiser (or an admin) scans ticket QR codes with the camera or
 * types a code. Each code is first checked offline (Ed25519 signature with the saved public key, and
 * whether it names this event), then sent to POST /api/events/:id/checkin. Without a connection the
 * saved gate list refuses void and already-used tickets, and other scans wait in localStorage; back
 * online they go to POST /api/events/:id/checkin/sync, which decides across every gate device (the
 * earliest scan wins, later ones are flagged), docs/decisions/offline.md.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { PageLoader, Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useFetch } from '../../../hooks/use-fetch';
import { getErrorStatus, getServerMessage, isRequestError } from '../../../lib/errors';
import { formatDateTime, formatEventDate, formatEventTime } from '../../../lib/format';
import { checkInTicket, getGateList, syncScans, type GateList, type SyncedScan } from '../api/tickets-api';
import { useOnline } from '../../../hooks/use-online';
import { useStaffAccess } from '../hooks/use-staff-access';
import { enqueueScan, readQueue, removeFromQueue } from '../lib/checkin-queue';
import { readJson, writeJson } from '../lib/storage';
import { atDeviceAndTime, checkedInAtText, heldTickets, MAX_DEVICE_NAME, readDeviceName, readSavedGateList, saveDeviceName, saveGateList, scanTime, voidText } from '../lib/gate';
import { loadVerificationKey, rememberVerificationKey, verifyTicketOffline, type OfflineVerdict } from '../lib/ticket-code';
import { AttendeeList } from './attendee-list';
import '../tickets.css';

const QrScanner = lazy(() => import('./qr-scanner'));

export const NOT_ORGANISER = 'Only the organiser can check in tickets.';
const MAX_RESULTS = 8;

type Tone = 'success' | 'error' | 'warning' | 'info';

interface ScanResult {
  id: number;
  tone: Tone;
  title: string;
  detail?: string;
  /** What the offline signature check said. */
  offline?: string;
  code: string;
  at: string;
}

interface SavedEvent {
  title: string;
  date: string;
  user: string;
  /** The event was cancelled: every ticket is void (absent in copies saved before). */
  status?: string;
}

const shortCode = (code: string) => (code.length > 18 ? `${code.slice(0, 10)}…${code.slice(-6)}` : code);

function offlineLine(verdict: OfflineVerdict): string {
  if (verdict.kind === 'invalid') return 'Offline check: signature not valid.';
  if (verdict.kind === 'valid') return `Offline check: genuine ticket${verdict.forThisEvent ? ' for this event' : ', but for another event'}.`;
  return 'Offline check not available on this device; the server decides.';
}

/** Loads the event being checked in; the events feature's getEvent, passed in by app/routes/checkin.tsx. */
export type LoadCheckInEvent = (eventId: string, signal?: AbortSignal) => Promise<SavedEvent>;

/** Event details for the page, with a saved copy so the door keeps working offline. */
function useCheckInEvent(eventId: string, userId: string, loadEvent: LoadCheckInEvent) {
  const storageKey = `tukio-checkin-event:${userId}:${eventId}`;
  const fetched = useFetch(`checkin-event:${eventId}`, (signal) => loadEvent(eventId, signal));
  const saved = readJson<SavedEvent>(storageKey);
  const networkFailure = isRequestError(fetched.error) && !fetched.error.response;
  const event: SavedEvent | null = fetched.data
    ? { title: fetched.data.title, date: fetched.data.date, user: fetched.data.user, status: fetched.data.status }
    : networkFailure && saved
      ? saved
      : null;
  return { event, saved, storageKey, fetched, fromCache: !fetched.data && Boolean(event) };
}

export function CheckInPage({ eventId, userId, loadEvent }: { eventId: string; userId: string; loadEvent: LoadCheckInEvent }) {
  const { event, saved, storageKey, fetched, fromCache } = useCheckInEvent(eventId, userId, loadEvent);
  const access = useStaffAccess(userId, event?.user);
  // Offline, an admin's role cannot be asked again: a device that was allowed before stays allowed.
  const allowed = access === 'allowed' || (fromCache && Boolean(saved));

  useEffect(() => {
    if (access === 'allowed' && fetched.data) {
      writeJson(storageKey, { title: fetched.data.title, date: fetched.data.date, user: fetched.data.user, status: fetched.data.status } satisfies SavedEvent);
    }
  }, [access, fetched.data, storageKey]);

  if (fetched.loading && !event) return <PageLoader label="Loading event…" />;
  if (!event) {
    const notFound = getErrorStatus(fetched.error) === 404;
    return (
      <section className="page page--narrow status-page">
        <h1>{notFound ? 'Event not found' : 'Could not load this event'}</h1>
        <p className="form-message form-message--error" role="alert">
          {notFound ? 'This event does not exist.' : (getServerMessage(fetched.error) ?? 'Failed to load the event. Please try again.')}
        </p>
        <div className="status-page__actions">
          {notFound ? null : (
            <Button onClick={fetched.reload}>Try again</Button>
          )}
          <Link className="btn btn--secondary" to={paths.profile}>
            My profile
          </Link>
        </div>
      </section>
    );
  }
  if (!allowed && access === 'checking') return <PageLoader label="Checking access…" />;
  if (!allowed) {
    return (
      <section className="page page--narrow status-page">
        <h1>Check-in</h1>
        <p className="form-message form-message--error" role="alert">
          {NOT_ORGANISER}
        </p>
        <div className="status-page__actions">
          <Link className="btn btn--secondary" to={paths.event(eventId)}>
            Back to the event
          </Link>
        </div>
      </section>
    );
  }
  return <CheckInDesk eventId={eventId} event={event} fromCache={fromCache} />;
}

/** Scans per sync request (the server takes at most 500). */
const SYNC_BATCH = 200;
/** While online the gate list is downloaded again this often, so scans made at other gates show up. */
const GATE_REFRESH_MS = 30_000;

/**
 * The event's gate list: downloaded when online (and saved on the device), the saved copy otherwise.
 * `markInside` records a check-in this device just made, until the next download.
 */
function useGateList(eventId: string, online: boolean) {
  const fetched = useFetch(`gate-list:${eventId}`, async (signal) => {
    const list = await getGateList(eventId, signal);
    saveGateList(list);
    rememberVerificationKey(list.publicKey.jwk);
    return list;
  });
  const saved = useMemo(() => (fetched.data ? null : readSavedGateList(eventId)), [fetched.data, eventId]);
  const { reload, setData } = fetched;
  useEffect(() => {
    if (!online) return;
    const timer = window.setInterval(reload, GATE_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [online, reload]);
  const markInside = useCallback(
    (ticketId: string, checkedInAt: string, device: string | null) =>
      setData((list) => list && { ...list, tickets: list.tickets.map((a) => (a.ticketId === ticketId ? { ...a, checkedInAt, checkedInDevice: device } : a)) }),
    [setData],
  );
  return {
    list: fetched.data ?? saved,
    fromSaved: !fetched.data && Boolean(saved),
    loading: fetched.loading,
    error: fetched.error,
    reload,
    markInside,
  };
}

/** The name staff give this device ("Gate B"): every scan carries it, and double scans name it. */
function DeviceName({ name, onSave }: { name: string; onSave: (name: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(name);
  if (!editing) {
    return (
      <p className="checkin__device">
        This device: <strong>{name}</strong>{' '}
        <Button
          variant="ghost"
          className="btn--sm"
          onClick={() => {
            setText(name);
            setEditing(true);
          }}
        >
          Rename device
        </Button>
      </p>
    );
  }
  return (
    <form
      className="form checkin__device-form"
      noValidate
      onSubmit={(form) => {
        form.preventDefault();
        onSave(saveDeviceName(text));
        setEditing(false);
      }}
    >
      <TextField
        label="Device name"
        value={text}
        onChange={(change) => setText(change.target.value)}
        maxLength={MAX_DEVICE_NAME}
        autoComplete="off"
        hint="Name each gate device (e.g. Gate B): double scans say which gate let the ticket in."
      />
      <Button type="submit" className="btn--sm">
        Save name
      </Button>
    </form>
  );
}

function CheckInDesk({ eventId, event, fromCache }: { eventId: string; event: SavedEvent; fromCache: boolean }) {
  const online = useOnline();
  const [device, setDevice] = useState(readDeviceName);
  const gate = useGateList(eventId, online);
  const list = gate.list;
  const listRef = useRef<GateList | null>(null);
  useEffect(() => {
    listRef.current = list;
  }, [list]);
  const attendees = useMemo(() => (list ? heldTickets(list) : undefined), [list]);

  const [pending, setPending] = useState(() => readQueue(eventId).length);
  const [results, setResults] = useState<ScanResult[]>([]);
  const [working, setWorking] = useState(false);
  const [syncing, setSyncing] = useState(false);
  const [camera, setCamera] = useState(false);
  const [codeText, setCodeText] = useState('');
  const [keyReady, setKeyReady] = useState<boolean | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const nextId = useRef(1);
  const busyCodes = useRef(new Set<string>());
  const syncingRef = useRef(false);

  // Fetch (and save) the public key at once, so codes can still be checked after going offline.
  useEffect(() => {
    let live = true;
    void loadVerificationKey().then((key) => live && setKeyReady(Boolean(key)));
    return () => {
      live = false;
    };
  }, [online]);

  const addResult = useCallback((result: Omit<ScanResult, 'id' | 'at'>) => {
    const entry: ScanResult = { ...result, id: nextId.current++, at: new Date().toISOString() };
    setResults((list) => [entry, ...list].slice(0, MAX_RESULTS));
  }, []);

  const markInside = gate.markInside; // stable
  const nameOf = useCallback((ticketId: string | undefined) => listRef.current?.tickets.find((a) => a.ticketId === ticketId)?.username, []);

  /** Sends one code; answers 'queue' when the server could not be reached. */
  const send = useCallback(
    async (code: string, ticketId: string | undefined, offline: string | undefined): Promise<'done' | 'queue'> => {
      try {
        const answer = await checkInTicket(eventId, code, device);
        markInside(answer.ticket._id, answer.ticket.checkedInAt, device);
        const who = nameOf(answer.ticket._id);
        addResult({ tone: 'success', title: 'Checked in', detail: who ? `Welcome, ${who}.` : undefined, offline, code });
        return 'done';
      } catch (error) {
        if (!isRequestError(error) || !error.response || error.response.status >= 500) return 'queue';
        const body = (error.response.data ?? {}) as { checkedInAt?: unknown; checkedInDevice?: unknown; voidReason?: unknown };
        const refusal = getServerMessage(error);
        // A void ticket (the event was cancelled, its holder cancelled it, or it was transferred): the server's refusal says why.
        if (typeof body.voidReason === 'string' || (refusal && /event (was|has been) cancelled/i.test(refusal))) {
          addResult({ tone: 'error', title: 'Ticket void', detail: refusal ?? 'This ticket is no longer valid.', offline, code });
          return 'done';
        }
        if (error.response.status === 409) {
          const when = typeof body.checkedInAt === 'string' ? body.checkedInAt : null;
          const where = typeof body.checkedInDevice === 'string' ? body.checkedInDevice : null;
          if (when && ticketId) markInside(ticketId, when, where);
          const who = nameOf(ticketId);
          addResult({
            tone: 'error',
            title: 'Already used',
            detail: when
              ? `This ticket was already used at ${formatDateTime(when)}${where ? `, ${where}` : ''}${who ? ` (${who})` : ''}.`
              : (getServerMessage(error) ?? 'This ticket was already used.'),
            offline,
            code,
          });
          return 'done';
        }
        addResult({ tone: 'error', title: 'Not valid', detail: getServerMessage(error) ?? 'This ticket code is not valid.', offline, code });
        return 'done';
      }
    },
    [addResult, device, eventId, markInside, nameOf],
  );

  /** Says what the server decided about one queued scan. */
  const showSynced = useCallback(
    (result: SyncedScan) => {
      const code = result.ticketCode;
      if (result.status === 'accepted') {
        const who = nameOf(result.ticketId);
        addResult({ tone: 'success', title: 'Synced: Checked in', detail: who ? `Welcome, ${who}.` : undefined, code });
      } else if (result.status === 'duplicate') {
        const who = nameOf(result.ticketId);
        addResult({ tone: 'error', title: 'Synced: Already checked in', detail: `${checkedInAtText(result.first)}${who ? ` (${who})` : ''}.`, code });
      } else if (result.status === 'void') {
        addResult({ tone: 'error', title: 'Synced: Ticket void', detail: result.message, code });
      } else {
        addResult({ tone: 'error', title: 'Synced: Not valid', detail: result.message, code });
      }
    },
    [addResult, nameOf],
  );

  /**
   * Sends every queued scan in one batch (POST /checkin/sync); the server decides across gate devices.
   * A scan leaves the queue only once answered; afterwards the gate list is downloaded again, so this
   * device also learns about scans other devices synced.
   */
  const reloadGate = gate.reload; // stable
  const sync = useCallback(async () => {
    if (syncingRef.current || !navigator.onLine) return;
    const queue = readQueue(eventId);
    if (queue.length === 0) return;
    syncingRef.current = true;
    setSyncing(true);
    try {
      for (let start = 0; start < queue.length; start += SYNC_BATCH) {
        const batch = queue.slice(start, start + SYNC_BATCH);
        const { results: answers } = await syncScans(
          eventId,
          batch.map((item) => ({ ticketCode: item.code, scannedAt: item.scannedAt, device: item.device ?? device })),
        );
        for (const answer of answers) {
          removeFromQueue(eventId, answer.ticketCode);
          showSynced(answer);
        }
        setPending(readQueue(eventId).length);
      }
    } catch (error) {
      // Unreachable again: the rest waits. A refusal (e.g. no longer allowed) is shown and the scans kept.
      if (isRequestError(error) && error.response && error.response.status < 500) {
        addResult({ tone: 'error', title: 'Sync refused', detail: getServerMessage(error) ?? 'The server refused these scans.', code: '' });
      }
    } finally {
      syncingRef.current = false;
      setSyncing(false);
      setPending(readQueue(eventId).length);
      reloadGate();
    }
  }, [addResult, device, eventId, reloadGate, showSynced]);

  // Back online (or opened with scans waiting): send the queue.
  useEffect(() => {
    const onOnline = () => void sync();
    window.addEventListener('online', onOnline);
    void sync();
    return () => window.removeEventListener('online', onOnline);
  }, [sync]);

  const handleCode = useCallback(
    async (raw: string) => {
      const code = raw.trim();
      if (!code || busyCodes.current.has(code)) return;
      busyCodes.current.add(code);
      setWorking(true);
      try {
        const verdict = await verifyTicketOffline(code, eventId);
        const offline = offlineLine(verdict);
        if (verdict.kind === 'invalid') {
          addResult({ tone: 'error', title: 'Not valid', detail: 'This ticket code is not valid.', offline, code });
          return;
        }
        if (verdict.forThisEvent === false) {
          addResult({ tone: 'error', title: 'Wrong event', detail: 'This ticket is for a different event.', offline, code });
          return;
        }
        const ticketId = verdict.ticketId;
        // No connection: the saved gate list decides what it can (void and already-used tickets are
        // refused here), the rest waits in the queue for the server.
        const queueIt = () => {
          const known = listRef.current?.tickets.find((a) => a.ticketId === ticketId);
          if (known?.voidReason) {
            addResult({ tone: 'error', title: 'Ticket void', detail: voidText(known.voidReason), offline, code });
            return;
          }
          if (known?.checkedInAt) {
            addResult({ tone: 'error', title: 'Already checked in', detail: `${checkedInAtText({ device: known.checkedInDevice, scannedAt: known.checkedInAt })} (${known.username}).`, offline, code });
            return;
          }
          const waiting = readQueue(eventId).find((item) => item.code === code);
          if (waiting) {
            addResult({ tone: 'warning', title: 'Already scanned', detail: `Scanned on this device at ${scanTime(waiting.scannedAt)}; it is waiting to sync.`, offline, code });
            return;
          }
          enqueueScan(eventId, { code, ticketId, scannedAt: new Date().toISOString(), device });
          setPending(readQueue(eventId).length);
          addResult({
            tone: 'warning',
            title: 'Saved offline',
            detail: `No connection: this scan will be checked in when the device is back online.${known ? ` Holder: ${known.username}.` : ' Not in the saved list: the server decides.'}`,
            offline,
            code,
          });
        };
        if (!navigator.onLine) return queueIt();
        if ((await send(code, ticketId, offline)) === 'queue') queueIt();
      } finally {
        busyCodes.current.delete(code);
        setWorking(busyCodes.current.size > 0);
      }
    },
    [addResult, device, eventId, send],
  );

  const submit = (form: FormEvent) => {
    form.preventDefault();
    const code = codeText.trim();
    if (!code) {
      codeRef.current?.focus();
      return;
    }
    setCodeText('');
    void handleCode(code).then(() => codeRef.current?.focus());
  };

  const latest = results[0];
  const flagged = list?.flagged ?? [];

  return (
    <div className="page checkin">
      <header className="page-hero checkin__hero">
        <p className="eyebrow">Door check-in</p>
        <h1>{event.title}</h1>
        <p className="lead">
          {formatEventDate(event.date)} · {formatEventTime(event.date)} · <Link to={paths.event(eventId)}>Event page</Link>
        </p>
      </header>
      {event.status === 'cancelled' ? (
        <p className="form-message form-message--error checkin__cancelled" role="alert">
          This event was cancelled: every ticket to it is void and admits nobody.
        </p>
      ) : null}

      <div className="checkin__status" role="status" aria-live="polite">
        <span className={`badge ${online ? 'badge--success' : 'badge--pending'}`}>{online ? 'Online' : 'Offline'}</span>
        {pending > 0 ? (
          <span className="checkin__pending">
            {pending} {pending === 1 ? 'scan' : 'scans'} waiting to sync
            {syncing ? (
              <>
                {' '}
                <Spinner size="sm" /> syncing…
              </>
            ) : null}
          </span>
        ) : null}
        {fromCache ? <span className="muted">Using saved event details.</span> : null}
        {gate.fromSaved && list ? <span className="muted">Using the gate list saved at {scanTime(list.generatedAt)}.</span> : null}
        {keyReady === false ? <span className="muted">Offline ticket check unavailable until the key loads.</span> : null}
      </div>
      {pending > 0 && online && !syncing ? (
        <Button variant="secondary" className="btn--sm checkin__sync" onClick={() => void sync()}>
          Sync now
        </Button>
      ) : null}

      <div className="checkin__layout">
        <section className="card checkin__scan" aria-labelledby="scan-heading">
          <h2 id="scan-heading">Scan a ticket</h2>
          <DeviceName name={device} onSave={setDevice} />
          {camera ? (
            <Suspense fallback={<p className="muted">Loading the scanner…</p>}>
              <QrScanner onCode={(code) => void handleCode(code)} />
            </Suspense>
          ) : null}
          <Button variant={camera ? 'secondary' : 'primary'} block onClick={() => setCamera((on) => !on)} aria-pressed={camera}>
            {camera ? 'Stop camera' : 'Scan with camera'}
          </Button>

          <form className="form checkin__form" onSubmit={submit} noValidate>
            <TextField
              ref={codeRef}
              label="Ticket code"
              value={codeText}
              onChange={(change) => setCodeText(change.target.value)}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              placeholder="TK1.…"
              hint="Type or paste the code printed under the ticket's QR code."
            />
            <Button type="submit" loading={working} loadingText="Checking…">
              Check in
            </Button>
          </form>

          <div className="checkin__result-area" role="status" aria-live="polite" aria-atomic="true">
            {latest ? (
              <div className={`checkin-result checkin-result--${latest.tone}`}>
                <p className="checkin-result__title">{latest.title}</p>
                {latest.detail ? <p className="checkin-result__detail">{latest.detail}</p> : null}
                {latest.offline ? <p className="checkin-result__offline">{latest.offline}</p> : null}
              </div>
            ) : (
              <p className="muted">Scan or type a ticket code to check it in.</p>
            )}
          </div>

          {results.length > 1 ? (
            <div className="checkin__history">
              <h3>Earlier scans</h3>
              <ul>
                {results.slice(1).map((result) => (
                  <li key={result.id} className={`checkin-history__item checkin-history__item--${result.tone}`}>
                    <span className="checkin-history__title">{result.title}</span>
                    <span className="mono muted">{shortCode(result.code)}</span>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </section>

        <div className="checkin__side">
          {flagged.length > 0 ? (
            <section className="card checkin-flagged" aria-labelledby="flagged-heading">
              <h2 id="flagged-heading">Double scans ({flagged.length})</h2>
              <p className="muted">Tickets scanned again after another scan had let them in. The first scan counts.</p>
              <ul>
                {flagged.map((scan) => (
                  <li key={`${scan.ticketId}:${scan.device ?? ''}:${scan.scannedAt}`} className="checkin-flagged__item">
                    <strong>{scan.username}</strong> (ticket …{scan.ticketId.slice(-6)}) scanned at {scan.device ?? 'the door'}
                    {scan.device === device ? ' (this device)' : ''}, {scanTime(scan.scannedAt)}: already checked in{atDeviceAndTime(scan.first)}.
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <AttendeeList
            eventId={eventId}
            attendees={attendees}
            loading={gate.loading && !list}
            error={list ? undefined : gate.error}
            online={online}
            onReload={gate.reload}
          />
        </div>
      </div>
    </div>
  );
}
