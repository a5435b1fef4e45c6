import type { CreateGuestOrderRequest, CreateOrderRequest, HeldOrder, PaymentView, PendingPushes, RecordPushRequest, SettleRequest, SettleResponse, WhoamiResponse } from '@tukio/shared/internal-api';
import type {
  AuditRequest,
  AuditResponse,
  ClaimedRefunds,
  RefundAcceptedRequest,
  RefundResultRequest,
  RefundResultResponse,
  UnresolvedRefunds,
} from '@tukio/shared/internal-refunds';
import { currentRequestId, REQUEST_ID_HEADER } from '@tukio/shared/node/request-context';
import { createAgents, request, type Agents, type HttpResponse } from './http.js';

/**
 * Calls to the API server's /api/internal/payments, /api/internal/refunds and /api/internal/audit endpoints
 * (the database lives there), typed by the schemas the API server validates them with
 * (@tukio/shared/internal-api, @tukio/shared/internal-refunds).
 * Every call carries X-Internal-Key; calls made for a user forward that user's bearer token,
 * so the API server decides who the user is. A call made for a request carries its X-Request-Id:
 * the API server's log lines for it read the same.
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

export interface ApiServerClient {
  /** The account a user's token belongs to, as the API server verifies it (401 = not a valid token). */
  whoami(userToken: string): Promise<WhoamiResponse>;
  /** The deadline is added here: the API server holds no seats once this client would have stopped waiting. */
  createOrder(userToken: string, body: Omit<CreateOrderRequest, 'deadline'>): Promise<HeldOrder>;
  /** A purchase by phone without an account (the phone's shadow account buys); the deadline is added here too. */
  createGuestOrder(body: Omit<CreateGuestOrderRequest, 'deadline'>): Promise<HeldOrder>;
  /** How long one call may take, queueing included. */
  readonly timeoutMs: number;
  abandonOrder(orderId: string, reason: string): Promise<void>;
  recordPush(body: RecordPushRequest): Promise<void>;
  settle(body: SettleRequest): Promise<SettleResponse>;
  pendingPushes(olderThanSeconds: number, limit?: number): Promise<PendingPushes>;
  paymentStatus(userToken: string, checkoutRequestId: string): Promise<PaymentView>;
  /** A guest checkout's status, for whoever holds its CheckoutRequestID (404 for a member's payment). */
  guestPaymentStatus(checkoutRequestId: string): Promise<PaymentView>;
  /** Due refunds, each with a new attempt (status sent) to send now. */
  claimRefunds(limit: number): Promise<ClaimedRefunds>;
  refundAccepted(body: RefundAcceptedRequest): Promise<{ changed: boolean }>;
  refundResult(body: RefundResultRequest): Promise<RefundResultResponse>;
  unresolvedRefunds(olderThanSeconds: number, limit?: number): Promise<UnresolvedRefunds>;
  audit(body: AuditRequest): Promise<AuditResponse>;
}

export function createApiServerClient(options: { baseUrl: string; internalApiKey: string; timeoutMs?: number; agents?: Agents }): ApiServerClient {
  const base = `${options.baseUrl.replace(/\/+$/, '')}/api/internal`;
  const agents = options.agents ?? createAgents(32);
  const timeoutMs = options.timeoutMs ?? 30_000;

  async function call<T>(method: 'GET' | 'POST', path: string, init: { body?: unknown; userToken?: string } = {}): Promise<T> {
    const headers: Record<string, string> = { 'x-internal-key': options.internalApiKey, accept: 'application/json' };
    if (init.userToken) headers.authorization = `Bearer ${init.userToken}`;
    const requestId = currentRequestId();
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
    if (response.status < 200 || response.status >= 300) {
      const message = typeof parsed.message === 'string' ? parsed.message : typeof parsed.msg === 'string' ? parsed.msg : `Tukio server error ${response.status}`;
      throw new ApiServerError(response.status, message, parsed);
    }
    return parsed as T;
  }

  return {
    timeoutMs,
    whoami: (userToken) => call<WhoamiResponse>('GET', '/payments/whoami', { userToken }),
    // The API server holds no seats once we would have stopped waiting (5 s margin for the answer).
    createOrder: (userToken, body) => call<HeldOrder>('POST', '/payments/orders', { body: { ...body, deadline: Date.now() + timeoutMs - 5000 } satisfies CreateOrderRequest, userToken }),
    createGuestOrder: (body) => call<HeldOrder>('POST', '/payments/guest-orders', { body: { ...body, deadline: Date.now() + timeoutMs - 5000 } satisfies CreateGuestOrderRequest }),
    abandonOrder: async (orderId, reason) => {
      await call('POST', `/payments/orders/${encodeURIComponent(orderId)}/abandon`, { body: { reason: reason.slice(0, 500) } });
    },
    recordPush: async (body) => {
      await call('POST', '/payments/pushes', { body });
    },
    settle: (body) => call<SettleResponse>('POST', '/payments/settle', { body }),
    pendingPushes: (olderThanSeconds, limit = 100) =>
      call<PendingPushes>('GET', `/payments/pending?olderThan=${olderThanSeconds}&limit=${limit}`),
    paymentStatus: (userToken, checkoutRequestId) => call<PaymentView>('GET', `/payments/status/${encodeURIComponent(checkoutRequestId)}`, { userToken }),
    guestPaymentStatus: (checkoutRequestId) => call<PaymentView>('GET', `/payments/guest-status/${encodeURIComponent(checkoutRequestId)}`),
    claimRefunds: (limit) => call<ClaimedRefunds>('POST', '/refunds/claim', { body: { limit } }),
    refundAccepted: (body) => call<{ changed: boolean }>('POST', '/refunds/accepted', { body }),
    refundResult: (body) => call<RefundResultResponse>('POST', '/refunds/result', { body }),
    unresolvedRefunds: (olderThanSeconds, limit = 100) => call<UnresolvedRefunds>('GET', `/refunds/unresolved?olderThan=${olderThanSeconds}&limit=${limit}`),
    audit: (body) => call<AuditResponse>('POST', '/audit', { body }),
  };
}
