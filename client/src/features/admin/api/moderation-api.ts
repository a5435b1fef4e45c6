/* The moderation queue, actions and log (server/src/modules/moderation; admins only). */
import type { ListPage } from '../../../hooks/use-paged-list';
import { api } from '../../../lib/api-client';
import { pagePath } from '../../../lib/page-path';
import type { ReportKind, ReportReason } from '../../../lib/report-api';

export type ModerationAction = 'dismiss' | 'hide' | 'unhide' | 'delete' | 'warn' | 'suspend' | 'ban' | 'lift';

interface Person {
  _id: string;
  username: string;
}

export interface QueueItem {
  kind: ReportKind;
  id: string;
  reportCount: number;
  firstReportedAt: string;
  /** Null once the item is gone: only dismissing is left. */
  item: { text: string; hidden: boolean; hiddenReason: string | null; createdAt: string | null } | null;
  event: { _id: string; title: string } | null;
  thread: { _id: string; title: string } | null;
  author: (Person & { role: string; suspendedUntil: string | null; bannedAt: string | null; warnings: number; suspensions: number; bans: number }) | null;
  context: {
    posts: Array<{ _id: string; parent: string | null; user: Person; content: string; hidden: boolean; createdAt: string }>;
    messages: Array<{ _id: string; from: Person; message: string; hidden: boolean; reported: boolean; createdAt: string }>;
  };
  reports: Array<{ _id: string; reason: ReportReason; details: string; createdAt: string; reporter: Person; automatic: boolean }>;
}

export interface LogEntry {
  _id: string;
  action: ModerationAction;
  kind: ReportKind;
  id: string;
  reason: string;
  days: number | null;
  excerpt: string;
  createdAt: string;
  admin: Person;
  user: Person | null;
}

const seg = (value: string) => encodeURIComponent(value);

/** GET /api/moderation/queue/paged?cursor= -> a page of the queue, the most reported first. */
export async function getModerationQueuePage(cursor: string | null, signal?: AbortSignal): Promise<ListPage<QueueItem>> {
  const { data } = await api.get<ListPage<QueueItem>>(pagePath('/moderation/queue/paged', cursor), { signal });
  return data;
}

/** POST /api/moderation/items/:kind/:id/actions {action, reason, days?, hideContent?} */
export async function moderate(kind: ReportKind, id: string, input: { action: ModerationAction; reason: string; days?: number; hideContent?: boolean }): Promise<void> {
  await api.post(`/moderation/items/${seg(kind)}/${seg(id)}/actions`, input);
}

/** GET /api/moderation/log/paged?cursor= -> a page of the log, newest first. */
export async function getModerationLogPage(cursor: string | null, signal?: AbortSignal): Promise<ListPage<LogEntry>> {
  const { data } = await api.get<ListPage<LogEntry>>(pagePath('/moderation/log/paged', cursor), { signal });
  return data;
}
