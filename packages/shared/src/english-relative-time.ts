/**
 * English relative times ('3 hours ago', 'yesterday') without Intl, as Intl.RelativeTimeFormat('en',
 * { numeric: 'auto' }) writes them: the forum's first render shows one per post, and a tab's first Intl
 * formatter loads the ICU locale data (see ./english-format.ts). Apart from english-format so that pages
 * without relative times do not download it.
 */
import { englishWholeNumber } from './english-format.js';

export type RelativeUnit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';

// Intl's `numeric: 'auto'` words for -1, 0 and 1 of a unit (CLDR English); seconds, minutes and hours have
// only 0 ('now', 'this minute', 'this hour').
const AUTO_WORDS: Partial<Record<RelativeUnit, Record<string, string>>> = {
  second: { '0': 'now' },
  minute: { '0': 'this minute' },
  hour: { '0': 'this hour' },
  day: { '-1': 'yesterday', '0': 'today', '1': 'tomorrow' },
  week: { '-1': 'last week', '0': 'this week', '1': 'next week' },
  month: { '-1': 'last month', '0': 'this month', '1': 'next month' },
  year: { '-1': 'last year', '0': 'this year', '1': 'next year' },
};

/** As Intl.RelativeTimeFormat('en', { numeric: 'auto' }).format(value, unit) for whole values: '3 hours ago'. */
export function englishRelativeTime(value: number, unit: RelativeUnit): string {
  if (!Number.isInteger(value)) return new Intl.RelativeTimeFormat('en', { numeric: 'auto' }).format(value, unit);
  const word = AUTO_WORDS[unit]?.[String(value === 0 ? 0 : value)];
  if (word) return word;
  const size = Math.abs(value);
  const amount = `${englishWholeNumber(size)} ${unit}${size === 1 ? '' : 's'}`;
  return value < 0 ? `${amount} ago` : `in ${amount}`;
}
