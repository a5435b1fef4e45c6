/*
 * EVENT DASHBOARD API (server/src/modules/dashboard, /api/docs "Events"): GET /api/events/:id/dashboard for
 * the organiser or an admin, as JSON or (format=csv) one of its tables as a file.
 */
import { api } from '../../../lib/api-client';

const seg = (value: string) => encodeURIComponent(value);

export interface ShillingsTotal {
  count: number;
  amount: number;
}

export interface DailySales {
  /** Nairobi calendar day, YYYY-MM-DD. */
  day: string;
  /** Tickets issued that day (later cancellations do not unsell them). */
  tickets: number;
  /** Whole shillings received that day, before refunds. */
  revenue: number;
}

export interface HourlyCheckIns {
  /** Nairobi wall-clock hour, YYYY-MM-DDTHH:00. */
  hour: string;
  checkedIn: number;
}

export interface TicketTypeFigures {
  name: string;
  price: number;
  /** Valid tickets of the type. */
  sold: number;
  /** Seats reserved by a deposit (docs/decisions/instalments.md), and what they paid so far. */
  reserved?: number;
  reservedPaid?: number;
  /** The type's own seat limit; null: only the event's capacity (if any) limits it. */
  capacity: number | null;
  /** What its valid tickets were paid (after promo codes). */
  revenue: number;
}

export interface PromoCodeFigures {
  code: string;
  /** Paid orders that used it. */
  uses: number;
  /** Shillings it took off them. */
  discount: number;
}

export interface EventDashboard {
  eventId: string;
  event: { title: string; date: string; status: 'pending' | 'approved' | 'cancelled'; isPaid: boolean; ticketPrice: number };
  currency: 'KES';
  totals: {
    /** Valid tickets. */
    ticketsSold: number;
    capacity: number | null;
    checkedIn: number;
    /** Successful payments. */
    grossRevenue: number;
    /** Refunds paid out. */
    refunded: ShillingsTotal;
    /** Refunds due or sent, not yet confirmed. */
    refundsPending: ShillingsTotal;
    /** grossRevenue less refunded. */
    revenue: number;
  };
  /** Every day from the first sale to the last, oldest first. */
  salesByDay: DailySales[];
  /** Every hour from the first check-in to the last, oldest first. */
  checkInsByHour: HourlyCheckIns[];
  /** In the order buyers see them; at least one. */
  types: TicketTypeFigures[];
  /** Oldest first; empty without codes. */
  promoCodes: PromoCodeFigures[];
}

export async function getEventDashboard(eventId: string, signal?: AbortSignal): Promise<EventDashboard> {
  const { data } = await api.get<EventDashboard>(`/events/${seg(eventId)}/dashboard`, { signal });
  return data;
}

/** The dashboard's tables the server writes as CSV. */
export type DashboardTable = 'sales' | 'types' | 'promo-codes';

/** One table as the server writes it (text/csv): the daily sales, the ticket types or the promo codes. */
export async function getDashboardCsv(eventId: string, table: DashboardTable): Promise<Blob> {
  const { data } = await api.get<Blob>(`/events/${seg(eventId)}/dashboard`, { params: { format: 'csv', table }, responseType: 'blob' });
  return data;
}
