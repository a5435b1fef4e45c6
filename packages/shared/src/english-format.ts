/**
 * English (en-US) dates, times, amounts and plural categories written without Intl, character for character what
 * Intl writes for the same options (the tests compare both).
 *
 * Why: a browser tab's first Intl.NumberFormat, DateTimeFormat or RelativeTimeFormat loads the ICU locale data,
 * 35–90 ms of main-thread time on a phone-class CPU (measured in Chromium: the first `new Intl.NumberFormat`
 * in a fresh tab took 54–93 ms, the next one 1 ms). Every page's first render writes a price or a date, so that
 * cost landed in the first long task of every page load. English is the default language; Kiswahili keeps Intl.
 */

/** Where the wall clock is read: UTC (event times are stored as Kenyan wall-clock time) or the device's zone. */
export type ClockZone = 'utc' | 'local';

const MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');

/** The instant moved by the zone's offset (the one in force at that instant), so that its UTC fields read the wall clock. */
function wallClock(date: Date, zone: ClockZone): Date {
  return zone === 'utc' ? date : new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
}

const datePart = (clock: Date) => `${MONTHS[clock.getUTCMonth()]} ${clock.getUTCDate()}, ${clock.getUTCFullYear()}`;

// ICU puts a narrow no-break space before AM/PM; V8 (Node, Chromium) writes a plain space there for the web's
// sake, and so do we.
function timePart(clock: Date): string {
  const hours = clock.getUTCHours();
  return `${hours % 12 || 12}:${String(clock.getUTCMinutes()).padStart(2, '0')} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** As Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }) in the zone: 'Nov 5, 2026'. */
export function englishDate(date: Date, zone: ClockZone): string {
  return datePart(wallClock(date, zone));
}

/** As Intl.DateTimeFormat('en-US', { timeStyle: 'short' }) in the zone: '9:30 PM'. */
export function englishTime(date: Date, zone: ClockZone): string {
  return timePart(wallClock(date, zone));
}

/** As Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }) in the zone: 'Nov 5, 2026, 9:30 PM'. */
export function englishDateTime(date: Date, zone: ClockZone): string {
  const clock = wallClock(date, zone);
  return `${datePart(clock)}, ${timePart(clock)}`;
}

/**
 * As Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }) for amounts below 1e21: thousands separated by
 * commas, halves rounded away from zero ('1,235' for 1234.5).
 */
export function englishWholeNumber(value: number): string {
  const digits = String(Math.round(Math.abs(value))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return value < 0 || Object.is(value, -0) ? `-${digits}` : digits;
}

/** English plural category (CLDR 'en': 'one' for exactly 1 or -1, 'other' otherwise), as Intl.PluralRules('en'). */
export function englishPlural(value: number): 'one' | 'other' {
  return Math.abs(value) === 1 ? 'one' : 'other';
}
