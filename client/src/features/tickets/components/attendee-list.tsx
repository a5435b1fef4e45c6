/*
 * The attendee list of the check-in page: who holds a ticket and who is already in. The rows come from
 * the server a page at a time; the counts, and check-ins this device made since, come from the gate list
 * the device keeps whole for offline scanning (which also fills the first rows while offline).
 */
import { useMemo, useState } from 'react';
import { LoadMore } from '../../../components/ui/load-more';
import { usePagedList } from '../../../hooks/use-paged-list';
import { notify } from '../../../lib/notify';
import { Button } from '../../../components/ui/button';
import { getErrorMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { getAttendeePage, getAttendeesCsv, type Attendee } from '../api/tickets-api';
import { saveFile } from '../lib/csv';
import { perLocale } from '../../../lib/format';
import { RichText, useT } from '../../../lib/i18n';
import '../../../styles/data-table.css';


const clock = perLocale((locale) => new Intl.DateTimeFormat(locale, { timeStyle: 'short' }));
const dayAndClock = perLocale((locale) => new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }));

/** "14:57" today, "22 Nov, 14:57" on another day (full date and time in the title). */
function shortWhen(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return (date.toDateString() === new Date().toDateString() ? clock() : dayAndClock()).format(date);
}

/** Rows shown from the gate list when no page could be fetched (offline). */
const OFFLINE_ROWS = 50;

const byUsername = (a: Attendee, b: Attendee) => (a.username < b.username ? -1 : a.username > b.username ? 1 : a.ticketId < b.ticketId ? -1 : 1);

export interface AttendeeListProps {
  eventId: string;
  /** The gate list's held tickets (whole, kept on the device). */
  attendees: Attendee[] | undefined;
  loading: boolean;
  error: unknown;
  online: boolean;
  onReload: () => void;
}

export function AttendeeList({ eventId, attendees, loading, error, online, onReload }: AttendeeListProps) {
  const t = useT();
  const [downloading, setDownloading] = useState(false);
  const pages = usePagedList(`attendees:${eventId}`, (cursor, signal) => getAttendeePage(eventId, cursor, signal));
  // Every page says how many of the whole list are checked in; the newest knows best.
  const serverCheckedIn = pages.lastPage?.checkedIn ?? 0;
  // The gate list knows of scans made here before the server's pages do.
  const checkedInHere = useMemo(() => new Map((attendees ?? []).map((attendee) => [attendee.ticketId, attendee.checkedInAt])), [attendees]);
  const fromPages = pages.items.length > 0 || !attendees;
  const rows = (fromPages ? pages.items : [...attendees].sort(byUsername).slice(0, OFFLINE_ROWS)).map((attendee) => ({
    ...attendee,
    checkedInAt: checkedInHere.get(attendee.ticketId) ?? attendee.checkedInAt,
  }));
  const total = attendees ? attendees.length : pages.total;
  const inside = attendees ? attendees.filter((attendee) => attendee.checkedInAt).length : serverCheckedIn;
  const known = attendees !== undefined || (!pages.loading && !pages.error);
  const refresh = () => {
    onReload();
    pages.reload();
  };

  const download = async () => {
    setDownloading(true);
    try {
      saveFile(await getAttendeesCsv(eventId), `attendees-${eventId}.csv`);
    } catch (problem) {
      notify.error(getErrorMessage(problem, t('tickets.attendeesDownloadFailed')));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section className="card checkin-attendees" aria-labelledby="attendees-heading">
      <div className="profile-section__header checkin-attendees__header">
        <h2 id="attendees-heading">
          {t('tickets.attendees')}{known ? ` (${total})` : ''}
        </h2>
        <div className="button-row">
          <Button variant="secondary" className="btn--sm" onClick={refresh} disabled={loading || !online}>
            {t('tickets.refresh')}
          </Button>
          <Button className="btn--sm" loading={downloading} loadingText={t('tickets.preparing')} disabled={!online} onClick={() => void download()}>
            {t('tickets.downloadCsv')}
          </Button>
        </div>
      </div>
      {known ? (
        <p className="checkin-attendees__count" aria-live="polite">
          <RichText id="tickets.checkedInOf" values={{ total }} parts={{ inside: <strong>{inside}</strong> }} />
        </p>
      ) : null}
      {(loading || pages.loading) && !attendees && rows.length === 0 ? (
        <p className="muted" role="status">
          {t('tickets.loadingAttendees')}
        </p>
      ) : (error || pages.error) && !attendees && rows.length === 0 ? (
        <p className="form-message form-message--error" role="alert">
          {online ? t('tickets.attendeesLoadFailed') : t('tickets.attendeesNeedConnection')}
        </p>
      ) : rows.length === 0 ? (
        <p className="empty-state">{t('tickets.noTicketsIssued')}</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{t('tickets.attendee')}</th>
                <th scope="col" className="checkin-attendees__ticket">{t('tickets.ticket')}</th>
                <th scope="col">{t('tickets.checkedIn')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((attendee) => (
                <tr key={attendee.ticketId}>
                  <td>
                    <span className="checkin-attendees__name">{attendee.username}</span>
                    <span className="checkin-attendees__email">{attendee.email}</span>
                    {/* The buyer's answers to the checkout questions for this ticket (docs/decisions/checkout-questions.md). */}
                    {attendee.answers && attendee.answers.length > 0 ? (
                      <span className="checkin-attendees__answers">
                        {attendee.answers.map((answer) => (
                          <span key={answer.questionId} className="checkin-attendees__answer">
                            {answer.label}: {answer.answer}
                          </span>
                        ))}
                      </span>
                    ) : null}
                  </td>
                  <td className="mono checkin-attendees__ticket">…{attendee.ticketId.slice(-6)}</td>
                  <td>
                    {attendee.checkedInAt ? (
                      <span className="badge badge--success checkin-attendees__badge" title={formatDateTime(attendee.checkedInAt)}>
                        {t('tickets.in')} · {shortWhen(attendee.checkedInAt)}
                      </span>
                    ) : (
                      <span className="badge badge--pending checkin-attendees__badge">{t('tickets.notYet')}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {fromPages ? (
            <LoadMore shown={rows.length} total={pages.total} hasMore={pages.hasMore} loading={pages.loadingMore} error={pages.loadMoreError} onLoadMore={pages.loadMore} />
          ) : null}
        </div>
      )}
    </section>
  );
}
