/* Tickets, check-in and transactions on the API server (docs/payments.md, "API server endpoints"). */
import type { RefundPolicy } from '@tukio/shared/refund-policy';
import type { ListPage } from '../../../hooks/use-paged-list';
import type { FeeMode } from '../../../types/api';
import { api } from '../../../lib/api-client';
import { pagePath } from '../../../lib/page-path';
import { t } from '../../../lib/i18n';

const seg = (value: string) => encodeURIComponent(value);

/** POST /api/events/register/:id {userId, tickets} -> {message} (free events; paid ones after payment). */
export async function registerForEvent(id: string, userId: string, tickets: number, dateId?: string): Promise<string> {
  // dateId: the date registered for on a free event series (docs/decisions/event-series.md).
  const { data } = await api.post<{ message?: string; msg?: string }>(`/events/register/${seg(id)}`, { userId, tickets, ...(dateId ? { dateId } : {}) });
  return data?.message ?? data?.msg ?? t('tickets.registeredForEvent');
}

export interface MyTicket {
  _id: string;
  /** Signed code `TK1.<payload>.<signature>` carried by the QR code. */
  code: string;
  checkedInAt: string | null;
  createdAt: string;
  orderId: string | null;
  /** Set when the ticket no longer admits anyone: its event was cancelled, the holder cancelled it, or it was transferred. */
  voidedAt?: string | null;
  voidReason?: 'event_cancelled' | 'self_cancel' | 'transferred' | 'payment_reversed' | null;
  /** The ticket this one replaced when it was transferred to this user. */
  transferredFrom?: string | null;
  /** Whole shillings paid for this ticket (0 when free). */
  pricePaid?: number;
  /** Whether this user paid for it: false when free or received by transfer (the buyer gets any refund); absent on old servers. */
  paidByHolder?: boolean;
  /** The ticket type it was bought as (absent on old servers). */
  ticketType?: { _id: string; name: string } | null;
  /** Only on an event series (docs/decisions/event-series.md): the date this ticket admits on (null for a pass for every date). */
  seriesDate?: { _id: string; startsAt: string } | null;
  /** Only on an event series: a pass admitted once on each date. */
  allDates?: boolean;
  /** Whether the holder may cancel it now (the event's refund policy), why not, and the percent refunded. */
  selfCancel?: { allowed: boolean; reason: string | null; refundPercent: number };
  event: {
    _id: string;
    title: string;
    date: string;
    location: string;
    image?: string | null;
    isPaid: boolean;
    ticketPrice: number;
    status?: 'approved' | 'pending' | 'cancelled';
    refundPolicy?: RefundPolicy;
  };
}

/** GET /api/tickets/mine -> every ticket of the caller (the ticket box reads which dates of a free series they hold). */
export async function getMyTickets(signal?: AbortSignal): Promise<MyTicket[]> {
  const { data } = await api.get<MyTicket[]>('/tickets/mine', { signal });
  return Array.isArray(data) ? data.filter((ticket) => ticket && ticket.event) : [];
}

/** A ticket in a page of My Tickets: its place among the holder's tickets for the same event, whatever page they are on. */
export type MyPagedTicket = MyTicket & { position?: { index: number; of: number } };

/** GET /api/tickets/mine/paged?cursor= -> a page of the caller's tickets (the first page is the path alone, which /profile reads early). */
export async function getMyTicketPage(cursor: string | null, signal?: AbortSignal): Promise<ListPage<MyPagedTicket>> {
  const { data } = await api.get<ListPage<MyPagedTicket>>(pagePath('/tickets/mine/paged', cursor), { signal });
  return { ...data, items: Array.isArray(data?.items) ? data.items.filter((ticket) => ticket && ticket.event) : [] };
}

/** POST /api/tickets/cancel {ticketIds} (the caller's tickets of one event) -> {msg, cancelled, refundAmount}. */
export async function cancelTickets(ticketIds: string[]): Promise<{ msg: string; cancelled: number; refundAmount: number }> {
  const { data } = await api.post<{ msg: string; cancelled: number; refundAmount: number }>('/tickets/cancel', { ticketIds });
  return data;
}

