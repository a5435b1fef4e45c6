/*
 * /checkin/:eventId — the door. The organiser (or an admin) scans ticket QR codes with the camera or
 * types a code. Each code is first checked offline (Ed25519 signature with the saved public key, and
 * whether it names this event), then sent to POST /api/events/:id/checkin. Without a connection the
 * saved gate list refuses void and already-used tickets, and other scans wait in localStorage; back
 * online they go to POST /api/events/:id/checkin/sync, which decides across every gate device (the
 * earliest scan wins, later ones are flagged), docs/decisions/offline.md.
 */
import { Suspense, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { PageLoader, Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { formatEventDate, formatEventTime, formatSeriesDate } from '../../../lib/format';
import { useCheckInDesk, type LoadCheckInEvent } from '../hooks/use-check-in-desk';
import { eventDetails, flaggedScans, isChecking, pendingCount, usingSavedEvent, usingSavedGateList, type CheckInEventDetails } from '../lib/check-in-desk';
import { offlineCheckText, scanOutcomeText } from '../lib/check-in-desk-text';
import { atDeviceAndTime, heldTickets, MAX_DEVICE_NAME, scanTime } from '../lib/gate';
import { AttendeeList } from './attendee-list';
import '../tickets.css';
import { lazyWithTexts, RichText, t, useLanguage } from '../../../lib/i18n';

const QrScanner = lazyWithTexts(() => import('./qr-scanner'));

/** Catalog key. */
export const NOT_ORGANISER = 'tickets.notOrganiser';

export type { LoadCheckInEvent };

type CheckInDesk = ReturnType<typeof useCheckInDesk>;

const shortCode = (code: string) => (code.length > 18 ? `${code.slice(0, 10)}…${code.slice(-6)}` : code);

export function CheckInPage({ eventId, userId, loadEvent }: { eventId: string; userId: string; loadEvent: LoadCheckInEvent }) {
  useLanguage();
  const desk = useCheckInDesk(eventId, userId, loadEvent);
  const { state, access, allowed } = desk;
  const event = eventDetails(state);

  if (state.event.kind === 'loading') return <PageLoader label={t('tickets.loadingEvent')} />;
  if (state.event.kind === 'failed' || !event) {
    const notFound = state.event.kind === 'failed' && state.event.notFound;
    const message = state.event.kind === 'failed' ? state.event.message : null;
    return (
      <section className="page page--narrow status-page">
        <h1>{notFound ? t('tickets.eventNotFound') : t('tickets.couldNotLoadEvent')}</h1>
        <p className="form-message form-message--error" role="alert">
          {notFound ? t('tickets.eventDoesNotExist') : (message ?? t('tickets.loadEventFailed'))}
        </p>
        <div className="status-page__actions">
          {notFound ? null : (
            <Button onClick={desk.reloadEvent}>{t('tickets.tryAgain')}</Button>
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
  return <CheckInDeskView eventId={eventId} event={event} desk={desk} />;
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
        onSave(text);
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

function CheckInDeskView({ eventId, event, desk }: { eventId: string; event: CheckInEventDetails; desk: CheckInDesk }) {
  // Texts come from t(); this re-renders the desk when the language changes.
  useLanguage();
  const { state } = desk;
  const { online, device, results, scanner } = state;
  const list = state.gate.list;
  const attendees = useMemo(() => (list ? heldTickets(list) : undefined), [list]);
  const pending = pendingCount(state);
  const syncing = state.syncing !== null;
  const camera = scanner.kind !== 'off';
  const [codeText, setCodeText] = useState('');
  const codeRef = useRef<HTMLInputElement>(null);

  const submit = (form: FormEvent) => {
    form.preventDefault();
    // Back to the field at once: the next ticket can be typed while this one is checked.
    codeRef.current?.focus();
    const code = codeText.trim();
    if (!code) return;
    setCodeText('');
    desk.enterCode(code);
  };

  const latest = results[0];
  const latestText = latest ? scanOutcomeText(latest.outcome) : null;
  const flagged = flaggedScans(state);

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
      {event.dates?.length ? (
        // An event series (docs/decisions/event-series.md): the door admits for the date chosen here.
        <label className="field checkin__date">
          <span className="field__label">{t('tickets.checkInDate')}</span>
          <select className="field__control" value={desk.dateId} onChange={(change) => desk.setDateId(change.target.value)} data-testid="checkin-date">
            <option value="">{t('tickets.checkInChooseDate')}</option>
            {event.dates
              .filter((date) => date.status === 'active')
              .map((date) => (
                <option key={date._id} value={date._id}>
                  {formatSeriesDate(date.startsAt)}
                </option>
              ))}
          </select>
        </label>
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
        {usingSavedEvent(state) ? <span className="muted">{t('tickets.usingSavedEvent')}</span> : null}
        {usingSavedGateList(state) && list ? <span className="muted">{t('tickets.usingSavedList', { when: scanTime(list.generatedAt) })}</span> : null}
        {state.keyReady === false ? <span className="muted">{t('tickets.keyNotReady')}</span> : null}
      </div>
      {pending > 0 && online && !syncing ? (
        <Button variant="secondary" className="btn--sm checkin__sync" onClick={desk.syncNow}>
          {t('tickets.syncNow')}
        </Button>
      ) : null}

      <div className="checkin__layout">
        <section className="card checkin__scan" aria-labelledby="scan-heading">
          <h2 id="scan-heading">{t('tickets.scanTicket')}</h2>
          <DeviceName name={device} onSave={desk.renameDevice} />
          {camera ? (
            <Suspense fallback={<p className="muted">{t('tickets.loadingScanner')}</p>}>
              <QrScanner
                status={scanner.kind === 'scanning' ? 'scanning' : scanner.kind === 'failed' ? 'failed' : 'starting'}
                problem={scanner.kind === 'failed' ? scanner.problem : null}
                onStarted={desk.cameraStarted}
                onFailed={desk.cameraFailed}
                onCode={desk.seeCode}
              />
            </Suspense>
          ) : null}
          <Button variant={camera ? 'secondary' : 'primary'} block onClick={desk.toggleCamera} aria-pressed={camera}>
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
            <Button type="submit" loading={isChecking(state)} loadingText={t('tickets.checking')}>
              {t('tickets.checkIn')}
            </Button>
          </form>

          <div className="checkin__result-area" role="status" aria-live="polite" aria-atomic="true">
            {latest && latestText ? (
              <div className={`checkin-result checkin-result--${latestText.tone}`}>
                <p className="checkin-result__title">{latestText.title}</p>
                {latestText.detail ? <p className="checkin-result__detail">{latestText.detail}</p> : null}
                {latest.offline ? <p className="checkin-result__offline">{offlineCheckText(latest.offline)}</p> : null}
              </div>
            ) : (
              <p className="muted">{t('tickets.scanOrType')}</p>
            )}
          </div>

          {results.length > 1 ? (
            <div className="checkin__history">
              <h3>{t('tickets.earlierScans')}</h3>
              <ul>
                {results.slice(1).map((result) => {
                  const text = scanOutcomeText(result.outcome);
                  return (
                    <li key={result.id} className={`checkin-history__item checkin-history__item--${text.tone}`}>
                      <span className="checkin-history__title">{text.title}</span>
                      <span className="mono muted">{shortCode(result.code)}</span>
                    </li>
                  );
                })}
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
            loading={state.gate.loading && !list}
            error={list ? undefined : state.gate.error}
            online={online}
            onReload={desk.reloadGateList}
          />
        </div>
      </div>
    </div>
  );
}
