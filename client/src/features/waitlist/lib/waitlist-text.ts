import type { WaitlistStatus } from '../api/waitlist-api';

/*
 * Offers end at a real instant (unlike events' wall-clock start times, which the UI shows in UTC), so their
 * times are written as people in Kenya read a clock, as the offer email does.
 */
const nairobiTime = new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Nairobi', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const nairobiDay = new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Nairobi', weekday: 'short', day: 'numeric', month: 'short' });

/** '15:47', or 'Tue 25 Nov, 15:47' when not today in Nairobi; '' for a missing or bad value. */
export function formatNairobiTime(value: string | null | undefined, now = new Date()): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const time = nairobiTime.format(date);
  return nairobiDay.format(date) === nairobiDay.format(now) ? time : `${nairobiDay.format(date)}, ${time}`;
}

export const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The organiser's list: a label and a badge tone (global .badge--* classes, or the feature's neutral one). */
export const WAITLIST_STATUS: Record<WaitlistStatus, { label: string; tone: 'success' | 'pending' | 'failed' | 'neutral' }> = {
  waiting: { label: 'Waiting', tone: 'neutral' },
  offered: { label: 'Seat offered', tone: 'pending' },
  accepted: { label: 'Accepted', tone: 'success' },
  expired: { label: 'Offer expired', tone: 'failed' },
  left: { label: 'Left', tone: 'neutral' },
  closed: { label: 'Closed', tone: 'neutral' },
};
