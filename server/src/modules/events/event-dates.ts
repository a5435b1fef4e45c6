/**
 * Event times are wall-clock times (what the organiser typed, Kenyan time) stored as that wall-clock
 * time in UTC: `2025-06-01T18:00` is stored as 2025-06-01T18:00:00Z and shown back as 18:00. The client
 * renders dates in UTC, so what is typed is what is shown, with no time-zone arithmetic anywhere.
 */

const NAIVE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z)?$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

function utcDate(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): Date | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // Date.UTC rolls 2025-02-30 over to March; a rolled-over date was not a real calendar date.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date;
}

/**
 * `YYYY-MM-DDTHH:mm` (seconds and a trailing `Z` are accepted too, so an event's own ISO `date`
 * can be sent back unchanged) as the stored instant; undefined when it is not a real date and time.
 */
export function parseWallClock(value: string): Date | undefined {
  const match = NAIVE.exec(value.trim());
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match;
  return utcDate(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s ?? 0));
}

/** `YYYY-MM-DD` as that day's UTC midnight, or a wall-clock date-time; undefined otherwise. */
export function parseDayOrWallClock(value: string): { date: Date; dayOnly: boolean } | undefined {
  const day = DATE_ONLY.exec(value.trim());
  if (day) {
    const date = utcDate(Number(day[1]), Number(day[2]), Number(day[3]));
    return date ? { date, dayOnly: true } : undefined;
  }
  const date = parseWallClock(value);
  return date ? { date, dayOnly: false } : undefined;
}

/** The UTC calendar day (`YYYY-MM-DD`) of an instant: the key of `event_daily_activity` rows. */
export function utcDay(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export const DAY_MS = 24 * 60 * 60 * 1000;
