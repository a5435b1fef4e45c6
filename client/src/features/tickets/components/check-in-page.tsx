/*
 * /checkin/:eventId — the door. The organiser (or an admin) scans ticket QR codes with the camera or
 * types a code. Each code is first checked offline (Ed25519 signature with the saved public key, and
 * whether it names this event), then sent to POST /api/events/:id/checkin. Without a connection the
 * saved gate list refuses void and already-used tickets, and other scans wait in localStorage; back
 * online they go to POST /api/events/:id/checkin/sync, which decides across every gate device (the
 * earliest scan wins, later ones are flagged), docs/decisions/offline.md.
 */
import { Suspense, useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
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
import { lazyWithTexts, RichText, t, useLanguage } from '../../../lib/i18n';

const QrScanner = lazyWithTexts(() => import('./qr-scanner'));

/** Catalog key. */
export const NOT_ORGANISER = 'tickets.notOrganiser';
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
  if (verdict.kind === 'invalid') return t('tickets.offlineInvalid');
  if (verdict.kind === 'valid') return verdict.forThisEvent ? t('tickets.offlineGenuine') : t('tickets.offlineOtherEvent');
  return t('tickets.offlineUnavailable');
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
  useLanguage();
  const { event, saved, storageKey, fetched, fromCache } = useCheckInEvent(eventId, userId, loadEvent);
  const access = useStaffAccess(userId, event?.user);
  // Offline, an admin's role cannot be asked again: a device that was allowed before stays allowed.
  const allowed = access === 'allowed' || (fromCache && Boolean(saved));

  useEffect(() => {
    if (access === 'allowed' && fetched.data) {
      writeJson(storageKey, { title: fetched.data.title, date: fetched.data.date, user: fetched.data.user, status: fetched.data.status } satisfies SavedEvent);
    }
  }, [access, fetched.data, storageKey]);

  if (fetched.loading && !event) return <PageLoader label={t('tickets.loadingEvent')} />;
  if (!event) {
    const notFound = getErrorStatus(fetched.error) === 404;
    return (
      <section className="page page--narrow status-page">
        <h1>{notFound ? t('tickets.eventNotFound') : t('tickets.couldNotLoadEvent')}</h1>
        <p className="form-message form-message--error" role="alert">
          {notFound ? t('tickets.eventDoesNotExist') : (getServerMessage(fetched.error) ?? t('tickets.loadEventFailed'))}
        </p>
        <div className="status-page__actions">
          {notFound ? null : (
            <Button onClick={fetched.reload}>{t('tickets.tryAgain')}</Button>
          )}
          <Link className="btn btn--secondary" to={paths.profile}>
            {t('tickets.myProfile')}
          </Link>
        </div>
      </section>
    );
  }
  if (!allowed && access === 'checking') return <PageLoader label={t('tickets.checkingAccess')} />;
  if (!allowed) {
    return (
      <section className="page page--narrow status-page">
        <h1>{t('tickets.checkInTitle')}</h1>
        <p className="form-message form-message--error" role="alert">
          {t(NOT_ORGANISER)}
        </p>
        <div className="status-page__actions">
          <Link className="btn btn--secondary" to={paths.event(eventId)}>
            {t('tickets.backToEvent')}
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
  useLanguage();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(name);
  if (!editing) {
    return (
      <p className="checkin__device">
        <RichText id="tickets.thisDevice" parts={{ name: <strong>{name}</strong> }} />{' '}
        <Button
          variant="ghost"
          className="btn--sm"
          onClick={() => {
            setText(name);
            setEditing(true);
          }}
        >
          {t('tickets.renameDevice')}
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
        label={t('tickets.deviceName')}
        value={text}
        onChange={(change) => setText(change.target.value)}
        maxLength={MAX_DEVICE_NAME}
        autoComplete="off"
        hint={t('tickets.deviceNameHint')}
      />
      <Button type="submit" className="btn--sm">
        {t('tickets.saveName')}
      </Button>
    </form>
  );
}

function CheckInDesk({ eventId, event, fromCache }: { eventId: string; event: SavedEvent; fromCache: boolean }) {
  // Texts come from t() (also inside the scan callbacks); this re-renders the desk when the language changes.
  useLanguage();
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
        addResult({ tone: 'success', title: t('tickets.resultCheckedIn'), detail: who ? t('tickets.welcome', { who }) : undefined, offline, code });
        return 'done';
      } catch (error) {
        if (!isRequestError(error) || !error.response || error.response.status >= 500) return 'queue';
        const body = (error.response.data ?? {}) as { checkedInAt?: unknown; checkedInDevice?: unknown; voidReason?: unknown };
        const refusal = getServerMessage(error);
        // A void ticket (the event was cancelled, its holder cancelled it, or it was transferred): the server's refusal says why.
        if (typeof body.voidReason === 'string' || (refusal && /event (was|has been) cancelled/i.test(refusal))) {
          addResult({ tone: 'error', title: t('tickets.resultVoid'), detail: refusal ?? t('tickets.noLongerValid'), offline, code });
          return 'done';
        }
        if (error.response.status === 409) {
          const when = typeof body.checkedInAt === 'string' ? body.checkedInAt : null;
          const where = typeof body.checkedInDevice === 'string' ? body.checkedInDevice : null;
          if (when && ticketId) markInside(ticketId, when, where);
          const who = nameOf(ticketId);
          addResult({
            tone: 'error',
            title: t('tickets.resultAlreadyUsed'),
            detail: when
              ? t('tickets.alreadyUsedAt', { when: formatDateTime(when), where: where ? `, ${where}` : '', who: who ? ` (${who})` : '' })
              : (getServerMessage(error) ?? t('tickets.alreadyUsed')),
            offline,
            code,
          });
          return 'done';
        }
        addResult({ tone: 'error', title: t('tickets.resultNotValid'), detail: getServerMessage(error) ?? t('tickets.codeNotValid'), offline, code });
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
        addResult({ tone: 'success', title: t('tickets.synced', { what: t('tickets.resultCheckedIn') }), detail: who ? t('tickets.welcome', { who }) : undefined, code });
      } else if (result.status === 'duplicate') {
        const who = nameOf(result.ticketId);
        addResult({ tone: 'error', title: t('tickets.synced', { what: t('tickets.alreadyCheckedIn') }), detail: `${checkedInAtText(result.first)}${who ? ` (${who})` : ''}.`, code });
      } else if (result.status === 'void') {
        addResult({ tone: 'error', title: t('tickets.synced', { what: t('tickets.resultVoid') }), detail: result.message, code });
      } else {
        addResult({ tone: 'error', title: t('tickets.synced', { what: t('tickets.resultNotValid') }), detail: result.message, code });
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
        addResult({ tone: 'error', title: t('tickets.syncRefused'), detail: getServerMessage(error) ?? t('tickets.serverRefusedScans'), code: '' });
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
          addResult({ tone: 'error', title: t('tickets.resultNotValid'), detail: t('tickets.codeNotValid'), offline, code });
          return;
        }
        if (verdict.forThisEvent === false) {
          addResult({ tone: 'error', title: t('tickets.resultWrongEvent'), detail: t('tickets.differentEvent'), offline, code });
          return;
        }
        const ticketId = verdict.ticketId;
        // No connection: the saved gate list decides what it can (void and already-used tickets are
        // refused here), the rest waits in the queue for the server.
        const queueIt = () => {
          const known = listRef.current?.tickets.find((a) => a.ticketId === ticketId);
          if (known?.voidReason) {
            addResult({ tone: 'error', title: t('tickets.resultVoid'), detail: voidText(known.voidReason), offline, code });
            return;
          }
          if (known?.checkedInAt) {
            addResult({ tone: 'error', title: t('tickets.alreadyCheckedIn'), detail: `${checkedInAtText({ device: known.checkedInDevice, scannedAt: known.checkedInAt })} (${known.username}).`, offline, code });
            return;
          }
          const waiting = readQueue(eventId).find((item) => item.code === code);
          if (waiting) {
            addResult({ tone: 'warning', title: t('tickets.resultAlreadyScanned'), detail: t('tickets.scannedWaiting', { when: scanTime(waiting.scannedAt) }), offline, code });
            return;
          }
          enqueueScan(eventId, { code, ticketId, scannedAt: new Date().toISOString(), device });
          setPending(readQueue(eventId).length);
          addResult({
            tone: 'warning',
            title: t('tickets.resultSavedOffline'),
            detail: known ? t('tickets.savedOfflineHolder', { holder: known.username }) : t('tickets.savedOfflineUnknown'),
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
        <p className="eyebrow">{t('tickets.doorCheckIn')}</p>
        <h1>{event.title}</h1>
        <p className="lead">
          {formatEventDate(event.date)} · {formatEventTime(event.date)} · <Link to={paths.event(eventId)}>{t('tickets.eventPage')}</Link>
        </p>
      </header>
      {event.status === 'cancelled' ? (
        <p className="form-message form-message--error checkin__cancelled" role="alert">
          {t('tickets.eventCancelledVoid')}
        </p>
      ) : null}

      <div className="checkin__status" role="status" aria-live="polite">
        <span className={`badge ${online ? 'badge--success' : 'badge--pending'}`}>{online ? t('tickets.online') : t('tickets.offline')}</span>
        {pending > 0 ? (
          <span className="checkin__pending">
            {t('tickets.scansWaiting', { count: pending })}
            {syncing ? (
              <>
                {' '}
                <Spinner size="sm" /> {t('tickets.syncing')}
              </>
            ) : null}
          </span>
        ) : null}
        {fromCache ? <span className="muted">{t('tickets.usingSavedEvent')}</span> : null}
        {gate.fromSaved && list ? <span className="muted">{t('tickets.usingSavedList', { when: scanTime(list.generatedAt) })}</span> : null}
        {keyReady === false ? <span className="muted">{t('tickets.keyNotReady')}</span> : null}
      </div>
      {pending > 0 && online && !syncing ? (
        <Button variant="secondary" className="btn--sm checkin__sync" onClick={() => void sync()}>
          {t('tickets.syncNow')}
        </Button>
      ) : null}

      <div className="checkin__layout">
        <section className="card checkin__scan" aria-labelledby="scan-heading">
          <h2 id="scan-heading">{t('tickets.scanTicket')}</h2>
          <DeviceName name={device} onSave={setDevice} />
          {camera ? (
            <Suspense fallback={<p className="muted">{t('tickets.loadingScanner')}</p>}>
              <QrScanner onCode={(code) => void handleCode(code)} />
            </Suspense>
          ) : null}
          <Button variant={camera ? 'secondary' : 'primary'} block onClick={() => setCamera((on) => !on)} aria-pressed={camera}>
            {camera ? t('tickets.stopCamera') : t('tickets.scanWithCamera')}
          </Button>

          <form className="form checkin__form" onSubmit={submit} noValidate>
            <TextField
              ref={codeRef}
              label={t('tickets.ticketCode')}
              value={codeText}
              onChange={(change) => setCodeText(change.target.value)}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              placeholder="TK1.…"
              hint={t('tickets.ticketCodeHint')}
            />
            <Button type="submit" loading={working} loadingText={t('tickets.checking')}>
              {t('tickets.checkIn')}
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
              <p className="muted">{t('tickets.scanOrType')}</p>
            )}
          </div>

          {results.length > 1 ? (
            <div className="checkin__history">
              <h3>{t('tickets.earlierScans')}</h3>
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
              <h2 id="flagged-heading">{t('tickets.doubleScans', { count: flagged.length })}</h2>
              <p className="muted">{t('tickets.doubleScansText')}</p>
              <ul>
                {flagged.map((scan) => (
                  <li key={`${scan.ticketId}:${scan.device ?? ''}:${scan.scannedAt}`} className="checkin-flagged__item">
                    <RichText
                      id="tickets.doubleScanLine"
                      values={{
                        ticket: scan.ticketId.slice(-6),
                        device: scan.device ?? t('tickets.theDoor'),
                        thisDevice: scan.device === device ? ` ${t('tickets.thisDeviceMark')}` : '',
                        when: scanTime(scan.scannedAt),
                        first: atDeviceAndTime(scan.first),
                      }}
                      parts={{ username: <strong>{scan.username}</strong> }}
                    />
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
