/*
 * The dashboard's figures as chart axes and sentences. The server labels days and hours in Nairobi
 * wall-clock time ("2026-11-24", "2026-11-24T21:00"); read as UTC they step evenly (Kenya has no daylight
 * saving), and the charts draw them in UTC, so an axis shows the organiser's clock whatever the viewer's.
 */
import { formatShillings } from '../../../lib/format';
import type { DailySales, HourlyCheckIns } from '../api/dashboard-api';

export const DAY_SECONDS = 24 * 60 * 60;
export const HOUR_SECONDS = 60 * 60;

/** A server label as the seconds uPlot puts on a time axis. */
export function labelSeconds(label: string): number {
  return Date.parse(label.length === 10 ? `${label}T00:00Z` : `${label}Z`) / 1000;
}

const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const hourFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });

/** '24 Nov' */
export const formatDay = (seconds: number) => dayFormat.format(new Date(seconds * 1000));
/** '21:00' */
export const formatHour = (seconds: number) => hourFormat.format(new Date(seconds * 1000));
/** '24 Nov, 21:00' */
export const formatDayHour = (seconds: number) => `${formatDay(seconds)}, ${formatHour(seconds)}`;

/** Axis labels: 'Ksh.900', 'Ksh.1.5k', 'Ksh.2M'. */
export function compactShillings(amount: number): string {
  if (Math.abs(amount) >= 1_000_000) return `Ksh.${trim(amount / 1_000_000)}M`;
  if (Math.abs(amount) >= 1_000) return `Ksh.${trim(amount / 1_000)}k`;
  return formatShillings(amount);
}
const trim = (value: number) => String(Math.round(value * 10) / 10);

export const plural = (count: number, one: string, many: string) => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/** What the sales chart shows, in one or two sentences (its text alternative). */
export function salesSummary(days: DailySales[], isPaid: boolean): string {
  const tickets = days.reduce((sum, day) => sum + day.tickets, 0);
  const revenue = days.reduce((sum, day) => sum + day.revenue, 0);
  const first = days[0];
  const last = days[days.length - 1];
  if (!first || !last) return 'No sales yet.';
  const span = first.day === last.day ? `on ${formatDay(labelSeconds(first.day))}` : `from ${formatDay(labelSeconds(first.day))} to ${formatDay(labelSeconds(last.day))}`;
  const best = days.reduce((top, day) => (day.tickets > top.tickets ? day : top), first);
  const money = isPaid ? `, ${formatShillings(revenue)} received` : '';
  const bestText = days.length > 1 ? ` Best day: ${formatDay(labelSeconds(best.day))}, ${plural(best.tickets, 'ticket', 'tickets')}${isPaid ? ` (${formatShillings(best.revenue)})` : ''}.` : '';
  return `${plural(tickets, 'ticket', 'tickets')} ${span}${money}.${bestText}`;
}

/** What the check-in chart shows (its text alternative). */
export function checkInSummary(hours: HourlyCheckIns[]): string {
  const first = hours[0];
  const last = hours[hours.length - 1];
  if (!first || !last) return 'No check-ins yet.';
  const total = hours.reduce((sum, hour) => sum + hour.checkedIn, 0);
  const busiest = hours.reduce((top, hour) => (hour.checkedIn > top.checkedIn ? hour : top), first);
  const from = labelSeconds(first.hour);
  const to = labelSeconds(last.hour) + HOUR_SECONDS;
  return (
    `${plural(total, 'check-in', 'check-ins')} between ${formatDayHour(from)} and ${formatDay(from) === formatDay(to) ? formatHour(to) : formatDayHour(to)} (Nairobi time).` +
    ` Busiest hour: ${formatDayHour(labelSeconds(busiest.hour))}, ${plural(busiest.checkedIn, 'check-in', 'check-ins')}.`
  );
}

/** `part` of `whole` as a whole percentage ('40%'), or null without a whole. */
export function percent(part: number, whole: number | null): string | null {
  if (!whole) return null;
  return `${Math.round((part / whole) * 100)}%`;
}
