import { isErrorCode, type ErrorCode } from '@tukio/shared/error-codes';
import { stkPushResponse, stkQueryResponse, type StkPushAnswer, type StkPushCall } from '@tukio/shared/internal-api';
import { createAgents, neverSent, request } from '@tukio/shared/node/http-request';
import { currentRequestId, REQUEST_ID_HEADER } from '@tukio/shared/node/request-context';

/** The payment service answered a refusal: M-Pesa's, in words for the buyer (`code`, `message`, its `errorCode`). */
export class PushRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'PushRefused';
  }
}

/**
 * The push may have reached M-Pesa (the payment service got the request and then failed or went silent): the
 * prompt may be on the phone, so the seats stay held and nobody is told to try again.
 */
export class PushOutcomeUnknown extends Error {
  constructor(readonly timedOut: boolean) {
    super(timedOut ? 'the payment service did not answer in time' : 'the payment service lost the request');
    this.name = 'PushOutcomeUnknown';
  }
}

/** The payment service could not be reached at all: nothing was sent. */
export class GatewayUnreachable extends Error {
  constructor(cause: unknown) {
    super('the payment service is not reachable', { cause });
    this.name = 'GatewayUnreachable';
  }
}

/** What the checkout asks of M-Pesa, through the payment service (the only process that speaks Daraja). */
export interface PaymentGateway {
  stkPush(call: StkPushCall): Promise<StkPushAnswer>;
  /** Asks M-Pesa where a push stands; a final answer is settled (through the payment results) before this resolves. */
  stkQuery(checkoutRequestId: string): Promise<{ settled: boolean }>;
}

/** A JSON body as an object (anything else, or no JSON at all, is an empty one). */
export const parsedBody = (text: string): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/**
 * POSTs JSON to the payment service's internal routes (X-Internal-Key, this request's id). A request that was never
 * sent throws GatewayUnreachable; one sent and then lost or timed out throws PushOutcomeUnknown (it may have acted).
 */
export function createInternalCaller(options: { paymentUrl: string; internalApiKey: string; timeoutMs: number }) {
  const base = options.paymentUrl.replace(/\/+$/, '');
  const agents = createAgents(64);
  return async function call(path: string, body: unknown) {
    const requestId = currentRequestId();
    try {
      return await request(agents, `${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-internal-key': options.internalApiKey, ...(requestId ? { [REQUEST_ID_HEADER]: requestId } : {}) },
        body: JSON.stringify(body),
        timeoutMs: options.timeoutMs,
      });
    } catch (error) {
      if (neverSent(error)) throw new GatewayUnreachable(error);
      throw new PushOutcomeUnknown(/timed out/.test(error instanceof Error ? error.message : ''));
    }
  };
}

/** POST /internal/stk-push and /internal/stk-query on the payment service (X-Internal-Key). */
export function createPaymentGateway(options: { paymentUrl: string; internalApiKey: string; timeoutMs: number }): PaymentGateway {
  const call = createInternalCaller(options);
  const parsed = parsedBody;

  return {
    async stkPush(push) {
      const answer = await call('/internal/stk-push', push);
      const body = parsed(answer.text);
      if (answer.status === 200) return stkPushResponse.parse(body);
      // A refusal M-Pesa gave (4xx, or 502 naming why): the prompt was not sent.
      if (answer.status < 500 || (answer.status === 502 && isErrorCode(body.code))) {
        const { message, code, errorCode, params } = body;
        throw new PushRefused(answer.status, isErrorCode(code) ? code : 'mpesa_refused', typeof message === 'string' ? message : 'M-Pesa refused the request.', {
          ...(errorCode !== undefined ? { errorCode } : {}),
          ...(params && typeof params === 'object' ? { params } : {}),
        });
      }
      throw new PushOutcomeUnknown(false);
    },
    async stkQuery(checkoutRequestId) {
      const answer = await call('/internal/stk-query', { checkoutRequestId });
      if (answer.status !== 200) throw new Error(`STK query through the payment service answered ${answer.status}`);
      return stkQueryResponse.parse(parsed(answer.text));
    },
  };
}