/** POST /api/tickets/:id/transfer {to: username or email} -> {message, to:{username}}. */
export async function transferTicket(ticketId: string, to: string): Promise<{ message: string; to: { _id: string; username: string } }> {
  const { data } = await api.post<{ message: string; to: { _id: string; username: string } }>(`/tickets/${seg(ticketId)}/transfer`, { to });
  return data;
}

export interface TicketPublicKey {
  algorithm: string;
  pem?: string;
  jwk: { kty: string; crv: string; x: string };
  codeFormat?: string;
}

/** GET /api/tickets/public-key (public). */
export async function getTicketPublicKey(signal?: AbortSignal): Promise<TicketPublicKey> {
  const { data } = await api.get<TicketPublicKey>('/tickets/public-key', { signal, skipAuth: true });
  return data;
}

export interface CheckInResult {
  message: string;
  ticket: { _id: string; userId: string; checkedInAt: string };
}

/** POST /api/events/:id/checkin {code, device}: 200 checked in; 409 already used ({checkedInAt, checkedInDevice}); 400 invalid. */
export async function checkInTicket(eventId: string, code: string, device?: string, dateId?: string): Promise<CheckInResult> {
  const { data } = await api.post<CheckInResult>(`/events/${seg(eventId)}/checkin`, { code, ...(device ? { device } : {}), ...(dateId ? { dateId } : {}) });
  return data;
}

export type VoidReason = 'event_cancelled' | 'self_cancel' | 'transferred' | 'payment_reversed';

/** One ticket of GET /api/events/:id/gate-list: void ones too, so a gate refuses them offline. */
export interface GateTicket extends Attendee {
  checkedInDevice: string | null;
  voidedAt: string | null;
  voidReason: VoidReason | null;
  /** Only on an event series: the date the ticket admits on (null: a pass for every date). */
  dateId?: string | null;
  /** Only on an event series: the dates it was admitted on (a pass once on each). */
  dateCheckins?: Array<{ dateId: string; checkedInAt: string; device: string | null }>;
}

/** A scan of a ticket that another scan admitted first. */
export interface FlaggedScan {
  ticketId: string;
  username: string;
  device: string | null;
  scannedAt: string;
  first: { device: string | null; scannedAt: string };
  /** Only on an event series: the date the scan was for. */
  dateId?: string | null;
}

export interface GateList {
  eventId: string;
  generatedAt: string;
  publicKey: { algorithm: string; jwk: TicketPublicKey['jwk'] };
  tickets: GateTicket[];
  flagged: FlaggedScan[];
}

/** GET /api/events/:id/gate-list (organiser or admin): what a gate device keeps to check tickets offline. */
export async function getGateList(eventId: string, signal?: AbortSignal): Promise<GateList> {
  const { data } = await api.get<GateList>(`/events/${seg(eventId)}/gate-list`, { signal });
  return data;
}

export interface OfflineScanInput {
  ticketCode: string;
  scannedAt: string;
  device: string;
  /** On an event series: the date the desk admits for (docs/decisions/event-series.md). */
  dateId?: string;
}

export type SyncedScan = OfflineScanInput &
  (
    | { status: 'accepted'; ticketId: string; checkedInAt: string }
    | { status: 'duplicate'; ticketId: string; first: { device: string | null; scannedAt: string }; message: string }
    | { status: 'void'; ticketId: string; voidReason: VoidReason; voidedAt: string; message: string }
    | { status: 'invalid'; message: string }
  );

/** POST /api/events/:id/checkin/sync: the device's offline scans, each answered accepted | duplicate | void | invalid. */
export async function syncScans(eventId: string, scans: OfflineScanInput[]): Promise<{ results: SyncedScan[] }> {
  const { data } = await api.post<{ results: SyncedScan[] }>(`/events/${seg(eventId)}/checkin/sync`, { sentAt: new Date().toISOString(), scans });
  return data;
}

export interface Attendee {
  ticketId: string;
  userId: string;
  username: string;
  email: string;
  orderId: string | null;
  issuedAt: string;
  checkedInAt: string | null;
  /** The buyer's answers to the event's checkout questions for this ticket; only when the event asks any. */
  answers?: Array<{ questionId: string; label: string; answer: string }>;
}

