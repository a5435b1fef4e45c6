import type { C2bConfirmationRequest, C2bConfirmationResponse, C2bValidateRequest, C2bValidateResponse } from '@tukio/shared/internal-c2b';
import {
  INTERNAL_BATCH_MAX,
  type BatchResponse,
  type PendingPushes,
  type RecordPushRequest,
  type SettleRequest,
  type SettleResponse,
} from '@tukio/shared/internal-api';
import type {
  AuditRequest,
  AuditResponse,
  RefundResultRequest,
  RefundResultResponse,
} from '@tukio/shared/internal-refunds';
import type { PayoutResultBody } from '@tukio/shared/internal-payouts';
import { createBatcher } from '@tukio/shared/node/batcher';
import { currentRequestId, REQUEST_ID_HEADER } from '@tukio/shared/node/request-context';
import { createAgents, request, type Agents, type HttpResponse } from '@tukio/shared/node/http-request';

/**
 * Calls to the API server's /api/internal/payments, /api/internal/refunds, /api/internal/payouts and /api/internal/audit endpoints
 * (the database lives there), typed by the schemas the API server validates them with
 * (@tukio/shared/internal-api, @tukio/shared/internal-refunds).
 * Every call carries X-Internal-Key. A call made for a request carries its X-Request-Id: the API
 * server's log lines for it read the same.
 *
 * Recording pushes and settling payments go in batches (POST …/batch): such a call is sent at once while
 * none of its kind is on the way, and the calls made meanwhile go together in the next request, each
 * answered as its own request would have been. A burst of buyers costs a few requests instead of one each.
 */

export class ApiServerError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiServerError';
  }
}

/**
 * The API server refused the call for good: the same request gets the same 4xx (a result it doubts, an unknown
 * attempt, a body it rejects). Not 408/429 (try later), nor 401/403: a wrong INTERNAL_API_KEY is this service's
 * configuration to fix, after which the call succeeds.
 */
export const refusedForGood = (error: unknown) => error instanceof ApiServerError && error.status >= 400 && error.status < 500 && ![401, 403, 408, 429].includes(error.status);

export interface ApiServerClient {
  /** How long one call may take, queueing included. */
  readonly timeoutMs: number;
  recordPush(body: RecordPushRequest): Promise<void>;
  settle(body: SettleRequest): Promise<SettleResponse>;
  pendingPushes(olderThanSeconds: number, limit?: number): Promise<PendingPushes>;
  /** Successes recorded from a callback alone that no STK query has confirmed (the reconciler's second look). */
  unconfirmedSuccesses(olderThanSeconds: number, limit?: number): Promise<PendingPushes>;
  refundResult(body: RefundResultRequest): Promise<RefundResultResponse>;
  audit(body: AuditRequest): Promise<AuditResponse>;
  /** One result of an organiser payout attempt (the outbox retries it until acknowledged). */
  payoutResult(body: PayoutResultBody): Promise<{ recorded: boolean }>;
  /** M-Pesa asks whether a Paybill payment may go ahead (docs/decisions/paybill.md). */
  c2bValidate(body: C2bValidateRequest): Promise<C2bValidateResponse>;
  /** A Paybill payment M-Pesa completed (the outbox retries it until acknowledged; the API server settles it once). */
  c2bConfirm(body: C2bConfirmationRequest): Promise<C2bConfirmationResponse>;
}

export function createApiServerClient(options: { baseUrl: string; internalApiKey: string; timeoutMs?: number; agents?: Agents }): ApiServerClient {
  const base = `${options.baseUrl.replace(/\/+$/, '')}/api/internal`;
  const agents = options.agents ?? createAgents(32);
  const timeoutMs = options.timeoutMs ?? 30_000;

  /** A refusal or failure the API server answered, as the error callers handle. */
  function answerError(status: number, body: unknown): ApiServerError {
    const parsed = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const message = typeof parsed.message === 'string' ? parsed.message : typeof parsed.msg === 'string' ? parsed.msg : `Tukio server error ${status}`;
    return new ApiServerError(status, message, parsed);
  }

  /** `requestId`: the request the call is made for (default: the current one; null: none). */
  async function call<T>(method: 'GET' | 'POST', path: string, init: { body?: unknown; requestId?: string | null | undefined } = {}): Promise<T> {
    const headers: Record<string, string> = { 'x-internal-key': options.internalApiKey, accept: 'application/json' };
    const requestId = init.requestId === undefined ? currentRequestId() : (init.requestId ?? undefined);
    if (requestId) headers[REQUEST_ID_HEADER] = requestId;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    let response: HttpResponse;
    try {
      response = await request(agents, `${base}${path}`, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        timeoutMs,
      });
    } catch {
      throw new ApiServerError(503, 'The Tukio server is not reachable right now. Please try again in a moment.');
    }
    const text = response.text;
    let parsed: Record<string, unknown>;
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      parsed = {};
    }
    if (response.status < 200 || response.status >= 300) throw answerError(response.status, parsed);
    return parsed as T;
  }

  /**
   * Calls to POST `path` sent through POST `path`/batch (see above); resolves or fails as the call alone
   * would. A batch of one carries its request's id, as the call alone did; a batch of several was made for
   * several requests and carries none (the API server's line for it has an id of its own).
   */
  function batched<Item, Result>(path: string): (item: Item) => Promise<Result> {
    const send = createBatcher(
      async (calls: Array<{ item: Item; requestId: string | undefined }>) => {
        const requestId = calls.length === 1 ? (calls[0]!.requestId ?? null) : null;
        return (await call<BatchResponse>('POST', `${path}/batch`, { body: { items: calls.map((queued) => queued.item) }, requestId })).results;
      },
      // A few on the way at once: one sent to an instance that stopped answering holds back its own calls only.
      { maxBatch: INTERNAL_BATCH_MAX, inFlight: 4 },
    );
    return async (item) => {
      const { status, body } = await send({ item, requestId: currentRequestId() });
      if (status < 200 || status >= 300) throw answerError(status, body);
      return body as Result;
    };
  }
  const recordPush = batched<RecordPushRequest, unknown>('/payments/pushes');
  const settle = batched<SettleRequest, SettleResponse>('/payments/settle');

  return {
    timeoutMs,
    // The API server holds no seats once we would have stopped waiting (5 s margin for the answer).
    recordPush: async (body) => {
      await recordPush(body);
    },
    settle,
    pendingPushes: (olderThanSeconds, limit = 100) =>
      call<PendingPushes>('GET', `/payments/pending?olderThan=${olderThanSeconds}&limit=${limit}`),
    unconfirmedSuccesses: (olderThanSeconds, limit = 100) =>
      call<PendingPushes>('GET', `/payments/unconfirmed?olderThan=${olderThanSeconds}&limit=${limit}`),
    refundResult: (body) => call<RefundResultResponse>('POST', '/refunds/result', { body }),
    audit: (body) => call<AuditResponse>('POST', '/audit', { body }),
    payoutResult: (body) => call<{ recorded: boolean }>('POST', '/payouts/results', { body, requestId: null }),
    c2bValidate: (body) => call<C2bValidateResponse>('POST', '/payments/c2b/validate', { body }),
    c2bConfirm: (body) => call<C2bConfirmationResponse>('POST', '/payments/c2b/confirmations', { body, requestId: null }),
  };
}
