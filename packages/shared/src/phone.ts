/**
 * Kenyan M-Pesa phone numbers (docs/product.md): what buyers type (07XXXXXXXX, 01XXXXXXXX, 7XXXXXXXX,
 * +2547XXXXXXXX, 2547XXXXXXXX, with spaces, dashes, dots or brackets) and the one form every service
 * sends and stores, '254' + 9 digits of a Safaricom mobile number. Browser-safe: no imports.
 */

/** The stored form: 254, then a mobile prefix (7 or 1), then 8 digits. */
export const KENYAN_PHONE_PATTERN = /^254[17]\d{8}$/;

/** The number in its stored form, or undefined when it is not a Kenyan mobile number. */
export function normaliseKenyanPhone(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const digits = String(value).trim().replace(/[\s\-().]/g, '').replace(/^\+/, '');
  const match = /^(?:254|0)?([17]\d{8})$/.exec(digits);
  return match ? `254${match[1]}` : undefined;
}

/**
 * A Kenyan number as people read it with its middle hidden: `254722333111` → `0722 ••• 111`. How a guest
 * buyer (no account) is shown to organisers: enough to recognise, never the whole number.
 */
export function maskKenyanPhone(msisdn: string): string {
  const local = msisdn.startsWith('254') ? `0${msisdn.slice(3)}` : msisdn;
  return `${local.slice(0, 4)} ••• ${local.slice(-3)}`;
}
