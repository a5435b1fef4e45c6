/*
 * Reporting abuse (server/src/modules/moderation): shared because comments, reviews, forums, chat and
 * profiles all offer it. The reported person is never told who reported them.
 */
import { api } from './api-client';

export type ReportKind = 'comment' | 'review' | 'thread' | 'post' | 'message' | 'user';
export type ReportReason = 'spam' | 'harassment' | 'hate' | 'scam' | 'other';

export const REPORT_REASONS: ReadonlyArray<{ value: ReportReason; label: string }> = [
  { value: 'spam', label: 'Spam or advertising' },
  { value: 'harassment', label: 'Harassment or bullying' },
  { value: 'hate', label: 'Hate speech' },
  { value: 'scam', label: 'Scam or fraud' },
  { value: 'other', label: 'Something else' },
];

export const REPORT_KIND_LABELS: Record<ReportKind, string> = {
  comment: 'comment',
  review: 'review',
  thread: 'thread',
  post: 'post',
  message: 'message',
  user: 'user',
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
