import { getLanguage, t } from './i18n/runtime';

/** The locale of Intl's output per app language ('en-US' keeps the English texts the app always had). */
export function formatLocale(): string {
  return getLanguage() === 'sw' ? 'sw-KE' : 'en-US';
}

/** One Intl.DateTimeFormat per locale and options (they are costly to create); `kiswahili` when it differs. */
function dateFormatter(options: Intl.DateTimeFormatOptions, kiswahili: Intl.DateTimeFormatOptions = options): () => Intl.DateTimeFormat {
  const byLocale = new Map<string, Intl.DateTimeFormat>();
  return () => {
    const locale = formatLocale();
    let format = byLocale.get(locale);
    if (!format) {
      format = new Intl.DateTimeFormat(locale, locale === 'en-US' ? options : kiswahili);
      byLocale.set(locale, format);
    }
    return format;
  };
}

/**
 * Event dates are shown in UTC (docs/product.md /events/{id}): the stored value is the Kenyan wall-clock
 * time. Kiswahili writes the month in full ('5 Desemba 2026'): its short months are mostly the English ones.
 */
const dateFormat = dateFormatter({ dateStyle: 'medium', timeZone: 'UTC' }, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const timeFormat = dateFormatter({ timeStyle: 'short', timeZone: 'UTC' });
const dateTimeFormat = dateFormatter({ dateStyle: 'medium', timeStyle: 'short' });

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatEventDate(value: string | null | undefined): string {
  const date = toDate(value);
  return date ? dateFormat().format(date) : '';
}

export function formatEventTime(value: string | null | undefined): string {
  const date = toDate(value);
  return date ? timeFormat().format(date) : '';
}

/** Local date and time (for timestamps such as transactions). */
export function formatDateTime(value: string | null | undefined): string {
  const date = toDate(value);
  return date ? dateTimeFormat().format(date) : '';
}

const shillings = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** 'Ksh.1,500': how Kenyans write a price (thousands separated). */
export function formatShillings(amount: number): string {
  return `Ksh.${shillings.format(amount)}`;
}

/** 'Ksh.1,500' or 'Free'; 'from Ksh.500' when ticket types cost up to `maxPrice`. */
export function formatPrice(isPaid: boolean, price: number | null | undefined, maxPrice?: number | null): string {
  if (!isPaid || !price) return t('common.free');
  return typeof maxPrice === 'number' && maxPrice > price ? t('common.priceFrom', { price: formatShillings(price) }) : formatShillings(price);
}

/** 'KES 1,500': how money going back to a buyer (refunds) is written. */
export function formatKes(amount: number): string {
  // A no-break space: the currency never ends a line apart from its amount.
  return `KES\u00a0${shillings.format(amount)}`;
}

/** A real instant (a payment, a message) shown as Kenyan time: dates and times in Africa/Nairobi. */
const NAIROBI = 'Africa/Nairobi';
const nairobiDate = {
  short: dateFormatter({ dateStyle: 'short', timeZone: NAIROBI }),
  medium: dateFormatter({ dateStyle: 'medium', timeZone: NAIROBI }),
  long: dateFormatter({ dateStyle: 'long', timeZone: NAIROBI }),
  full: dateFormatter({ dateStyle: 'full', timeZone: NAIROBI }),
};
const nairobiTime = dateFormatter({ timeStyle: 'short', timeZone: NAIROBI });
const nairobiDateTime = dateFormatter({ dateStyle: 'medium', timeStyle: 'short', timeZone: NAIROBI });

/** 'Nov 24, 2026' / '24 Nov 2026' (Kiswahili: month names in Kiswahili), Kenyan date of an instant. */
export function formatDate(value: string | number | Date | null | undefined, style: keyof typeof nairobiDate = 'medium'): string {
  const date = toDate(value);
  return date ? nairobiDate[style]().format(date) : '';
}

/** Kenyan time of an instant ('9:30 PM'). */
export function formatTime(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? nairobiTime().format(date) : '';
}

/** Kenyan date and time of an instant. (formatDateTime above keeps the device's time zone.) */
export function formatNairobiDateTime(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? nairobiDateTime().format(date) : '';
}

/** 'Ksh.1,500' in both languages. */
export const formatMoney = formatShillings;
