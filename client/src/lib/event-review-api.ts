/*
 * Organisers' changes to published events waiting for review (docs/decisions/events.md, "Edits of a published
 * event"): the organiser's view and withdrawal (/edit-event), the admin's queue, approval and rejection (/admin).
 */
import type { ListedEvent } from '../types/api';
import { api } from './api-client';

const seg = (value: string) => encodeURIComponent(value);

export type ReviewedField = 'title' | 'description' | 'image' | 'date' | 'location' | 'price';

/** One changed field: the published value beside the proposed one (a date as ISO, a price in shillings, 0 = free). */
export interface FieldChange {
  field: ReviewedField;
  from: string | number | null;
  to: string | number | null;
}

export interface PendingChange {
  eventId: string;
  status: 'pending' | 'rejected';
  /** A new date or place, or a higher price: sales are paused until the admin decides. */
  pausesSales: boolean;
  proposedAt: string;
  decidedAt: string | null;
  rejectReason: string | null;
  changes: FieldChange[];
}

export interface QueuedChange extends PendingChange {
  proposedBy: string;
  /** The published version. */
  event: ListedEvent;
}

/** GET /api/events/:id/pending-change (organiser or admin) -> the set waiting, the last rejected one, or null. */
export async function getPendingChange(eventId: string, signal?: AbortSignal): Promise<PendingChange | null> {
  const { data } = await api.get<{ pendingChange: PendingChange | null }>(`/events/${seg(eventId)}/pending-change`, { signal });
  return data.pendingChange;
}

/** DELETE /api/events/:id/pending-change -> withdrawn (or a rejected set dismissed). */
export async function withdrawPendingChange(eventId: string): Promise<void> {
  await api.delete(`/events/${seg(eventId)}/pending-change`);
}

/** GET /api/events/admin/changes -> the sets waiting, oldest first. */
export async function getQueuedChanges(signal?: AbortSignal): Promise<QueuedChange[]> {
  const { data } = await api.get<{ items: QueuedChange[] }>('/events/admin/changes', { signal });
  return data.items;
}

/** PUT /api/events/admin/changes/:id/approve -> the event as now published, and how many holders are emailed. */
export async function approveChange(eventId: string): Promise<{ holdersNotified: number }> {
  const { data } = await api.put<{ holdersNotified?: number }>(`/events/admin/changes/${seg(eventId)}/approve`, {});
  return { holdersNotified: data.holdersNotified ?? 0 };
}

/** PUT /api/events/admin/changes/:id/reject {reason?}. */
export async function rejectChange(eventId: string, reason: string): Promise<void> {
  await api.put(`/events/admin/changes/${seg(eventId)}/reject`, reason ? { reason } : {});
}
