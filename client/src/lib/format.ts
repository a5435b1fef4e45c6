import { englishDate, englishDateTime, englishTime, englishWholeNumber } from '@tukio/shared/english-format';
import { getLanguage, t } from './i18n/runtime';

/** The locale of Intl's output per app language ('en-US' keeps the English texts the app always had). */
export function formatLocale(): string {
  return getLanguage() === 'sw' ? 'sw-KE' : 'en-US';
}

/**
 * A date formatter: English written by hand (see @tukio/shared/english-format: a tab's first Intl formatter
 * costs tens of milliseconds of the first render), Kiswahili by one Intl.DateTimeFormat created on first use.
 */
function dateFormatter(english: (date: Date) => string, kiswahili: Intl.DateTimeFormatOptions): (date: Date) => string {
  let swahiliFormat: Intl.DateTimeFormat | undefined;
  return (date) => {
    if (formatLocale() === 'en-US') return english(date);
    swahiliFormat ??= new Intl.DateTimeFormat('sw-KE', kiswahili);
    return swahiliFormat.format(date);
  };
}

/**
 * Event dates are shown in UTC (docs/product.md /events/{id}): the stored value is the Kenyan wall-clock
 * time. Kiswahili writes the month in full ('5 Desemba 2026'): its short months are mostly the English ones.
 */
const dateFormat = dateFormatter((date) => englishDate(date, 'utc'), { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const timeFormat = dateFormatter((date) => englishTime(date, 'utc'), { timeStyle: 'short', timeZone: 'UTC' });
const dateTimeFormat = dateFormatter((date) => englishDateTime(date, 'local'), { dateStyle: 'medium', timeStyle: 'short' });

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatEventDate(value: string | null | undefined): string {
  const date = toDate(value);
  return date ? dateFormat(date) : '';
}

export function formatEventTime(value: string | null | undefined): string {
  const date = toDate(value);
  return date ? timeFormat(date) : '';
}

/** Local date and time (for timestamps such as transactions). */
export function formatDateTime(value: string | null | undefined): string {
  const date = toDate(value);
  return date ? dateTimeFormat(date) : '';
}

/** 'Ksh.1,500': how Kenyans write money (thousands separated): prices, payments and refunds alike, in both languages. */
export function formatShillings(amount: number): string {
  return `Ksh.${englishWholeNumber(amount)}`;
}

/** 'Ksh.1,500' or 'Free'; 'from Ksh.500' when ticket types cost up to `maxPrice`. */
export function formatPrice(isPaid: boolean, price: number | null | undefined, maxPrice?: number | null): string {
  if (!isPaid || !price) return t('common.free');
  return typeof maxPrice === 'number' && maxPrice > price ? t('common.priceFrom', { price: formatShillings(price) }) : formatShillings(price);
}


