/*
 * Reporting abuse (server/src/modules/moderation): shared because comments, reviews, forums, chat and
 * profiles all offer it. The reported person is never told who reported them.
 */
import { api } from './api-client';
import { t } from './i18n';

export type ReportKind = 'comment' | 'review' | 'thread' | 'post' | 'message' | 'user';
export type ReportReason = 'spam' | 'harassment' | 'hate' | 'scam' | 'other';

/** A reason whose label is read in the language of the moment (a getter, not a text frozen at import). */
function reason(value: ReportReason, labelKey: string): { value: ReportReason; label: string } {
  return {
    value,
    get label() {
      return t(labelKey);
    },
  };
}

/** Labels in the current language (getters). */
export const REPORT_REASONS: ReadonlyArray<{ value: ReportReason; label: string }> = [
  reason('spam', 'ui.reasonSpam'),
  reason('harassment', 'ui.reasonHarassment'),
  reason('hate', 'ui.reasonHate'),
  reason('scam', 'ui.reasonScam'),
  reason('other', 'ui.reasonOther'),
];

export const REPORT_KIND_LABELS: Record<ReportKind, string> = {
  get comment() {
    return t('ui.kindComment');
  },
  get review() {
    return t('ui.kindReview');
  },
  get thread() {
    return t('ui.kindThread');
  },
  get post() {
    return t('ui.kindPost');
  },
  get message() {
    return t('ui.kindMessage');
  },
  get user() {
    return t('ui.kindUser');
  },
};

/** POST /api/moderation/reports (auth) -> 201 {status, msg, report}; 409 when already reported. */
export async function sendReport(input: { kind: ReportKind; id: string; reason: ReportReason; details: string }): Promise<string> {
  const { data } = await api.post<{ msg: string }>('/moderation/reports', input);
  return data.msg;
}

export interface MyReport {
  _id: string;
  kind: ReportKind;
  id: string;
  reason: ReportReason;
  details: string;
  status: 'open' | 'resolved';
  /** The moderator's action once resolved. */
  outcome: 'dismiss' | 'hide' | 'unhide' | 'delete' | 'warn' | 'suspend' | 'ban' | 'lift' | null;
  createdAt: string;
}

/** GET /api/moderation/reports/mine -> {reports}, newest first. */
export async function getMyReports(signal?: AbortSignal): Promise<MyReport[]> {
  const { data } = await api.get<{ reports?: MyReport[] }>('/moderation/reports/mine', { signal });
  return Array.isArray(data?.reports) ? data.reports : [];
}