/** One page of the attendees, with how many of the whole list are checked in. */
export interface AttendeePage extends ListPage<Attendee> {
  checkedIn: number;
}

/** GET /api/events/:id/attendees/paged (creator or admin) -> one page of the attendees in username order. */
export async function getAttendeePage(eventId: string, cursor: string | null, signal?: AbortSignal): Promise<AttendeePage> {
  const { data } = await api.get<AttendeePage>(pagePath(`/events/${seg(eventId)}/attendees/paged`, cursor), { signal });
  return data;
}

/** GET /api/events/:id/attendees?format=csv as a file (the token goes in the header, so not a plain link). */
export async function getAttendeesCsv(eventId: string): Promise<Blob> {
  const { data } = await api.get<Blob>(`/events/${seg(eventId)}/attendees`, { params: { format: 'csv' }, responseType: 'blob' });
  return data;
}

/** A payment attempt as the server recorded it (every attempt, failed and cancelled too). */
export interface TransactionRecord {
  _id?: string;
  name: string;
  eventId?: string;
  checkoutRequestId: string;
  phoneNumber: string;
  amount: number;
  quantity?: number;
  date?: string;
  paymentStatus: string;
  orderStatus?: string;
  resultDesc?: string | null;
  createdAt?: string;
  mpesaReceiptNumber?: string | null;
  /** Money going back for this payment (event cancelled, sold out): null when none is owed. */
  refundStatus?: RefundStatus | null;
  /** Whole shillings refunded (or being refunded). */
  refundAmount?: number | null;
  /** The M-Pesa receipt of the refund, once it arrived. */
  refundReceipt?: string | null;
  /** The platform fee inside `amount` (absent on old servers) and who bore it. */
  fee?: number;
  feeMode?: FeeMode;
}

/** due → sent → succeeded, or failed (after every automatic attempt; an admin sends it again). */
export type RefundStatus = 'due' | 'sent' | 'succeeded' | 'failed';

/** GET /api/transactions/:userId/paged?cursor= (self or admin) -> a page of them, newest first. */
export async function getTransactionPage(userId: string, cursor: string | null, signal?: AbortSignal): Promise<ListPage<TransactionRecord>> {
  const { data } = await api.get<ListPage<TransactionRecord>>(pagePath(`/transactions/${seg(userId)}/paged`, cursor), { signal });
  return data;
}

/** The user's role (GET /api/auth/user/:id); the stored user record has none. */
export async function getRole(userId: string, signal?: AbortSignal): Promise<string | null> {
  const { data } = await api.get<{ user?: { role?: string } }>(`/auth/user/${seg(userId)}`, { signal });
  // null, not undefined, for an answer without a role: a query may not resolve to undefined.
  return data?.user?.role ?? null;
}

/** The caller's team roles (server module teams): each role with the events it covers. */
export async function getTeamRoles(signal?: AbortSignal): Promise<Array<{ role: string; eventIds: string[] }>> {
  const { data } = await api.get<Array<{ role: string; events: Array<{ _id: string }> }>>('/teams/memberships/mine', { signal });
  return data.map((membership) => ({ role: membership.role, eventIds: membership.events.map((event) => event._id) }));
}

/** A buyer's place in the line of a busy sale (server/src/modules/waiting-room). */
export interface QueuePlace {
  inLine: boolean;
  admitted: boolean;
  /** People ahead, the buyer included; 0 once admitted; null when not in line. */
  position: number | null;
  etaSeconds: number;
  pollAfterMs: number;
  soldOut: boolean;
}

/** POST /api/events/:id/queue: takes a place in the sale's line before buying (admitted at once while nobody waits). */
export async function joinQueue(eventId: string, guestPhone: string | null): Promise<QueuePlace> {
  const { data } = await api.post<QueuePlace>(`/events/${seg(eventId)}/queue`, guestPhone ? { phone: guestPhone } : {});
  return data;
}

/** GET /api/events/:id/queue (a guest names the purchase's phone). */
export async function getQueuePlace(eventId: string, guestPhone: string | null, signal?: AbortSignal): Promise<QueuePlace> {
  const { data } = await api.get<QueuePlace>(`/events/${seg(eventId)}/queue`, { params: guestPhone ? { phone: guestPhone } : undefined, signal });
  return data;
}
