import { formatShillings } from '@tukio/shared/shillings';
import { getLanguage, t } from './i18n/runtime';

export { formatShillings };

export type FormatLocale = 'en-KE' | 'sw-KE';

/** Intl's locale for the reader's language: Kenyan English or Kenyan Kiswahili. */
export function formatLocale(): FormatLocale {
  return getLanguage() === 'sw' ? 'sw-KE' : 'en-KE';
}

/**
 * `create(locale)` made once per locale, on first use, and kept: constructing an Intl formatter costs
 * milliseconds on a slow phone (the tab's first one far more: it loads the locale's data), using it almost
 * nothing. Define one per set of options at module level: `const clock = perLocale((locale) => new Intl.DateTimeFormat(locale, …))`,
 * then `clock().format(date)` formats in the reader's current language.
 */
export function perLocale<Formatter>(create: (locale: FormatLocale) => Formatter): () => Formatter {
  const made = new Map<FormatLocale, Formatter>();
  return () => {
    const locale = formatLocale();
    let formatter = made.get(locale);
    if (formatter === undefined) {
      formatter = create(locale);
      made.set(locale, formatter);
    }
    return formatter;
  };
}

/*
 * Event dates are read in UTC (docs/product.md /events/{id}): the stored value is the Kenyan wall-clock time
 * (lib/event-clock.ts). The month is written in full: Kiswahili's short months are mostly the English ones.
 */
const eventDate = perLocale((locale) => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }));
const eventTime = perLocale((locale) => new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone: 'UTC' }));
/** Real instants (a payment, a report) in the device's own zone. */
const instant = perLocale((locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }));
const wholeNumber = perLocale((locale) => new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }));

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** '5 December 2026' / '5 Desemba 2026' for an event's start. */
export function formatEventDate(value: string | null | undefined): string {
  const date = toDate(value);
  return date ? eventDate().format(date) : '';
}

/** '18:30' for an event's start (its Kenyan wall-clock time). */
export function formatEventTime(value: string | null | undefined): string {
  const date = toDate(value);
  return date ? eventTime().format(date) : '';
}

const seriesDay = perLocale((locale) => new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }));

/** 'Fri 4 Dec' for one date of an event series (read in UTC like every event date). */
export function formatSeriesDay(value: string | null | undefined): string {
  const date = toDate(value);
  return date ? seriesDay().format(date).replace(',', '') : '';
}

/** 'Fri 4 Dec · 18:00': a series date with its time, in pickers and on tickets. */
export function formatSeriesDate(value: string | null | undefined): string {
  const date = toDate(value);
  return date ? `${formatSeriesDay(value)} · ${eventTime().format(date)}` : '';
}

/** '5 Dec 2026, 18:30': a real instant (such as a transaction's) in the device's zone. */
export function formatDateTime(value: string | null | undefined): string {
  const date = toDate(value);
  return date ? instant().format(date) : '';
}

/** A count with thousands separated: '1,250'. */
export const formatCount = (value: number): string => wholeNumber().format(value);

/** 'Ksh.1,500' or 'Free'; 'from Ksh.500' when ticket types cost up to `maxPrice`. */
export function formatPrice(isPaid: boolean, price: number | null | undefined, maxPrice?: number | null): string {
  if (!isPaid || !price) return t('common.free');
  return typeof maxPrice === 'number' && maxPrice > price ? t('common.priceFrom', { price: formatShillings(price) }) : formatShillings(price);
}
