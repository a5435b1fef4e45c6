import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { englishDate, englishDateTime, englishPlural, englishTime, englishWholeNumber, type ClockZone } from '../src/english-format.js';
import { englishRelativeTime, type RelativeUnit } from '../src/english-relative-time.js';

// Instants from 1970 to 2200, minute-aligned and not (seconds never show).
const instants = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-12-31T23:59:59Z'), noInvalidDate: true });
const ZONES: Record<ClockZone, string | undefined> = { utc: 'UTC', local: undefined };

const originalZone = process.env.TZ;
// The device's zone in these tests has daylight saving time, so local wall clocks differ from UTC's in both ways.
process.env.TZ = 'America/New_York';
afterAll(() => {
  if (originalZone === undefined) delete process.env.TZ;
  else process.env.TZ = originalZone;
});

describe('English formatting without Intl writes what Intl writes', () => {
  it('dates in both zones', () => {
    // The device's zone really is New York's here (summer: UTC-4), or the 'local' cases would prove nothing.
    expect(new Date('2026-07-01T00:00:00Z').getTimezoneOffset()).toBe(240);
    expect(new Intl.DateTimeFormat('en-US', { timeStyle: 'short' }).format(new Date('2026-07-01T00:00:00Z'))).toBe('8:00 PM');
    fc.assert(
      fc.property(instants, fc.constantFrom(...(Object.keys(ZONES) as ClockZone[])), (date, zone) => {
        expect(englishDate(date, zone)).toBe(new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: ZONES[zone] }).format(date));
      }),
      { numRuns: 3000 },
    );
  });

  it('times and dates with times in both zones, midnight, noon and daylight-saving changes included', () => {
    const edges = ['2026-11-05T00:07:00Z', '2026-11-05T12:00:00Z', '2026-11-05T11:59:00Z', '2026-11-05T21:00:00Z', '2026-03-08T06:59:00Z', '2026-03-08T07:30:00Z', '2026-11-01T05:30:00Z', '2026-11-01T06:30:00Z'].map((iso) => new Date(iso));
    for (const date of edges) {
      for (const zone of Object.keys(ZONES) as ClockZone[]) {
        expect(englishTime(date, zone)).toBe(new Intl.DateTimeFormat('en-US', { timeStyle: 'short', timeZone: ZONES[zone] }).format(date));
      }
    }
    fc.assert(
      fc.property(instants, fc.constantFrom(...(Object.keys(ZONES) as ClockZone[])), (date, zone) => {
        expect(englishTime(date, zone)).toBe(new Intl.DateTimeFormat('en-US', { timeStyle: 'short', timeZone: ZONES[zone] }).format(date));
        expect(englishDateTime(date, zone)).toBe(new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: ZONES[zone] }).format(date));
      }),
      { numRuns: 3000 },
    );
  });

  it('whole numbers: separators, rounding of halves, negatives', () => {
    const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
    for (const value of [0, -0, 1, 999, 1000, 1234.5, -2.5, 0.5, -0.4, 1_500, 999_999.5, 1e20, 123_456_789_012_345]) {
      expect(englishWholeNumber(value)).toBe(intl.format(value));
    }
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -1e9, max: 1e12 }), fc.double({ min: -1e15, max: 1e15, noNaN: true })), (value) => {
        expect(englishWholeNumber(value)).toBe(intl.format(value));
      }),
      { numRuns: 3000 },
    );
  });

  it('relative times with the words Intl uses for yesterday, last week and now', () => {
    const intl = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
    const units: RelativeUnit[] = ['second', 'minute', 'hour', 'day', 'week', 'month', 'year'];
    for (const unit of units) {
      for (const value of [-1500, -60, -2, -1, -0, 0, 1, 2, 45, 1234]) expect(englishRelativeTime(value, unit)).toBe(intl.format(value, unit));
    }
    expect(englishRelativeTime(-1, 'day')).toBe('yesterday');
    expect(englishRelativeTime(-3, 'hour')).toBe('3 hours ago');
  });

  it('plural categories as Intl.PluralRules("en")', () => {
    const rules = new Intl.PluralRules('en');
    for (const value of [0, 1, 2, 1.5, -1, 11, 21, 101]) expect(englishPlural(value)).toBe(rules.select(value));
  });
});
