import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCount, formatDateTime, formatEventDate, formatEventTime, formatPrice, formatShillings, perLocale } from './format';
import { loadCatalogsForTests, switchLanguageForTests } from './i18n/catalogs-for-tests';

// A device far from Kenya (UTC-5 in December): event times must still read the Kenyan wall clock they were
// stored as, while real instants read the device's own clock.
const originalZone = process.env.TZ;
process.env.TZ = 'America/New_York';
afterAll(async () => {
  if (originalZone === undefined) delete process.env.TZ;
  else process.env.TZ = originalZone;
  await switchLanguageForTests('en');
});
beforeAll(() => loadCatalogsForTests('common'));

const inEachLanguage = (cases: { en: string; sw: string }, format: () => string) => async () => {
  await switchLanguageForTests('en');
  expect(format()).toBe(cases.en);
  await switchLanguageForTests('sw');
  expect(format()).toBe(cases.sw);
};

describe('event dates and times (Kenyan wall-clock times kept in UTC fields)', () => {
  it('writes the date with the month in full', inEachLanguage({ en: '5 December 2026', sw: '5 Desemba 2026' }, () => formatEventDate('2026-12-05T18:30:00.000Z')));

  it('writes the time on the 24-hour clock, as stored', inEachLanguage({ en: '18:30', sw: '18:30' }, () => formatEventTime('2026-12-05T18:30:00.000Z')));

  it('midnight is the start of its own day, not the evening before', async () => {
    await inEachLanguage({ en: '1 January 2027', sw: '1 Januari 2027' }, () => formatEventDate('2027-01-01T00:00:00.000Z'))();
    await inEachLanguage({ en: '00:00', sw: '00:00' }, () => formatEventTime('2027-01-01T00:00:00.000Z'))();
  });

  it('the last minute of a year stays in that year', async () => {
    await inEachLanguage({ en: '31 December 2026', sw: '31 Desemba 2026' }, () => formatEventDate('2026-12-31T23:59:00.000Z'))();
    await inEachLanguage({ en: '23:59', sw: '23:59' }, () => formatEventTime('2026-12-31T23:59:00.000Z'))();
  });

  it('writes nothing for a missing or unreadable date', () => {
    for (const value of [null, undefined, '', 'not a date']) {
      expect(formatEventDate(value)).toBe('');
      expect(formatEventTime(value)).toBe('');
      expect(formatDateTime(value)).toBe('');
    }
  });
});

describe('real instants', () => {
  it('read the device clock (New York here)', inEachLanguage({ en: '5 Dec 2026, 13:30', sw: '5 Des 2026, 13:30' }, () => formatDateTime('2026-12-05T18:30:00.000Z')));

  it('move to the previous year when the device clock is still there', inEachLanguage({ en: '31 Dec 2026, 19:00', sw: '31 Des 2026, 19:00' }, () => formatDateTime('2027-01-01T00:00:00.000Z')));
});

describe('amounts read the Kenyan way, the same in both languages', () => {
  const cases: Array<[number, string]> = [
    [0, 'Ksh.0'],
    [1, 'Ksh.1'],
    [999, 'Ksh.999'],
    [2800, 'Ksh.2,800'],
    [1_000_000, 'Ksh.1,000,000'],
    [1_234_567_890, 'Ksh.1,234,567,890'],
    // Cents show only when there are any, then always two digits.
    [1500.5, 'Ksh.1,500.50'],
    [1500.25, 'Ksh.1,500.25'],
  ];
  for (const [amount, text] of cases) it(`${amount} → ${text}`, inEachLanguage({ en: text, sw: text }, () => formatShillings(amount)));

  it('prices: free, one price, or from the cheapest', async () => {
    await inEachLanguage({ en: 'Free', sw: 'Bure' }, () => formatPrice(false, 500))();
    await inEachLanguage({ en: 'Free', sw: 'Bure' }, () => formatPrice(true, 0))();
    await inEachLanguage({ en: 'Ksh.1,500', sw: 'Ksh.1,500' }, () => formatPrice(true, 1500, 1500))();
    await inEachLanguage({ en: 'from Ksh.500', sw: 'kuanzia Ksh.500' }, () => formatPrice(true, 500, 2500))();
  });
});

describe('counts', () => {
  it('separate thousands', async () => {
    await inEachLanguage({ en: '0', sw: '0' }, () => formatCount(0))();
    await inEachLanguage({ en: '1', sw: '1' }, () => formatCount(1))();
    await inEachLanguage({ en: '12,500', sw: '12,500' }, () => formatCount(12_500))();
  });
});

describe('perLocale', () => {
  it('makes a formatter once per locale and hands the same one back after', async () => {
    const made: string[] = [];
    const formatter = perLocale((locale) => {
      made.push(locale);
      return { locale };
    });
    await switchLanguageForTests('en');
    const english = formatter();
    expect(formatter()).toBe(english);
    await switchLanguageForTests('sw');
    expect(formatter().locale).toBe('sw-KE');
    await switchLanguageForTests('en');
    expect(formatter()).toBe(english);
    expect(made).toEqual(['en-KE', 'sw-KE']);
  });
});
