import type { DarajaConfig } from '../config.js';
import { createAgents, neverSent, request as httpRequest, type Agents, type HttpResponse } from '@tukio/shared/node/http-request';
import {
  darajaPassword,
  darajaTimestamp,
  REMARKS_LENGTH,
  type AcceptedResponse,
  type B2BPaymentRequest,
  type B2CPaymentRequest,
  type DarajaErrorBody,
  type ReversalRequest,
  type StkPushRequest,
  type StkPushResponse,
  type StkQueryResponse,
  type TransactionStatusRequest,
} from '@tukio/shared/daraja-protocol';

/** A Daraja failure: HTTP status plus Daraja's errorCode/errorMessage when it sent them. */
export class DarajaError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly errorCode: string,
    readonly errorMessage: string,
    /** A connection error that says the request never reached Daraja (refused, no such host). */
    readonly neverSent = false,
  ) {
    super(`Daraja ${httpStatus} ${errorCode}: ${errorMessage}`);
    this.name = 'DarajaError';
  }

  /** 1001: the subscriber already has a prompt or USSD session open. */
  get subscriberLocked(): boolean {
    return /1001$/.test(this.errorCode) && /lock|already in process/i.test(this.errorMessage);
  }

  /** STK query while the customer has not answered yet. */
  get stillProcessing(): boolean {
    return /being processed/i.test(this.errorMessage);
  }

  get network(): boolean {
    return this.httpStatus === 0;
  }
}

export type StkQueryResult =
  | { state: 'pending' }
  | { state: 'final'; resultCode: number; resultDesc: string; merchantRequestId: string; checkoutRequestId: string };

/**
 * The synchronous answer to a B2C payout, a reversal or a Transaction Status query, whose result comes
 * later to ResultURL:
 * - accepted: queued (ResponseCode "0"); Daraja's ConversationID and OriginatorConversationID (ours for B2C v3);
 * - rejected: Daraja refused the request (an error body, or a ResponseCode other than "0"): nothing was done;
 * - unknown: no usable answer (network error, timeout, an internal error, a duplicate OriginatorConversationID
 *   — the first request with it is the one that counts): it may or may not have been queued; `neverSent` when the
 *   connection error says it never reached Daraja (nothing was queued).
 */
export type AsyncRequestOutcome =
  | { outcome: 'accepted'; conversationId: string; originatorConversationId: string }
  | { outcome: 'rejected'; errorCode: string; errorMessage: string }
  | { outcome: 'unknown'; reason: string; neverSent?: boolean };

export interface AsyncRequestUrls {
  resultUrl: string;
  timeoutUrl: string;
}

export interface DarajaClient {
  stkPush(input: { amount: number; phone: string; accountReference: string; transactionDesc: string; callbackUrl: string }): Promise<StkPushResponse>;
  stkQuery(checkoutRequestId: string): Promise<StkQueryResult>;
  /** B2C v3 BusinessPayment of whole shillings to `phone` (2547XXXXXXXX), unique by our OriginatorConversationID. */
  b2cPayment(input: { originatorConversationId: string; amount: number; phone: string; remarks: string } & AsyncRequestUrls): Promise<AsyncRequestOutcome>;
  /**
   * B2B from the B2C shortcode (payouts leave from it): BusinessPayBill to a Paybill's account, or BusinessBuyGoods
   * to a Till. Daraja names the request itself (its OriginatorConversationID is in the accepted answer).
   */
  b2bPayment(input: { commandId: B2BPaymentRequest['CommandID']; amount: number; shortcode: string; accountReference?: string | undefined; remarks: string } & AsyncRequestUrls): Promise<AsyncRequestOutcome>;
  /** Reverses an STK payment (its receipt) to the payer; Daraja names the request itself. */
  reversal(input: { transactionId: string; amount: number; remarks: string } & AsyncRequestUrls): Promise<AsyncRequestOutcome>;
  /**
   * Asks what became of a request (its OriginatorConversationID) or a transaction (its receipt), as seen from
   * `party`: the B2C shortcode for payouts, the paybill (STK) shortcode for reversals of its payments.
   */
  transactionStatus(input: { originalConversationId?: string; transactionId?: string; party: 'b2c' | 'paybill'; remarks: string } & AsyncRequestUrls): Promise<AsyncRequestOutcome>;
  /** False when refunds are not configured: the three calls above then throw. */
  readonly refundsEnabled: boolean;
  /**
   * C2B Register URL v2 for the paybill shortcode (docs/decisions/paybill.md): where M-Pesa asks before a Paybill
   * payment (validation) and tells after it (confirmation); `responseType` is what it does when validation is late.
   */
  registerC2bUrls?(input: { validationUrl: string; confirmationUrl: string; responseType: 'Completed' | 'Cancelled' }): Promise<void>;
  /** Pull Transactions register (once per shortcode; "already registered" is success): docs/decisions/reconciliation.md. */
  registerPull?(input: { nominatedNumber: string; callbackUrl: string }): Promise<void>;
  /** One Pull Transactions page: C2B payments to the paybill shortcode in [start, end], from row `offset`. */
  pullQuery?(input: { start: Date; end: Date; offset: number }): Promise<PulledRow[]>;
}

