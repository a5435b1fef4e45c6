/*
 * EVENTS API (see /api/docs and server/src/modules/events). Calls send the
 * bearer token when one is stored, so an organiser or admin also sees their own pending events on
 * the detail and edit pages.
 */
import type { RefundPolicy } from '@tukio/shared/refund-policy';
import type { PendingChange } from '../../../lib/event-review-api';
import { api } from '../../../lib/api-client';
import type { RefundReason, RefundStatus } from '../../../lib/refund-labels';
import type { EventItem, FeeMode, TicketTypesView } from '../../../types/api';
import { asArray } from './public-events-api';

const seg = (value: string) => encodeURIComponent(value);

// Shared with the admin and tickets features, so it lives in src/types.
export type { EventItem };


/** GET /api/events/:id -> the event (404 when unknown or not visible to the caller). */
export async function getEvent(id: string, signal?: AbortSignal): Promise<EventItem> {
  return (await api.get<EventItem>(`/events/${seg(id)}`, { signal })).data;
}

/** GET /api/events/:id/related -> at most 3 other events. */
export async function getRelatedEvents(id: string, signal?: AbortSignal): Promise<EventItem[]> {
  return asArray<EventItem>((await api.get(`/events/${seg(id)}/related`, { signal })).data);
}

/** POST /api/events/incrementOpenedCount/:id (no body). Failures are irrelevant to the visitor. */
export async function countEventOpened(id: string): Promise<void> {
  await api.post(`/events/incrementOpenedCount/${seg(id)}`, null, { skipSessionReset: true });
}

export type SharePlatform = 'whatsapp' | 'twitter' | 'instagram';

/** POST /api/events/share-track/:id {platform} -> {msg, shares}. */
export async function trackShare(id: string, platform: SharePlatform): Promise<void> {
  await api.post(`/events/share-track/${seg(id)}`, { platform }, { skipSessionReset: true });
}

export interface NewEventInput {
  title: string;
  description: string;
  /** `YYYY-MM-DDTHH:mm` wall-clock time. */
  date: string;
  location: string;
  latitude: number | null;
  longitude: number | null;
  user: string;
  image: string | null;
  isPaid: boolean;
  ticketPrice: number;
  capacity: number | null;
  refundPolicy?: RefundPolicy;
  feeMode?: FeeMode;
}

/** POST /api/events/addevnt (auth) -> the created event, status pending. */
export async function createEvent(input: NewEventInput): Promise<EventItem> {
  const { data } = await api.post<EventItem>('/events/addevnt', input);
  return data;
}

export interface EventUpdateInput {
  title?: string;
  description?: string;
  date?: string;
  location?: string;
  latitude?: number | null;
  longitude?: number | null;
  capacity?: number | null;
  refundPolicy?: RefundPolicy;
  feeMode?: FeeMode;
  /** Admin only. */
  status?: 'approved' | 'pending';
}

/**
 * The saved event (the published version, for an organiser's edit of a published event); `pendingChange` when
 * that edit waits for review beside it, with `msg` to show. `reReview` is always false now.
 */
export type EventUpdateResult = EventItem & { reReview?: boolean; msg?: string; pendingChange?: PendingChange | null };

/** PUT /api/events/:id (owner or admin) -> the event. */
export async function updateEvent(id: string, input: EventUpdateInput): Promise<EventUpdateResult> {
  const { data } = await api.put<EventUpdateResult>(`/events/${seg(id)}`, input);
  return data;
}

/** The organiser's reason for cancelling, as POST /api/events/:id/cancel accepts it (characters, trimmed). */
/** One ticket type as the organiser sets it; `_id` names an existing one (absent: a new one). */
export interface TicketTypeInput {
  _id?: string;
  name: string;
  price: number;
  capacity: number | null;
  /** Wall-clock `YYYY-MM-DDTHH:mm`, or null (on sale from publication / until the start). */
  salesStart: string | null;
  salesEnd: string | null;
  /** Null for the most an order may hold. */
  maxPerOrder: number | null;
  /** Paying in parts (docs/decisions/instalments.md): due date a wall-clock `YYYY-MM-DDTHH:mm`; null: paid in one go. */
  instalments?: { depositPercent: number; dueDate: string; cancellationFee: number } | null;
  /** On an event series: the one date it is sold for (null: not tied to one), or a pass for every date. */
  dateId?: string | null;
  allDates?: boolean;
}

