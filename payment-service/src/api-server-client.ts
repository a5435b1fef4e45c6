import { createAgents, request, type Agents, type HttpResponse } from './http.js';
import { currentRequestId, REQUEST_ID_HEADER } from './request-context.js';

/**
 * Calls to the API server's /api/internal/payments endpoints (the database lives there).
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

export interface CreatedOrder {
  orderId: string;
  amount: number;
  quantity: number;
  holdExpiresAt: string;
  accountReference: string;
  transactionDesc: string;
  eventTitle: string;
}

export interface SettleRequest {
  checkoutRequestId: string;
  merchantRequestId?: string | undefined;
  resultCode: number;
  resultDesc: string;
  amount?: number | undefined;
  mpesaReceiptNumber?: string | undefined;
  phone?: string | undefined;
  transactionDate?: string | undefined;
  source: 'callback' | 'query';
  /** The order this service created for the push, when it knows it: lets the API server settle in one statement. */
  eventId?: string | undefined;
  quantity?: number | undefined;
}

export interface SettleResponse {
  checkoutRequestId: string;
  status: 'pending' | 'success' | 'failed' | 'cancelled';
  orderStatus: string;
  ticketsIssued: number;
  changed: boolean;
  /** The owner's view of the payment after settling (what GET /status answers). */
  view?: PaymentStatus | undefined;
}

export interface PaymentStatus {
  checkoutRequestId: string;
  status: 'pending' | 'success' | 'failed' | 'cancelled';
  orderStatus: string;
  success: boolean;
  resultDesc: string;
  eventId: string;
  eventTitle: string;
  amount: number;
  quantity: number;
  mpesaReceiptNumber: string | null;
  createdAt: string;
  ageSeconds: number;
}

export interface ApiServerClient {
  /** The account a user's token belongs to, as the API server verifies it (401 = not a valid token). */
  whoami(userToken: string): Promise<{ userId: string }>;
  createOrder(userToken: string, body: { eventId: string; quantity: number; phone: string }): Promise<CreatedOrder>;
  /** How long one call may take, queueing included. */
  readonly timeoutMs: number;
  abandonOrder(orderId: string, reason: string): Promise<void>;
  recordPush(body: { orderId: string; checkoutRequestId: string; merchantRequestId?: string }): Promise<void>;
  settle(body: SettleRequest): Promise<SettleResponse>;
  pendingPushes(olderThanSeconds: number, limit?: number): Promise<Array<{ checkoutRequestId: string; createdAt: string }>>;
  paymentStatus(userToken: string, checkoutRequestId: string): Promise<PaymentStatus>;
}

export function createApiServerClient(options: { baseUrl: string; internalApiKey: string; timeoutMs?: number; agents?: Agents }): ApiServerClient {
  const base = `${options.baseUrl.replace(/\/+$/, '')}/api/internal/payments`;
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
    whoami: (userToken) => call<{ userId: string }>('GET', '/whoami', { userToken }),
    // The API server holds no seats once we would have stopped waiting (5 s margin for the answer).
    createOrder: (userToken, body) => call<CreatedOrder>('POST', '/orders', { body: { ...body, deadline: Date.now() + timeoutMs - 5000 }, userToken }),
    abandonOrder: async (orderId, reason) => {
      await call('POST', `/orders/${encodeURIComponent(orderId)}/abandon`, { body: { reason: reason.slice(0, 500) } });
    },
    recordPush: async (body) => {
      await call('POST', '/pushes', { body });
    },
    settle: (body) => call<SettleResponse>('POST', '/settle', { body }),
    pendingPushes: (olderThanSeconds, limit = 100) =>
      call<Array<{ checkoutRequestId: string; createdAt: string }>>('GET', `/pending?olderThan=${olderThanSeconds}&limit=${limit}`),
    paymentStatus: (userToken, checkoutRequestId) => call<PaymentStatus>('GET', `/status/${encodeURIComponent(checkoutRequestId)}`, { userToken }),
  };
}
