/*
 * The "where to be paid" form as data: what the organiser typed → the request body of POST /api/payout-account,
 * or the fields to fix (as catalog keys). Phones are accepted in any Kenyan form and sent as 2547XXXXXXXX; the
 * server checks the same rules again (@tukio/shared/internal-payouts).
 */
import { normaliseKenyanPhone } from '@tukio/shared/phone';

export const PAYOUT_METHODS = ['mpesa', 'paybill', 'till'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

export type PayoutDestination =
  | { method: 'mpesa'; phone: string }
  | { method: 'paybill'; shortcode: string; accountReference: string }
  | { method: 'till'; shortcode: string };

export interface DestinationFormValues {
  method: PayoutMethod;
  phone: string;
  shortcode: string;
  accountReference: string;
  /** Paybill and Till: the phone the confirmation code goes to. */
  codePhone: string;
  password: string;
}

export const emptyDestinationForm: DestinationFormValues = { method: 'mpesa', phone: '', shortcode: '', accountReference: '', codePhone: '', password: '' };

export type DestinationField = Exclude<keyof DestinationFormValues, 'method'>;

export interface DestinationRequest {
  password: string;
  destination: PayoutDestination;
  codePhone?: string;
}

export type DestinationFormResult = { ok: true; request: DestinationRequest } | { ok: false; errors: Partial<Record<DestinationField, string>> };

const SHORTCODE = /^\d{5,7}$/;
const ACCOUNT_REFERENCE_MAX = 13;

/** The request body, or each field's problem as a `payouts.*` catalog key. */
export function destinationRequest(values: DestinationFormValues): DestinationFormResult {
  const errors: Partial<Record<DestinationField, string>> = {};
  if (!values.password) errors.password = 'payouts.passwordRequired';
  const shortcode = values.shortcode.trim();
  const accountReference = values.accountReference.trim();
  let destination: PayoutDestination | undefined;
  let codePhone: string | undefined;
  if (values.method === 'mpesa') {
    const phone = normaliseKenyanPhone(values.phone);
    if (!phone) errors.phone = 'payouts.phoneInvalid';
    else destination = { method: 'mpesa', phone };
  } else {
    if (!SHORTCODE.test(shortcode)) errors.shortcode = values.method === 'paybill' ? 'payouts.paybillInvalid' : 'payouts.tillInvalid';
    if (values.method === 'paybill' && !accountReference) errors.accountReference = 'payouts.accountRequired';
    else if (accountReference.length > ACCOUNT_REFERENCE_MAX) errors.accountReference = 'payouts.accountTooLong';
    codePhone = normaliseKenyanPhone(values.codePhone);
    if (!codePhone) errors.codePhone = 'payouts.phoneInvalid';
    destination = values.method === 'paybill' ? { method: 'paybill', shortcode, accountReference } : { method: 'till', shortcode };
  }
  if (Object.keys(errors).length > 0 || !destination) return { ok: false, errors };
  return { ok: true, request: { password: values.password, destination, ...(codePhone ? { codePhone } : {}) } };
}

/** A 6-digit code as typed (spaces and dashes dropped), or null when it is not one. */
export function normaliseCode(value: string): string | null {
  const digits = value.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
}
