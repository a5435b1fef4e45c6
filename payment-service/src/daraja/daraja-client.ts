import type { DarajaConfig } from '../config.js';
import { createAgents, request as httpRequest, type Agents, type HttpResponse } from '../http.js';
import {
  darajaPassword,
  darajaTimestamp,
  type DarajaErrorBody,
  type StkPushRequest,
  type StkPushResponse,
  type StkQueryResponse,
} from './protocol.js';

/** A Daraja failure: HTTP status plus Daraja's errorCode/errorMessage when it sent them. */
export class DarajaError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly errorCode: string,
    readonly errorMessage: string,
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

export interface DarajaClient {
  stkPush(input: { amount: number; phone: string; accountReference: string; transactionDesc: string; callbackUrl: string }): Promise<StkPushResponse>;
  stkQuery(checkoutRequestId: string): Promise<StkQueryResult>;
}

const TOKEN_MARGIN_MS = 60_000;

/**
 * A small typed Daraja client. The OAuth token is cached until a minute before it expires,
 * shared by concurrent callers, and fetched again once when Daraja answers 401 (expired or revoked).
 */
export function createDarajaClient(config: Omit<DarajaConfig, 'baseUrl'> & { baseUrl: string | (() => string); agents?: Agents }): DarajaClient {
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
      throw new DarajaError(0, 'network', error instanceof Error ? error.message : 'Daraja is not reachable');
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

  return {
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
