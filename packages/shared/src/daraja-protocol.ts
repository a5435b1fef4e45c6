/** Daraja (M-Pesa Express) wire types and the helpers both the payment service and the Daraja simulator use. */

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
  /**
   * Only from the Tukio Daraja simulator, never from Safaricom: the path of this prompt's own phone page
   * (`/simulator/prompt/<secret>`), which the payment service hands to the buyer who made the push.
   */
  SimulatorPromptPath?: string;
}

/** The shape of `SimulatorPromptPath`: a prompt's page under /simulator, named by its 192-bit secret. */
export const SIMULATOR_PROMPT_PATH = /^\/simulator\/prompt\/[A-Za-z0-9_-]{32}$/;

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

/**
 * The addresses Safaricom publishes as the sources of Daraja's callbacks (Daraja's Getting Started page);
 * `CALLBACK_ALLOWED_IPS=safaricom` allows exactly these.
 */
export const SAFARICOM_CALLBACK_IPS = [
  '196.201.214.200',
  '196.201.214.206',
  '196.201.213.114',
  '196.201.214.207',
  '196.201.214.208',
  '196.201.213.44',
  '196.201.212.127',
  '196.201.212.138',
  '196.201.212.129',
  '196.201.212.136',
  '196.201.212.74',
  '196.201.212.69',
] as const;

// --- The reverse path: B2C payouts, reversals and Transaction Status (asynchronous: accepted now, result later) ---

/** `POST /mpesa/b2c/v3/paymentrequest`: v3 carries our OriginatorConversationID, which Daraja keeps unique. */
export interface B2CPaymentRequest {
  OriginatorConversationID: string;
  InitiatorName: string;
  SecurityCredential: string;
  CommandID: 'BusinessPayment' | 'SalaryPayment' | 'PromotionPayment';
  Amount: number;
  PartyA: string;
  PartyB: string;
  Remarks: string;
  QueueTimeOutURL: string;
  ResultURL: string;
  /** Spelled this way in Daraja's v3 documentation. */
  Occassion?: string;
}

/** `POST /mpesa/reversal/v1/request`. Daraja makes up the OriginatorConversationID itself (sync answer). */
export interface ReversalRequest {
  Initiator: string;
  SecurityCredential: string;
  CommandID: 'TransactionReversal';
  TransactionID: string;
  Amount: number;
  ReceiverParty: string;
  /** Misspelled in Daraja's API; the correct spelling is refused with 400.002.02. */
  RecieverIdentifierType: '11';
  ResultURL: string;
  QueueTimeOutURL: string;
  Remarks: string;
  Occasion?: string;
}

/**
 * `POST /mpesa/b2b/v1/paymentrequest`: BusinessPayBill (to a Paybill's account) or BusinessBuyGoods (to a Till).
 * No OriginatorConversationID goes in: Daraja makes one up (sync answer), so only the sender can keep it unique.
 */
export interface B2BPaymentRequest {
  Initiator: string;
  SecurityCredential: string;
  CommandID: 'BusinessPayBill' | 'BusinessBuyGoods';
  /** Both "4" (shortcode) on the current Daraja pages; the receiver's key is misspelled as on reversals. */
  SenderIdentifierType: '4';
  RecieverIdentifierType: '4';
  Amount: number;
  PartyA: string;
  PartyB: string;
  /** The Paybill account number (at most 13 characters). */
  AccountReference?: string;
  Requester?: string;
  Remarks: string;
  QueueTimeOutURL: string;
  ResultURL: string;
  Occassion?: string;
}

/** `POST /mpesa/transactionstatus/v1/query`: by the original request's OriginatorConversationID, or by receipt. */
export interface TransactionStatusRequest {
  Initiator: string;
  SecurityCredential: string;
  CommandID: 'TransactionStatusQuery';
  TransactionID?: string;
  OriginalConversationID?: string;
  PartyA: string;
  IdentifierType: '1' | '2' | '4';
  ResultURL: string;
  QueueTimeOutURL: string;
  Remarks: string;
  Occasion?: string;
}

/** The synchronous answer of the three: the request is queued, its result comes to ResultURL. */
export interface AcceptedResponse {
  ConversationID: string;
  OriginatorConversationID: string;
  ResponseCode: string;
  ResponseDescription: string;
}

export interface ResultParameter {
  Key: string;
  Value?: string | number;
}

/**
 * What Daraja posts to ResultURL (and, UNCONFIRMED in shape, to QueueTimeOutURL). Loosely typed on
 * purpose: ResultCode is a number or a string ("R000002"), ResultParameter and ReferenceItem an object
 * or an array, and parameters may have no Value.
 */
export interface ResultBody {
  Result: {
    ResultType?: number | string;
    ResultCode: number | string;
    ResultDesc?: string;
    OriginatorConversationID?: string;
    ConversationID?: string;
    TransactionID?: string;
    ResultParameters?: { ResultParameter?: ResultParameter | ResultParameter[] };
    ReferenceData?: { ReferenceItem?: ResultParameter | ResultParameter[] };
  };
}

/** A list Daraja sends as one object when it has one element. */
export const asList = <T>(value: T | T[] | undefined | null): T[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);

/**
 * Reads a result parameter by Key. Older samples write some keys with spaces ("Originator Conversation ID"),
 * so keys are compared without spaces and case.
 */
export function resultParameter(parameters: ResultParameter | ResultParameter[] | undefined, key: string): string | number | undefined {
  const wanted = key.replace(/\s+/g, '').toLowerCase();
  return asList(parameters).find((parameter) => typeof parameter?.Key === 'string' && parameter.Key.replace(/\s+/g, '').toLowerCase() === wanted)?.Value;
}

/** Daraja's result codes of the reverse path that the payment service, the simulator and the docs name. */
export const REFUND_RESULT_CODES = {
  success: '0',
  insufficientFloat: '1',
  belowMinimum: '2',
  aboveMaximum: '3',
  invalidInitiator: '2001',
  /** The receiving customer, Paybill or Till is not registered (B2C, and B2B per third-party docs; UNCONFIRMED for B2B). */
  receiverNotRegistered: '2040',
  alreadyReversed: 'R000001',
  invalidOriginalTransaction: 'R000002',
  /** A Transaction Status query for a transaction M-Pesa does not have (the simulator's answer; UNCONFIRMED on Daraja). */
  noSuchTransaction: 'SFC_IC0003',
} as const;

/** Shortest and longest Remarks Daraja accepts. */
export const REMARKS_LENGTH = { min: 2, max: 100 } as const;
