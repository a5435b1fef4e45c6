/** Small text helpers for community timestamps and counts. */
import { perLocale } from '../../../lib/format';
import { t } from '../../../lib/i18n';

type RelativeUnit = Intl.RelativeTimeFormatUnit;

/** "3 minutes ago"-style text in the reader's language (the full date goes in the tooltip). */
const relative = perLocale((locale) => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }));

const STEPS: Array<[RelativeUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

export function timeAgo(value: string | undefined, now: number = Date.now()): string {
  if (!value) return '';
  const time = new Date(value).getTime();
  if (Number.isNaN(time)) return '';
  let amount = (time - now) / 1000;
  if (Math.abs(amount) < 45) return t('community.justNow');
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return relative().format(Math.round(amount), unit);
    amount /= size;
  }
  return '';
}

/** Edited when the last change came noticeably after creation. */
export function isEdited(createdAt: string | undefined, updatedAt: string | undefined): boolean {
  if (!createdAt || !updatedAt) return false;
  return new Date(updatedAt).getTime() - new Date(createdAt).getTime() > 1000;
}

export const repliesLabel = (count: number) => t('community.replyCount', { count });
