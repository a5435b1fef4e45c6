import { perLocale } from '../../../lib/format';
import type { WaitlistStatus } from '../api/waitlist-api';

/*
 * Offers end at a real instant (unlike events' wall-clock start times, which the UI shows in UTC), so their
 * times are written as people in Kenya read a clock, as the offer email does.
 */
const nairobiFormats = perLocale((locale) => ({
  time: new Intl.DateTimeFormat(locale, { timeZone: 'Africa/Nairobi', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
  day: new Intl.DateTimeFormat(locale, { timeZone: 'Africa/Nairobi', weekday: 'short', day: 'numeric', month: 'short' }),
}));

/** '15:47', or 'Tue, 25 Nov, 15:47' when not today in Nairobi; '' for a missing or bad value. */
export function formatNairobiTime(value: string | null | undefined, now = new Date()): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const { time: timeFormat, day: dayFormat } = nairobiFormats();
  const time = timeFormat.format(date);
  return dayFormat.format(date) === dayFormat.format(now) ? time : `${dayFormat.format(date)}, ${time}`;
}

/** The organiser's list: a label (catalog key) and a badge tone (global .badge--* classes, or the feature's neutral one). */
export const WAITLIST_STATUS: Record<WaitlistStatus, { label: string; tone: 'success' | 'pending' | 'failed' | 'neutral' }> = {
  waiting: { label: 'waitlist.statusWaiting', tone: 'neutral' },
  offered: { label: 'waitlist.statusOffered', tone: 'pending' },
  accepted: { label: 'waitlist.statusAccepted', tone: 'success' },
  expired: { label: 'waitlist.statusExpired', tone: 'failed' },
  left: { label: 'waitlist.statusLeft', tone: 'neutral' },
  closed: { label: 'waitlist.statusClosed', tone: 'neutral' },
};
