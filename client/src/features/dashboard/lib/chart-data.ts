/*
 * The dashboard's figures as chart axes and sentences. The server labels days and hours in Nairobi
 * wall-clock time ("2026-11-24", "2026-11-24T21:00"); read as UTC they step evenly (Kenya has no daylight
 * saving), and the charts draw them in UTC, so an axis shows the organiser's clock whatever the viewer's.
 */
import { formatShillings, perLocale } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import type { DailySales, HourlyCheckIns } from '../api/dashboard-api';

export const DAY_SECONDS = 24 * 60 * 60;
export const HOUR_SECONDS = 60 * 60;

/** A server label as the seconds uPlot puts on a time axis. */
export function labelSeconds(label: string): number {
  return Date.parse(label.length === 10 ? `${label}T00:00Z` : `${label}Z`) / 1000;
}

/** Day-month order and a 24-hour clock as Kenyans write them; month names in the reader's language. */
const day = perLocale((locale) => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }));
const hour = perLocale((locale) => new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }));

/** '24 Nov' */
export const formatDay = (seconds: number) => day().format(new Date(seconds * 1000));
/** '21:00' */
export const formatHour = (seconds: number) => hour().format(new Date(seconds * 1000));
/** '24 Nov, 21:00' */
export const formatDayHour = (seconds: number) => `${formatDay(seconds)}, ${formatHour(seconds)}`;

let compactDigits: Intl.NumberFormat | undefined;
/** Axis labels: 'Ksh.900', 'Ksh.1.5K', 'Ksh.2M', the same in both languages (as every amount). */
export function compactShillings(amount: number): string {
  compactDigits ??= new Intl.NumberFormat('en-KE', { notation: 'compact', maximumFractionDigits: 1 });
  return `Ksh.${compactDigits.format(amount)}`;
}

/** What the sales chart shows, in one or two sentences (its text alternative). */
export function salesSummary(days: DailySales[], isPaid: boolean): string {
  const tickets = days.reduce((sum, day) => sum + day.tickets, 0);
  const revenue = days.reduce((sum, day) => sum + day.revenue, 0);
  const first = days[0];
  const last = days[days.length - 1];
  if (!first || !last) return t('dashboard.noSales');
  const span =
    first.day === last.day
      ? t('dashboard.onDay', { day: formatDay(labelSeconds(first.day)) })
      : t('dashboard.fromDayToDay', { from: formatDay(labelSeconds(first.day)), to: formatDay(labelSeconds(last.day)) });
  const best = days.reduce((top, day) => (day.tickets > top.tickets ? day : top), first);
  const summary = t(isPaid ? 'dashboard.salesSummaryPaid' : 'dashboard.salesSummary', {
    tickets: t('dashboard.ticketCount', { count: tickets }),
    span,
    amount: formatShillings(revenue),
  });
  if (days.length <= 1) return summary;
  const bestText = t(isPaid ? 'dashboard.bestDayPaid' : 'dashboard.bestDay', {
    day: formatDay(labelSeconds(best.day)),
    tickets: t('dashboard.ticketCount', { count: best.tickets }),
    amount: formatShillings(best.revenue),
  });
  return `${summary} ${bestText}`;
}

/** What the check-in chart shows (its text alternative). */
export function checkInSummary(hours: HourlyCheckIns[]): string {
  const first = hours[0];
  const last = hours[hours.length - 1];
  if (!first || !last) return t('dashboard.noCheckIns');
  const total = hours.reduce((sum, hour) => sum + hour.checkedIn, 0);
  const busiest = hours.reduce((top, hour) => (hour.checkedIn > top.checkedIn ? hour : top), first);
  const from = labelSeconds(first.hour);
  const to = labelSeconds(last.hour) + HOUR_SECONDS;
  const range = t('dashboard.checkInSummary', {
    checkIns: t('dashboard.checkInCount', { count: total }),
    from: formatDayHour(from),
    to: formatDay(from) === formatDay(to) ? formatHour(to) : formatDayHour(to),
  });
  const busiestText = t('dashboard.busiestHour', {
    hour: formatDayHour(labelSeconds(busiest.hour)),
    checkIns: t('dashboard.checkInCount', { count: busiest.checkedIn }),
  });
  return `${range} ${busiestText}`;
}

/** `part` of `whole` as a whole percentage ('40%'), or null without a whole. */
export function percent(part: number, whole: number | null): string | null {
  if (!whole) return null;
  return `${Math.round((part / whole) * 100)}%`;
}