/**
 * PUT /api/events/:id/ticket-types {ticketTypes} (organiser or admin): replaces the list, in the order buyers
 * see it -> the types as GET returns them. 400 names the field (`ticketTypes.1.price`); 409 when a bought type
 * is removed or a capacity goes below what is sold.
 */
export async function saveTicketTypes(id: string, ticketTypes: TicketTypeInput[]): Promise<TicketTypesView> {
  const { data } = await api.put<TicketTypesView>(`/events/${seg(id)}/ticket-types`, { ticketTypes });
  return data;
}

export const CANCEL_REASON_MIN = 3;
export const CANCEL_REASON_MAX = 500;

/** What cancelling answered: the server's words and the event as it now is. */
export interface CancelEventResult {
  msg: string | null;
  event: EventItem;
}

/**
 * POST /api/events/:id/cancel {reason} (organiser or admin): the server voids every ticket and refunds every
 * buyer; 409 when it already was cancelled. The answer is a summary (`{msg, cancelledAt, ticketsVoided, …}`),
 * so the event (`status: 'cancelled'`, `cancelReason`, `cancelledAt`) is read again; `current` with the
 * cancellation applied stands in if that read fails.
 */
export async function cancelEvent(current: EventItem, reason: string): Promise<CancelEventResult> {
  const { data } = await api.post<{ msg?: unknown; cancelledAt?: unknown } | undefined>(`/events/${seg(current._id)}/cancel`, { reason });
  const msg = typeof data?.msg === 'string' && data.msg.trim() ? data.msg : null;
  const cancelledAt = typeof data?.cancelledAt === 'string' ? data.cancelledAt : new Date().toISOString();
  const event = await getEvent(current._id).catch(() => ({ ...current, status: 'cancelled' as const, cancelReason: reason, cancelledAt }));
  return { msg, event };
}

/** One refund of an event as its organiser sees it: the buyer by username only (no phone, no email). */
export interface EventRefund {
  refundId: string;
  username: string;
  /** Whole shillings going back. */
  amount: number;
  reason: RefundReason;
  status: RefundStatus;
  /** The refund's M-Pesa receipt, once paid. */
  receipt: string | null;
  createdAt: string;
  /** Its last change of status. */
  updatedAt: string;
}

export interface RefundTotal {
  count: number;
  amount: number;
}

/** GET /api/events/:id/refunds (organiser or admin): the tickets that left and the money going back. */
export interface EventRefunds {
  tickets: { cancelledByHolders: number; voidedByCancellation: number; transferred: number };
  total: RefundTotal;
  byStatus: Record<RefundStatus, RefundTotal>;
  /** Newest first. */
  refunds: EventRefund[];
}

export async function getEventRefunds(id: string, signal?: AbortSignal): Promise<EventRefunds> {
  const { data } = await api.get<EventRefunds>(`/events/${seg(id)}/refunds`, { signal });
  return data;
}

/** POST /api/uploads (auth, multipart field `file`) -> {url, secure_url}. */
export async function uploadImage(file: File): Promise<string> {
  const body = new FormData();
  body.append('file', file);
  const { data } = await api.post<{ url?: string; secure_url?: string }>('/uploads', body);
  const url = data?.secure_url ?? data?.url;
  if (!url) throw new Error('The image upload did not return an address.');
  return url;
}

export interface GeocodeResult {
  lat: number;
  lon: number;
  name: string;
}

/** GET /api/geocode?q= -> {lat, lon, name}; null when no place matches (404). */
export async function geocode(q: string, signal?: AbortSignal): Promise<GeocodeResult | null> {
  try {
    const { data } = await api.get<GeocodeResult>('/geocode', { params: { q }, signal, skipAuth: true });
    return typeof data?.lat === 'number' && typeof data?.lon === 'number' ? data : null;
  } catch (error) {
    if ((error as { response?: { status?: number } }).response?.status === 404) return null;
    throw error;
  }
}
