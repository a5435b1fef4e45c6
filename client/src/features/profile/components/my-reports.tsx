/*
 * PROFILE › "My reports": what I reported and what the moderators did (also emailed). Shown only when there
 * is a report.
 */
import { useFetch } from '../../../hooks/use-fetch';
import { formatDateTime } from '../../../lib/format';
import { getMyReports, REPORT_KIND_LABELS, REPORT_REASONS, type MyReport } from '../../../lib/report-api';

const REASON = Object.fromEntries(REPORT_REASONS.map((reason) => [reason.value, reason.label]));

const OUTCOME: Record<NonNullable<MyReport['outcome']>, string> = {
  dismiss: 'Reviewed: not against the rules',
  hide: 'Hidden by a moderator',
  unhide: 'Reviewed: left visible',
  delete: 'Removed by a moderator',
  warn: 'The author was warned',
  suspend: 'The author was suspended',
  ban: 'The author was banned',
  lift: 'Reviewed',
};

export function MyReports({ userId }: { userId: string }) {
  const { data } = useFetch(`my-reports:${userId}`, (signal) => getMyReports(signal));
  const reports = data ?? [];
  if (reports.length === 0) return null;
  return (
    <section className="profile-section" aria-labelledby="my-reports-heading">
      <div className="profile-section__header">
        <h2 id="my-reports-heading">My reports</h2>
      </div>
      <ul className="blocked-users">
        {reports.map((report) => (
          <li key={report._id} className="blocked-users__item card">
            <span>
              <strong>A {REPORT_KIND_LABELS[report.kind]}</strong> · {REASON[report.reason] ?? report.reason} · {formatDateTime(report.createdAt)}
            </span>
            <span className={`badge ${report.status === 'open' ? 'badge--pending' : 'badge--success'}`}>
              {report.status === 'open' || !report.outcome ? 'Waiting for a moderator' : OUTCOME[report.outcome]}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
