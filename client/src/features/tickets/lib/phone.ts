/**
 * M-Pesa phone numbers (docs/product.md): 07XXXXXXXX, 01XXXXXXXX, 7XXXXXXXX, +2547XXXXXXXX or 2547XXXXXXXX,
 * spaces and dashes allowed. The number sent is '254' + the last 9 digits.
 */
export function normaliseKenyanPhone(input: string): string | null {
  const digits = input.replace(/[\s\-().]/g, '').replace(/^\+/, '');
  if (!/^\d+$/.test(digits)) return null;
  const match = /^(?:254|0)?([17]\d{8})$/.exec(digits);
  return match ? `254${match[1]}` : null;
}

export const PHONE_HINT = 'Safaricom number, e.g. 0712 345 678 or +254 712 345 678.';
export const PHONE_ERROR = 'Enter a Safaricom number such as 0712 345 678 (07…, 7…, +2547… or 2547…).';
