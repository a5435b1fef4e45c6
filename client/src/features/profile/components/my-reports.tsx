/*
 * PROFILE › "My reports": what I reported and what the moderators did (also emailed). Shown only when there
 * is a report.
 */
import { useQuery } from '@tanstack/react-query';
import { formatDateTime } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { getMyReports, REPORT_REASONS, type MyReport, type ReportKind } from '../../../lib/report-api';

/** The reason's label in the current language (the labels are read when shown). */
const reasonLabel = (value: string) => REPORT_REASONS.find((reason) => reason.value === value)?.label ?? value;

const KIND: Record<ReportKind, string> = {
  comment: 'profile.reportedComment',
  review: 'profile.reportedReview',
  thread: 'profile.reportedThread',
  post: 'profile.reportedPost',
  message: 'profile.reportedMessage',
  user: 'profile.reportedUser',
};

const OUTCOME: Record<NonNullable<MyReport['outcome']>, string> = {
  dismiss: 'profile.outcomeDismiss',
  hide: 'profile.outcomeHide',
  unhide: 'profile.outcomeUnhide',
  delete: 'profile.outcomeDelete',
  warn: 'profile.outcomeWarn',
  suspend: 'profile.outcomeSuspend',
  ban: 'profile.outcomeBan',
  lift: 'profile.outcomeLift',
};

export function MyReports({ userId }: { userId: string }) {
  const t = useT();
  const { data } = useQuery({ queryKey: ['my-reports', userId], queryFn: ({ signal }) => getMyReports(signal) });
  const reports = data ?? [];
  if (reports.length === 0) return null;
  return (
    <section className="profile-section" aria-labelledby="my-reports-heading">
      <div className="profile-section__header">
        <h2 id="my-reports-heading">{t('profile.myReports')}</h2>
      </div>
      <ul className="blocked-users">
        {reports.map((report) => (
          <li key={report._id} className="blocked-users__item card">
            <span>
              <strong>{t(KIND[report.kind])}</strong> · {reasonLabel(report.reason)} · {formatDateTime(report.createdAt)}
            </span>
            <span className={`badge ${report.status === 'open' ? 'badge--pending' : 'badge--success'}`}>
              {t(report.status === 'open' || !report.outcome ? 'profile.waitingForModerator' : OUTCOME[report.outcome])}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
