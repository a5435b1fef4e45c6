/**
 * Event dates are stored as the organiser's wall-clock time written as UTC (see schema.ts).
 * Tukio's events are in Kenya (East Africa Time, UTC+3, no daylight saving), so "now" on that
 * same wall clock is UTC + 3 hours.
 */
const EAT_OFFSET_MS = 3 * 60 * 60 * 1000;

export function wallClockNow(now = new Date()): Date {
  return new Date(now.getTime() + EAT_OFFSET_MS);
}

export function hasTakenPlace(startsAt: Date, now = new Date()): boolean {
  return startsAt.getTime() < wallClockNow(now).getTime();
}

/** The real instant of a stored wall-clock time, for calendars. */
export function realInstant(startsAt: Date): Date {
  return new Date(startsAt.getTime() - EAT_OFFSET_MS);
}

export const isFreeEvent = (event: { isPaid: boolean; ticketPrice: number }) => !event.isPaid || event.ticketPrice <= 0;
