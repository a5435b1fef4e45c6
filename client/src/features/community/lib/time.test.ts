import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogsForTests, switchLanguageForTests } from '../../../lib/i18n/catalogs-for-tests';
import { repliesLabel, timeAgo } from './time';

const NOW = Date.parse('2027-01-01T00:30:00.000Z');
const before = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();
const HOUR = 60 * 60;
const DAY = 24 * HOUR;

beforeAll(() => loadCatalogsForTests('community'));
afterAll(() => switchLanguageForTests('en'));

async function expectInEachLanguage(seconds: number, english: string, kiswahili: string) {
  await switchLanguageForTests('en');
  expect(timeAgo(before(seconds), NOW)).toBe(english);
  await switchLanguageForTests('sw');
  expect(timeAgo(before(seconds), NOW)).toBe(kiswahili);
}

describe('timeAgo', () => {
  it('a post of the last 45 seconds was "just now"', () => expectInEachLanguage(0, 'just now', 'sasa hivi'));
  it('one minute', () => expectInEachLanguage(60, '1 minute ago', 'dakika 1 iliyopita'));
  it('hours', () => expectInEachLanguage(3 * HOUR, '3 hours ago', 'saa 3 zilizopita'));
  it('yesterday, across the new year', () => expectInEachLanguage(DAY, 'yesterday', 'jana'));
  it('weeks', () => expectInEachLanguage(14 * DAY, '2 weeks ago', 'wiki 2 zilizopita'));
  it('last year', () => expectInEachLanguage(400 * DAY, 'last year', 'mwaka uliopita'));
  it('years', () => expectInEachLanguage(3 * 365 * DAY, '3 years ago', 'miaka 3 iliyopita'));

  it('nothing for a missing or unreadable time', () => {
    expect(timeAgo(undefined, NOW)).toBe('');
    expect(timeAgo('not a date', NOW)).toBe('');
  });
});

describe('reply counts (the catalog plural)', () => {
  it.each([
    [0, '0 replies', 'majibu 0'],
    [1, '1 reply', 'jibu 1'],
    [2, '2 replies', 'majibu 2'],
    [1000, '1000 replies', 'majibu 1000'],
  ])('%i', async (count, english, kiswahili) => {
    await switchLanguageForTests('en');
    expect(repliesLabel(count)).toBe(english);
    await switchLanguageForTests('sw');
    expect(repliesLabel(count)).toBe(kiswahili);
  });
});
