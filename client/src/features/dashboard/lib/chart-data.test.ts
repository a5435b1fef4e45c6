import { afterAll, describe, expect, it } from 'vitest';
import { switchLanguageForTests } from '../../../lib/i18n/catalogs-for-tests';
import { compactShillings, formatDay, formatDayHour, formatHour, labelSeconds } from './chart-data';

afterAll(() => switchLanguageForTests('en'));

describe('chart axes', () => {
  it('days and hours read the Nairobi labels as they are, month names in the reader\'s language', async () => {
    await switchLanguageForTests('en');
    expect(formatDay(labelSeconds('2026-12-31'))).toBe('31 Dec');
    expect(formatHour(labelSeconds('2027-01-01T00:00'))).toBe('00:00');
    expect(formatDayHour(labelSeconds('2027-01-01T21:00'))).toBe('1 Jan, 21:00');
    await switchLanguageForTests('sw');
    expect(formatDay(labelSeconds('2026-12-31'))).toBe('31 Des');
    expect(formatDayHour(labelSeconds('2027-01-01T21:00'))).toBe('1 Jan, 21:00');
  });

  it.each([
    [0, 'Ksh.0'],
    [900, 'Ksh.900'],
    [1500, 'Ksh.1.5K'],
    [12_000, 'Ksh.12K'],
    [2_000_000, 'Ksh.2M'],
    [2_450_000, 'Ksh.2.5M'],
  ])('amount axis, the same in both languages: %i → %s', async (amount, text) => {
    await switchLanguageForTests('en');
    expect(compactShillings(amount)).toBe(text);
    await switchLanguageForTests('sw');
    expect(compactShillings(amount)).toBe(text);
  });
});
