/**
 * Event times are the organiser's wall-clock time (Kenya, UTC+3, no daylight saving) written as UTC:
 * `2025-06-01T18:00` is stored as 2025-06-01T18:00:00Z and shown as 18:00 (the UI formats in UTC).
 * "Now" on that wall clock is therefore UTC + 3 hours. These helpers keep that arithmetic in one place.
 */
const EAT_OFFSET_MS = 3 * 60 * 60 * 1000;

function parse(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The current Kenyan wall-clock time, as a UTC-based Date. */
export function wallClockNow(now = new Date()): Date {
  return new Date(now.getTime() + EAT_OFFSET_MS);
}

/** Today's date in Kenya as `YYYY-MM-DD` (the `min` of the date inputs). */
export function todayInKenya(now = new Date()): string {
  return wallClockNow(now).toISOString().slice(0, 10);
}

/** True once the event's start time has passed. */
export function hasTakenPlace(date: string | null | undefined, now = new Date()): boolean {
  const start = parse(date);
  return start ? start.getTime() < wallClockNow(now).getTime() : false;
}

/** The real instant of a stored wall-clock time (for calendar files). */
export function realInstant(date: string): Date | null {
  const start = parse(date);
  return start ? new Date(start.getTime() - EAT_OFFSET_MS) : null;
}

/** Splits an event's ISO date into the form's `YYYY-MM-DD` and `HH:mm` parts. */
export function splitEventDate(value: string | null | undefined): { date: string; time: string } {
  const start = parse(value);
  if (!start) return { date: '', time: '' };
  const iso = start.toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
}

/** The `YYYY-MM-DDTHH:mm` the API expects. */
export function joinEventDate(date: string, time: string): string {
  return `${date}T${time}`;
}

/** Sort helper: ascending by start date. */
export function byDateAscending<T extends { date: string }>(a: T, b: T): number {
  return (parse(a.date)?.getTime() ?? 0) - (parse(b.date)?.getTime() ?? 0);
}
