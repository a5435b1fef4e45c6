/**
 * The one client rule for "has this event started" and "what is today", used by every feature;
 * the same rule as the server's server/src/lib/event-clock.ts (client/e2e/event-clock.test.ts checks
 * that they agree).
 *
 * Event times are the organiser's wall-clock time (Kenya, UTC+3, no daylight saving) written as UTC:
 * `2025-06-01T18:00` is stored as 2025-06-01T18:00:00Z and shown as 18:00 (the UI formats in UTC).
 * "Now" on that wall clock is therefore real UTC + 3 hours, whatever the browser's own time zone.
 */
const EAT_OFFSET_MS = 3 * 60 * 60 * 1000;

function parse(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The current Kenyan wall-clock time, in the stored form; `now` is the real instant. */
export function nowAsWallClock(now = new Date()): Date {
  return new Date(now.getTime() + EAT_OFFSET_MS);
}

/**
 * True once the wall clock is past the event's start (an ISO `date` from the API): the event page then
 * shows the forum and reviews instead of registration. At the start instant itself it has not started.
 */
export function hasStarted(date: string | null | undefined, now = new Date()): boolean {
  const start = parse(date);
  return start ? start.getTime() < nowAsWallClock(now).getTime() : false;
}

/** Today's date in Kenya as `YYYY-MM-DD` (the `min` of the date inputs; listings start at its midnight). */
export function todayInKenya(now = new Date()): string {
  return nowAsWallClock(now).toISOString().slice(0, 10);
}

/** The real instant of a stored wall-clock time (for calendar files). */
export function realInstant(date: string): Date | null {
  const start = parse(date);
  return start ? new Date(start.getTime() - EAT_OFFSET_MS) : null;
}