/** What the reverse path needs; `securityCredential` may be computed on first use; none = refunds off. */
/** A row of a Pull Transactions query, as Daraja writes it (lowercase keys; amount "500.00"; msisdn without 254). */
export interface PulledRow {
  transactionId: string;
  trxDate: string;
  msisdn: number | string;
  transactiontype?: string;
  billreference?: string;
  amount: string | number;
}

/** Daraja's Pull Transactions time: `YYYY-MM-DD HH:MM:SS` (UTC here: Daraja does not document its timezone). */
const pullTime = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

export interface DarajaRefundCredentials {
  initiatorName: string;
  b2cShortcode: string;
  securityCredential: string | (() => string) | undefined;
}

/** Daraja's refusal of a query about a CheckoutRequestID it does not know (never sent, or long forgotten). */
export const isUnknownRequest = (error: unknown): boolean => error instanceof DarajaError && error.httpStatus === 400 && /CheckoutRequestID/i.test(error.errorMessage);

/** Gateway refusals that say the request was never taken in (rate and quota limits), although they are 5xx. */
const REFUSED_5XX = new Set(['500.003.02', '500.003.03']);

/** A failed asynchronous request as an outcome: Daraja's refusal (nothing done) or no usable answer. */
export function asyncFailureOutcome(error: unknown): AsyncRequestOutcome {
  if (!(error instanceof DarajaError)) return { outcome: 'unknown', reason: error instanceof Error ? error.message : String(error) };
  if (error.neverSent) return { outcome: 'unknown', reason: `not sent: ${error.errorMessage}`, neverSent: true };
  const refused = (error.httpStatus >= 400 && error.httpStatus < 500) || REFUSED_5XX.has(error.errorCode);
  return refused
    ? { outcome: 'rejected', errorCode: error.errorCode, errorMessage: error.errorMessage }
    : { outcome: 'unknown', reason: `${error.httpStatus || 'network'} ${error.errorCode}: ${error.errorMessage}` };
}

/** Remarks within Daraja's 2-100 characters. */
const remarksOf = (text: string) => text.trim().slice(0, REMARKS_LENGTH.max).padEnd(REMARKS_LENGTH.min, '.');

const TOKEN_MARGIN_MS = 60_000;

/**
 * A small typed Daraja client. The OAuth token is cached until a minute before it expires,
 * shared by concurrent callers, and fetched again once when Daraja answers 401 (expired or revoked).
 */
