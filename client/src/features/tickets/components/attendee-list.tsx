/* The attendee list of the check-in page: who holds a ticket and who is already in. */
import { useState } from 'react';
import { notify } from '../../../lib/notify';
import { Button } from '../../../components/ui/button';
import { getErrorMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { getAttendeesCsv, type Attendee } from '../api/tickets-api';
import { saveFile } from '../lib/csv';
import { formatLocale, RichText, useT } from '../../../lib/i18n';


/** "2:57 PM" today, "Nov 22, 2:57 PM" on another day (full date and time in the title). */
function shortWhen(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const locale = formatLocale();
  return date.toDateString() === new Date().toDateString()
    ? new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(date)
    : new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(date);
}

export interface AttendeeListProps {
  eventId: string;
  attendees: Attendee[] | undefined;
  loading: boolean;
  error: unknown;
  online: boolean;
  onReload: () => void;
}

export function AttendeeList({ eventId, attendees, loading, error, online, onReload }: AttendeeListProps) {
  const t = useT();
  const [downloading, setDownloading] = useState(false);
  const list = attendees ?? [];
  const inside = list.filter((attendee) => attendee.checkedInAt).length;

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
          {t('tickets.attendees')}{attendees ? ` (${list.length})` : ''}
        </h2>
        <div className="button-row">
          <Button variant="secondary" className="btn--sm" onClick={onReload} disabled={loading || !online}>
            {t('tickets.refresh')}
          </Button>
          <Button className="btn--sm" loading={downloading} loadingText={t('tickets.preparing')} disabled={!online} onClick={() => void download()}>
            {t('tickets.downloadCsv')}
          </Button>
        </div>
      </div>
      {attendees ? (
        <p className="checkin-attendees__count" aria-live="polite">
          <RichText id="tickets.checkedInOf" values={{ total: list.length }} parts={{ inside: <strong>{inside}</strong> }} />
        </p>
      ) : null}
      {loading && !attendees ? (
        <p className="muted" role="status">
          {t('tickets.loadingAttendees')}
        </p>
      ) : error && !attendees ? (
        <p className="form-message form-message--error" role="alert">
          {online ? t('tickets.attendeesLoadFailed') : t('tickets.attendeesNeedConnection')}
        </p>
      ) : list.length === 0 ? (
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
              {list.map((attendee) => (
                <tr key={attendee.ticketId}>
                  <td>
                    <span className="checkin-attendees__name">{attendee.username}</span>
                    <span className="checkin-attendees__email">{attendee.email}</span>
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
        </div>
      )}
    </section>
  );
}
