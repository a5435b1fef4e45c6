/* Admin calls (docs/product.md /admin and /admpst). The bearer token is attached by the shared client. */
import type { ListPage } from '../../../hooks/use-paged-list';
import { api } from '../../../lib/api-client';
import type { DeleteEventResult } from '../../../lib/event-deletion';
import { pagePath } from '../../../lib/page-path';
import type { EventItem, ListedEvent, UserResponse } from '../../../types/api';

const seg = (value: string) => encodeURIComponent(value);

/** Events imported by the scraper belong to this system user. */
export const SYSTEM_USER_ID = '000000000000000000000001';

/** GET /api/auth/user/:id -> the role (the stored user record has none). */
export async function getUserRole(userId: string, signal?: AbortSignal): Promise<string | undefined> {
  const { data } = await api.get<UserResponse>(`/auth/user/${seg(userId)}`, { signal });
  return data?.user?.role;
}

export type AdminEventStatus = 'pending' | 'approved' | 'cancelled';

/** Which events an admin list holds, and in which order of date. */
export interface AdminEventFilter {
  status?: AdminEventStatus;
  /** One organiser's events (the scraper's system user on /admpst). */
  user?: string;
  /** Part of the title or the place. */
  q?: string;
  order?: 'asc' | 'desc';
}

export type AdminEventPage = ListPage<ListedEvent> & { counts: Record<AdminEventStatus | 'all', number> };

/** GET /api/admin/events?status=&user=&q=&order=&cursor= -> a page of events, with the count of each status. */
export async function getAdminEvents(filter: AdminEventFilter, cursor: string | null, signal?: AbortSignal): Promise<AdminEventPage> {
  const { data } = await api.get<AdminEventPage>(pagePath('/admin/events', cursor, { ...filter }), { signal });
  return data;
}

/** GET /api/events/:id with an admin token -> the server's copy of one event (after it was cancelled instead of deleted). */
export async function getEvent(id: string): Promise<EventItem> {
  const { data } = await api.get<EventItem>(`/events/${seg(id)}`);
  return data;
}

/** PUT /api/events/admin/approve/:id {} -> the event. */
export async function approveEvent(id: string): Promise<EventItem> {
  const { data } = await api.put<EventItem>(`/events/admin/approve/${seg(id)}`, {});
  return data;
}

/** PUT /api/events/admin/disapprove/:id {} -> the event (back to pending). */
export async function disapproveEvent(id: string): Promise<EventItem> {
  const { data } = await api.put<EventItem>(`/events/admin/disapprove/${seg(id)}`, {});
  return data;
}

/** DELETE /api/events/:id with an admin token -> {msg}, or {msg, cancelled: true} for an event with orders. */
export async function deleteEvent(id: string): Promise<DeleteEventResult> {
  const { data } = await api.delete<DeleteEventResult | undefined>(`/events/${seg(id)}`);
  return data ?? {};
}

export type RefundStatus = 'due' | 'sent' | 'succeeded' | 'failed';
export type RefundReason = 'sold_out' | 'event_cancelled' | 'late_payment' | 'self_cancel' | 'admin';

/** One refund: the money going back and the paid order it comes from. */
export interface RefundRow {
  /** The order's id. */
  _id: string;
  refundId: string;
  status: RefundStatus;
  reason: RefundReason;
  /** Whole shillings going back. */
  refundAmount: number;
  /** The payment's amount (what the buyer paid). */
  amount: number;
  method: 'reversal' | 'b2c';
  attempts: number;
  /** When the next automatic attempt may go (while due). */
  nextAttemptAt: string;
  /** The M-Pesa receipt of the refund, once paid. */
  receipt: string | null;
  orderId: string;
  eventId: string;
  eventTitle: string;
  userId: string;
  username: string;
  email: string;
  quantity: number;
  phoneNumber: string;
  checkoutRequestId: string;
  /** The receipt of the payment being refunded. */
  mpesaReceiptNumber: string | null;
  paidAt: string;
  flaggedAt: string;
}

/** GET /api/admin/refunds/paged?status=&cursor= -> a page of refunds, newest first; every state when `status` is empty. */
export async function getRefundsPage(status: RefundStatus | '', cursor: string | null, signal?: AbortSignal): Promise<ListPage<RefundRow>> {
  const { data } = await api.get<ListPage<RefundRow>>(pagePath('/admin/refunds/paged', cursor, { status }), { signal });
  return data;
}

/** POST /api/admin/refunds/:id/retry: a failed refund goes back in the queue (409 when it is not failed). */
export async function retryRefund(refundId: string): Promise<void> {
  await api.post(`/admin/refunds/${seg(refundId)}/retry`, {});
}
