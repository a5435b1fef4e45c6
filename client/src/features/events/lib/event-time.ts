/**
 * Event dates in forms and lists: the stored wall-clock time (see src/lib/event-clock.ts, which owns
 * every comparison with "now") split into and joined from the form's date and time boxes.
 */

function parse(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
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
