/** Event dates are shown in UTC (docs/product.md /events/{id}). */
const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const timeFormat = new Intl.DateTimeFormat('en-US', { timeStyle: 'short', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatEventDate(value: string | null | undefined): string {
  const date = toDate(value);
  return date ? dateFormat.format(date) : '';
}

export function formatEventTime(value: string | null | undefined): string {
  const date = toDate(value);
  return date ? timeFormat.format(date) : '';
}

/** Local date and time (for timestamps such as transactions). */
export function formatDateTime(value: string | null | undefined): string {
  const date = toDate(value);
  return date ? dateTimeFormat.format(date) : '';
}

const shillings = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** 'Ksh.1,500': how Kenyans write a price (thousands separated). */
export function formatShillings(amount: number): string {
  return `Ksh.${shillings.format(amount)}`;
}

/** 'Ksh.1,500' or 'Free'; 'from Ksh.500' when ticket types cost up to `maxPrice`. */
export function formatPrice(isPaid: boolean, price: number | null | undefined, maxPrice?: number | null): string {
  if (!isPaid || !price) return 'Free';
  return typeof maxPrice === 'number' && maxPrice > price ? `from ${formatShillings(price)}` : formatShillings(price);
}

/** 'KES 1,500': how money going back to a buyer (refunds) is written. */
export function formatKes(amount: number): string {
  // A no-break space: the currency never ends a line apart from its amount.
  return `KES\u00a0${shillings.format(amount)}`;
}
