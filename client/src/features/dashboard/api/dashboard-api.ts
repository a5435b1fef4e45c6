/*
 * EVENT DASHBOARD API (server/src/modules/dashboard, /api/docs "Events"): GET /api/events/:id/dashboard for
 * the organiser or an admin, as JSON or (format=csv) the daily sales as a file.
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
  sold: number;
  /** null: no seat limit. */
  capacity: number | null;
  revenue: number;
}

export interface PromoCodeFigures {
  code: string;
  uses: number;
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
  /** One `General` entry until ticket types exist. */
  types: TicketTypeFigures[];
  /** Empty until promo codes exist. */
  promoCodes: PromoCodeFigures[];
}

export async function getEventDashboard(eventId: string, signal?: AbortSignal): Promise<EventDashboard> {
  const { data } = await api.get<EventDashboard>(`/events/${seg(eventId)}/dashboard`, { signal });
  return data;
}

/** The daily sales as the server writes them (text/csv). */
export async function getSalesCsv(eventId: string): Promise<Blob> {
  const { data } = await api.get<Blob>(`/events/${seg(eventId)}/dashboard`, { params: { format: 'csv' }, responseType: 'blob' });
  return data;
}
