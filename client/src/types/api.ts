/**
 * Shapes exchanged with the API (documented at /api/docs; what the product does: docs/product.md).
 * `_id` values are plain strings everywhere.
 */

import type { RefundPolicy } from '@tukio/shared/refund-policy';

export type UserRole = 'admin' | 'user' | (string & {});

/** User as returned by the API. */
/** Who pays the platform fee (docs/decisions/fees.md). */
export type FeeMode = 'absorbed' | 'on_top';

export interface ApiUser {
  _id: string;
  username: string;
  email?: string;
  /** Base64-encoded SVG markup (render as `data:image/svg+xml;base64,...`). */
  avatarImage?: string;
  isAvatarImageSet?: boolean;
  role?: UserRole;
}

/** The user record kept in localStorage after login (docs/product.md). */
export interface StoredUser {
  _id: string;
  username: string;
  avatarImage?: string;
  isAvatarImageSet: boolean;
}

/** Account calls answer failures as 2xx `{status:false, msg}`. */
export interface StatusResponse {
  status: boolean;
  msg?: string;
}

export interface LoginResponse extends StatusResponse {
  token?: string;
  user?: ApiUser;
  /** Set on a failed login when the account's email is not verified yet. */
  unverified?: boolean;
}

export interface UserResponse {
  user: ApiUser;
}

export interface SetAvatarResponse {
  isSet: boolean;
  image?: string;
}

export interface MessageResponse {
  msg: string;
}

/** `cancelled` is final: tickets are void and every buyer is refunded (POST /api/events/:id/cancel). */
export type EventStatus = 'approved' | 'pending' | 'cancelled';

export interface TukioEvent {
  _id: string;
  title: string;
  description: string;
  /** ISO date-time with a `T`. */
  date: string;
  startDate?: string;
  location: string;
  image?: string | null;
  status: EventStatus;
  isPaid: boolean;
  /** The cheapest ticket type's price (the only one's, for most events). */
  ticketPrice: number;
  /** The dearest ticket type's price; above ticketPrice when prices differ (absent on old servers). */
  ticketPriceMax?: number;
  capacity?: number | null;
  /** Array of user id strings. */
  registeredUsers: string[];
  /** Creator id. */
  user: string;
  latitude?: number | null;
  longitude?: number | null;
  openedCount?: number;
  /** Set when `status` is 'cancelled': the organiser's or admin's words, and when (ISO). */
  cancelReason?: string | null;
  cancelledAt?: string | null;
  /** What a holder gets back when cancelling their own tickets (absent on old servers: no refunds). */
  refundPolicy?: RefundPolicy;
  /** `on_top` when buyers pay the platform fee on top of the price; absent, it comes out of the price (the default). */
  feeMode?: FeeMode;
  /** Valid tickets issued (void ones hold no seat). */
  ticketsSold?: number;
  /** Only on an event series (docs/decisions/event-series.md): every date, cancelled ones included, earliest first. */
  dates?: EventDate[];
  /** Only on an event series: the next active date not started yet (null when none is left). */
  nextDate?: EventDate | null;
}

/** One date of an event series. */
export interface EventDate {
  _id: string;
  /** Wall-clock time as UTC, like an event's `date`. */
  startsAt: string;
  endsAt: string | null;
  capacity: number | null;
  status: 'active' | 'cancelled';
}

/** An event as the server returns it; `seatsLeft` is null without a capacity, absent on old servers. */
export type EventItem = TukioEvent & { seatsLeft?: number | null };

/** An event in a paged list (GET /api/admin/events, /api/events/user/:id/paged): no `registeredUsers`, which grows with the attendees. */
export type ListedEvent = Omit<EventItem, 'registeredUsers'>;

/** Where one ticket type's sale stands now. */
export type TicketTypeState = 'on_sale' | 'not_started' | 'ended' | 'sold_out';

/** One of an event's ticket types (GET /api/events/:id/ticket-types). Dates are wall-clock ISO, like event dates. */
/** A ticket type's instalment plan: the due date is a wall-clock time like event dates. */
export interface InstalmentPlanView {
  depositPercent: number;
  dueDate: string;
  cancellationFee: number;
  /** The deposit of one ticket at its price. */
  depositAmount: number;
}

export interface TicketTypeView {
  _id: string;
  name: string;
  /** Whole shillings. */
  price: number;
  capacity: number | null;
  salesStart: string | null;
  salesEnd: string | null;
  maxPerOrder: number;
  /** Paying in parts (docs/decisions/instalments.md); null: paid in one go. */
  instalments?: InstalmentPlanView | null;
  /** Only on an event series: the one date it is sold for, or a pass for every date. */
  dateId?: string;
  allDates?: true;
  sold: number;
  /** Seats of reservations (a deposit paid, tickets not issued yet). */
  reserved?: number;
  /** What can still be bought of it (its own and the event-wide capacity); null when unlimited. */
  seatsLeft: number | null;
  state: TicketTypeState;
}

export interface TicketTypesView {
  eventId: string;
  capacity: number | null;
  seatsLeft: number | null;
  /** In the order buyers see them. */
  ticketTypes: TicketTypeView[];
}

export interface Transaction {
  name: string;
  checkoutRequestId: string;
  phoneNumber: string;
  amount: number;
  date?: string;
  paymentStatus: string;
  createdAt?: string;
}
