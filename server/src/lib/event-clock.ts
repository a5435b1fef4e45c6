/**
 * The one server rule for "has this event started" and "what is today" (the client's twin is
 * client/src/lib/event-clock.ts).
 *
 * Event times are the organiser's Nairobi wall-clock time written as UTC (see db/schema.ts and
 * modules/events/event-dates.ts): a 19:00 event is stored as 19:00Z. Kenya keeps East Africa Time
 * (UTC+3) all year, so the same wall clock reads real UTC + 3 hours. Every comparison of a stored
 * event time with "now" must go through here, or it is three hours off.
 */
const EAT_OFFSET_MS = 3 * 60 * 60 * 1000;

/** A real instant as Nairobi wall-clock time, in the stored form (for converting imported instants too). */
export function toWallClock(instant: Date): Date {
  return new Date(instant.getTime() + EAT_OFFSET_MS);
}

/** "Now" on the events' wall clock; `now` is the real instant (injectable for tests). */
export function nowAsWallClock(now: Date = new Date()): Date {
  return toWallClock(now);
}

/**
 * True once the wall clock is past the start: from then on the event is no longer upcoming, takes
 * no registrations or purchases (the hold_seats SQL function applies the same `starts_at < now`),
 * and opens for reviews. At the start instant itself it is still upcoming.
 */
export function hasStarted(startsAt: Date, now: Date = new Date()): boolean {
  return startsAt.getTime() < nowAsWallClock(now).getTime();
}

/** Milliseconds from now until the start, on the events' wall clock (negative once it has started). */
export function msUntilStart(startsAt: Date, now: Date = new Date()): number {
  return startsAt.getTime() - nowAsWallClock(now).getTime();
}

/** Midnight starting today in Nairobi, in the stored form: listings "from today" begin here. */
export function startOfTodayWallClock(now: Date = new Date()): Date {
  const wall = nowAsWallClock(now);
  return new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()));
}

/** The real instant of a stored wall-clock time, for calendars. */
export function realInstant(startsAt: Date): Date {
  return new Date(startsAt.getTime() - EAT_OFFSET_MS);
}

const wallClockFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hour12: false });

/** A wall-clock time (stored as that time in UTC) as people read it: "Sat 12 Dec, 18:00". */
export function formatWallClock(wallClock: Date | undefined): string {
  return wallClock ? wallClockFormat.format(wallClock) : '';
}
