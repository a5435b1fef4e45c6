/** Daraja (M-Pesa Express) wire types and the helpers both the client and the simulator use. */

export interface StkPushRequest {
  BusinessShortCode: string;
  Password: string;
  Timestamp: string;
  TransactionType: 'CustomerPayBillOnline' | 'CustomerBuyGoodsOnline';
  Amount: number;
  PartyA: string;
  PartyB: string;
  PhoneNumber: string;
  CallBackURL: string;
  AccountReference: string;
  TransactionDesc: string;
}

export interface StkPushResponse {
  MerchantRequestID: string;
  CheckoutRequestID: string;
  ResponseCode: string;
  ResponseDescription: string;
  CustomerMessage: string;
}

export interface StkQueryRequest {
  BusinessShortCode: string;
  Password: string;
  Timestamp: string;
  CheckoutRequestID: string;
}

export interface StkQueryResponse {
  ResponseCode: string;
  ResponseDescription: string;
  MerchantRequestID: string;
  CheckoutRequestID: string;
  ResultCode: string;
  ResultDesc: string;
}

export interface CallbackItem {
  Name: string;
  Value?: string | number;
}

export interface StkCallbackBody {
  Body: {
    stkCallback: {
      MerchantRequestID: string;
      CheckoutRequestID: string;
      ResultCode: number;
      ResultDesc: string;
      CallbackMetadata?: { Item: CallbackItem[] };
    };
  };
}

/** Daraja's error body, e.g. `{requestId, errorCode: '400.002.02', errorMessage: 'Bad Request - Invalid Timestamp'}`. */
export interface DarajaErrorBody {
  requestId: string;
  errorCode: string;
  errorMessage: string;
}

export const EAT_OFFSET_MS = 3 * 60 * 60 * 1000;

const pad = (value: number) => String(value).padStart(2, '0');

/** The last timestamp made, by whole second: every push and query of a busy second shares it. */
let lastStamp = { second: Number.NaN, value: '' };

/** YYYYMMDDHHmmss on the East Africa Time wall clock (UTC+3), as Daraja expects. */
export function darajaTimestamp(now = new Date()): string {
  const second = Math.floor(now.getTime() / 1000);
  if (second === lastStamp.second) return lastStamp.value;
  const eat = new Date(second * 1000 + EAT_OFFSET_MS);
  const value = `${eat.getUTCFullYear()}${pad(eat.getUTCMonth() + 1)}${pad(eat.getUTCDate())}${pad(eat.getUTCHours())}${pad(eat.getUTCMinutes())}${pad(eat.getUTCSeconds())}`;
  lastStamp = { second, value };
  return value;
}

/** The instant a Daraja timestamp names, or undefined when it is not a real date-time. */
export function parseDarajaTimestamp(value: string): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  const utc = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(utc);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return undefined;
  return new Date(utc - EAT_OFFSET_MS);
}

/** Password = base64(shortcode + passkey + timestamp). */
export function darajaPassword(shortcode: string, passkey: string, timestamp: string): string {
  return Buffer.from(`${shortcode}${passkey}${timestamp}`).toString('base64');
}

/** Reads a metadata item by Name (Daraja does not promise an order, and some items have no Value). */
export function callbackItem(items: CallbackItem[] | undefined, name: string): string | number | undefined {
  return items?.find((item) => item?.Name === name)?.Value;
}

/** Result codes the payment service and docs explain. */
export const RESULT_CODES = {
  success: 0,
  insufficientFunds: 1,
  subscriberLocked: 1001,
  expired: 1019,
  cancelledByUser: 1032,
  unreachable: 1037,
  wrongPin: 2001,
} as const;