export function createDarajaClient(
  config: Omit<DarajaConfig, 'baseUrl' | 'refunds'> & { baseUrl: string | (() => string); agents?: Agents; refunds?: DarajaRefundCredentials | undefined },
): DarajaClient {
  const agents = config.agents ?? createAgents(32);
  const baseUrl = () => (typeof config.baseUrl === 'function' ? config.baseUrl() : config.baseUrl);
  let cached: { token: string; expiresAt: number } | undefined;
  let fetching: Promise<string> | undefined;

  async function request(method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: unknown): Promise<unknown> {
    let response: HttpResponse;
    try {
      response = await httpRequest(agents, `${baseUrl()}${path}`, {
        method,
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: config.timeoutMs,
      });
    } catch (error) {
      throw new DarajaError(0, 'network', error instanceof Error ? error.message : 'Daraja is not reachable', neverSent(error));
    }
    const text = response.text;
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = { errorMessage: text.slice(0, 200) };
    }
    if (response.status < 200 || response.status >= 300) {
      const error = parsed as Partial<DarajaErrorBody>;
      throw new DarajaError(response.status, String(error.errorCode ?? response.status), String(error.errorMessage ?? response.statusText));
    }
    return parsed;
  }

  async function fetchToken(): Promise<string> {
    const basic = Buffer.from(`${config.consumerKey}:${config.consumerSecret}`).toString('base64');
    const body = (await request('GET', '/oauth/v1/generate?grant_type=client_credentials', { authorization: `Basic ${basic}` })) as {
      access_token?: string;
      expires_in?: string | number;
    };
    if (!body.access_token) throw new DarajaError(502, 'oauth', 'Daraja returned no access token');
    const seconds = Number(body.expires_in ?? 3599);
    cached = { token: body.access_token, expiresAt: Date.now() + Math.max(0, seconds * 1000 - TOKEN_MARGIN_MS) };
    return body.access_token;
  }

  async function token(): Promise<string> {
    if (cached && cached.expiresAt > Date.now()) return cached.token;
    fetching ??= fetchToken().finally(() => {
      fetching = undefined;
    });
    return fetching;
  }

  async function authorized(path: string, body: unknown): Promise<unknown> {
    const first = await token();
    try {
      return await request('POST', path, { authorization: `Bearer ${first}` }, body);
    } catch (error) {
      const expired = error instanceof DarajaError && (error.httpStatus === 401 || error.errorCode === '404.001.03');
      if (!expired) throw error;
      if (cached?.token === first) cached = undefined;
      return request('POST', path, { authorization: `Bearer ${await token()}` }, body);
    }
  }

  function credentials() {
    const timestamp = darajaTimestamp();
    return { BusinessShortCode: config.shortcode, Password: darajaPassword(config.shortcode, config.passkey, timestamp), Timestamp: timestamp };
  }

  let credential: string | undefined;
  const refundsEnabled = config.refunds?.securityCredential !== undefined;
  function initiator() {
    const refunds = config.refunds;
    if (!refunds?.securityCredential) throw new Error('Refunds are not configured (DARAJA_INITIATOR_NAME, DARAJA_SECURITY_CREDENTIAL, DARAJA_B2C_SHORTCODE)');
    credential ??= typeof refunds.securityCredential === 'function' ? refunds.securityCredential() : refunds.securityCredential;
    return { name: refunds.initiatorName, credential, b2cShortcode: refunds.b2cShortcode };
  }

  /** Sends a request whose result comes later to ResultURL; never throws for what Daraja answers. */
  async function asyncRequest(path: string, body: B2CPaymentRequest | B2BPaymentRequest | ReversalRequest | TransactionStatusRequest): Promise<AsyncRequestOutcome> {
    let response: Partial<AcceptedResponse>;
    try {
      response = (await authorized(path, body)) as Partial<AcceptedResponse>;
    } catch (error) {
      return asyncFailureOutcome(error);
    }
    if (String(response.ResponseCode) !== '0') {
      return { outcome: 'rejected', errorCode: String(response.ResponseCode ?? 'unknown'), errorMessage: String(response.ResponseDescription ?? 'Request not accepted') };
    }
    if (!response.ConversationID) return { outcome: 'unknown', reason: 'accepted without a ConversationID' };
    return { outcome: 'accepted', conversationId: String(response.ConversationID), originatorConversationId: String(response.OriginatorConversationID ?? '') };
  }

  return {
    refundsEnabled,

    b2cPayment(input) {
      const { name, credential: securityCredential, b2cShortcode } = initiator();
      return asyncRequest('/mpesa/b2c/v3/paymentrequest', {
        OriginatorConversationID: input.originatorConversationId,
        InitiatorName: name,
        SecurityCredential: securityCredential,
        CommandID: 'BusinessPayment',
        Amount: input.amount,
        PartyA: b2cShortcode,
        PartyB: input.phone,
        Remarks: remarksOf(input.remarks),
        QueueTimeOutURL: input.timeoutUrl,
        ResultURL: input.resultUrl,
      });
    },

    b2bPayment(input) {
      const { name, credential: securityCredential, b2cShortcode } = initiator();
      return asyncRequest('/mpesa/b2b/v1/paymentrequest', {
        Initiator: name,
        SecurityCredential: securityCredential,
        CommandID: input.commandId,
        SenderIdentifierType: '4',
        RecieverIdentifierType: '4',
        Amount: input.amount,
        PartyA: b2cShortcode,
        PartyB: input.shortcode,
        ...(input.accountReference ? { AccountReference: input.accountReference } : {}),
        Remarks: remarksOf(input.remarks),
        QueueTimeOutURL: input.timeoutUrl,
        ResultURL: input.resultUrl,
      });
    },

    reversal(input) {
      const { name, credential: securityCredential } = initiator();
      return asyncRequest('/mpesa/reversal/v1/request', {
        Initiator: name,
        SecurityCredential: securityCredential,
        CommandID: 'TransactionReversal',
        TransactionID: input.transactionId,
        Amount: input.amount,
        ReceiverParty: config.shortcode,
        RecieverIdentifierType: '11',
        ResultURL: input.resultUrl,
        QueueTimeOutURL: input.timeoutUrl,
        Remarks: remarksOf(input.remarks),
      });
    },

    transactionStatus(input) {
      const { name, credential: securityCredential, b2cShortcode } = initiator();
      return asyncRequest('/mpesa/transactionstatus/v1/query', {
        Initiator: name,
        SecurityCredential: securityCredential,
        CommandID: 'TransactionStatusQuery',
        ...(input.transactionId ? { TransactionID: input.transactionId } : {}),
        ...(input.originalConversationId ? { OriginalConversationID: input.originalConversationId } : {}),
        PartyA: input.party === 'b2c' ? b2cShortcode : config.shortcode,
        IdentifierType: '4',
        ResultURL: input.resultUrl,
        QueueTimeOutURL: input.timeoutUrl,
        Remarks: remarksOf(input.remarks),
      });
    },

    async stkPush(input) {
      const body: StkPushRequest = {
        ...credentials(),
        TransactionType: 'CustomerPayBillOnline',
        Amount: input.amount,
        PartyA: input.phone,
        PartyB: config.shortcode,
        PhoneNumber: input.phone,
        CallBackURL: input.callbackUrl,
        AccountReference: input.accountReference.slice(0, 12),
        TransactionDesc: input.transactionDesc.slice(0, 13),
      };
      const response = (await authorized('/mpesa/stkpush/v1/processrequest', body)) as StkPushResponse;
      if (String(response.ResponseCode) !== '0' || !response.CheckoutRequestID) {
        throw new DarajaError(502, String(response.ResponseCode ?? 'unknown'), response.ResponseDescription ?? 'STK push not accepted');
      }
      return response;
    },

    async registerC2bUrls(input) {
      const response = (await authorized('/mpesa/c2b/v2/registerurl', {
        ShortCode: config.shortcode,
        ResponseType: input.responseType,
        ConfirmationURL: input.confirmationUrl,
        ValidationURL: input.validationUrl,
      })) as { ResponseCode?: unknown; ResponseDescription?: unknown };
      // Older sandboxes answered without a ResponseCode: only an explicit non-zero code is a refusal.
      if (response.ResponseCode !== undefined && String(response.ResponseCode) !== '0') {
        throw new DarajaError(502, String(response.ResponseCode), String(response.ResponseDescription ?? 'C2B URLs not registered'));
      }
    },

    async registerPull(input) {
      const response = (await authorized('/pulltransactions/v1/register', { ShortCode: config.shortcode, RequestType: 'Pull', NominatedNumber: input.nominatedNumber, CallBackURL: input.callbackUrl })) as Record<string, unknown>;
      // Some copies of the docs write the keys with spaces ("Response Status").
      const status = String(response.ResponseStatus ?? response['Response Status'] ?? '');
      if (status !== '1000' && status !== '1001') throw new DarajaError(502, status || 'unknown', String(response.ResponseDescription ?? response['Response Description'] ?? 'Pull Transactions not registered'));
    },

    async pullQuery(input) {
      const response = (await authorized('/pulltransactions/v1/query', { ShortCode: config.shortcode, StartDate: pullTime(input.start), EndDate: pullTime(input.end), OffSetValue: String(input.offset) })) as { ResponseCode?: unknown; ResponseMessage?: unknown; Response?: unknown };
      const code = String(response.ResponseCode ?? '');
      if (code === '1001') return [];
      if (code !== '1000') throw new DarajaError(502, code || 'unknown', String(response.ResponseMessage ?? 'Pull Transactions query failed'));
      // `Response` is an array of arrays (one inner array per page, in practice one).
      return Array.isArray(response.Response) ? (response.Response as unknown[]).flat().filter((row): row is PulledRow => typeof row === 'object' && row !== null && 'transactionId' in row) : [];
    },

    async stkQuery(checkoutRequestId) {
      try {
        const response = (await authorized('/mpesa/stkpushquery/v1/query', { ...credentials(), CheckoutRequestID: checkoutRequestId })) as StkQueryResponse;
        if (response.ResultCode === undefined || response.ResultCode === null || response.ResultCode === '') return { state: 'pending' };
        return {
          state: 'final',
          resultCode: Number(response.ResultCode),
          resultDesc: String(response.ResultDesc ?? ''),
          merchantRequestId: String(response.MerchantRequestID ?? ''),
          checkoutRequestId: String(response.CheckoutRequestID ?? checkoutRequestId),
        };
      } catch (error) {
        if (error instanceof DarajaError && error.stillProcessing) return { state: 'pending' };
        throw error;
      }
    },
  };
}
