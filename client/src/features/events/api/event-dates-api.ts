/*
 * An event series' dates (docs/decisions/event-series.md): GET/POST /api/events/:id/dates, PATCH and DELETE
 * /api/events/:id/dates/:dateId. Removing a date with orders cancels it (its buyers refunded) with `confirm`.
 */
import { api } from '../../../lib/api-client';

const seg = (value: string) => encodeURIComponent(value);

export interface SeriesDate {
  _id: string;
  startsAt: string;
  endsAt: string | null;
  capacity: number | null;
  status: 'active' | 'cancelled';
  /** Valid tickets for this date (passes aside). */
  sold: number;
  seatsLeft: number | null;
}

export interface DateInput {
  /** `YYYY-MM-DDTHH:mm`, the event form's wall-clock form. */
  startsAt: string;
  capacity: number | null;
}

export async function listEventDates(eventId: string, signal?: AbortSignal): Promise<SeriesDate[]> {
  const { data } = await api.get<{ dates: SeriesDate[] }>(`/events/${seg(eventId)}/dates`, { signal });
  return data.dates;
}

export async function addEventDate(eventId: string, input: DateInput): Promise<SeriesDate> {
  const { data } = await api.post<SeriesDate>(`/events/${seg(eventId)}/dates`, input);
  return data;
}

export async function updateEventDate(eventId: string, dateId: string, input: Partial<DateInput>): Promise<SeriesDate> {
  const { data } = await api.patch<SeriesDate>(`/events/${seg(eventId)}/dates/${seg(dateId)}`, input);
  return data;
}

export async function removeEventDate(eventId: string, dateId: string, confirm: boolean): Promise<{ msg: string; removed: boolean; cancelled: boolean; refunds: number }> {
  const { data } = await api.delete<{ msg: string; removed: boolean; cancelled: boolean; refunds: number }>(`/events/${seg(eventId)}/dates/${seg(dateId)}${confirm ? '?confirm=true' : ''}`);
  return data;
}
