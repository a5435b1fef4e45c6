import { createHash } from 'node:crypto';
import type { CreateOrderRequest, HeldOrder, PaymentView } from '@tukio/shared/internal-api';
import { ApiServerError, type ApiServerClient } from '../api-server-client.js';
import { DarajaError, type DarajaClient } from '../daraja/daraja-client.js';
import type { StkPushResponse } from '@tukio/shared/daraja-protocol';
import { isErrorCode, type ErrorCode } from '@tukio/shared/error-codes';
import type { Language } from '@tukio/shared/languages';
import { PaymentServiceError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { PaymentMetrics } from '../metrics.js';
import type { Settlement } from '../settlement.js';

const INITIATE_FAILED = 'Failed to initiate payment';
const UNAVAILABLE = 'Tukio is temporarily unavailable. Please try again in a moment.';
const UNREACHABLE = 'M-Pesa is not reachable right now. Please try again in a minute.';
export const LOGIN_TO_CONFIRM = 'Please log in to confirm the payment.';
/** Same words as the API server's status for a pending payment. */
const PENDING_MESSAGE = 'Payment is still pending. Complete the M-Pesa prompt on your phone, then confirm again.';
/** Recording a push on the API server: tries after the first, waiting 200 ms, 400 ms, … between them. */
const RECORD_RETRIES = 4;

/** An stkPush failure: every one starts with the same words, then says why. */
export const initiateFailed = (status: number, code: ErrorCode, reason: string, fields: Record<string, unknown> = {}) =>
  new PaymentServiceError(status, code, `${INITIATE_FAILED}: ${reason}`, fields);

/** Something the checkout depends on (the API server, the Redis counting the stkPush limits) cannot answer now: try again. */
export const checkoutUnavailable = () => initiateFailed(503, 'service_unavailable', UNAVAILABLE);

/** A confirmPayment failure: like every confirm answer it says `success: false`. */
export const confirmFailed = (status: number, code: ErrorCode, message: string, fields: Record<string, unknown> = {}) =>
  new PaymentServiceError(status, code, message, { success: false, ...fields });

/** The API server's code and params of a refusal it answered, passed on to the buyer with its message. */
function apiServerCode(error: ApiServerError): { code: ErrorCode; fields: Record<string, unknown> } {
  const { code, params, field } = error.body;
  return {
    code: isErrorCode(code) ? code : 'bad_request',
    fields: { ...(typeof field === 'string' ? { field } : {}), ...(params && typeof params === 'object' ? { params } : {}) },
  };
}

type ConfirmedStatus = Pick<PaymentView, 'success' | 'resultDesc' | 'status' | 'orderStatus' | 'checkoutRequestId' | 'eventId' | 'amount' | 'quantity' | 'mpesaReceiptNumber'> &
  Partial<Pick<PaymentView, 'ticketToken'>>;

/** The confirmPayment answer for a status (`resultdDesc`: the misspelling older clients read). */
function confirmAnswer(status: ConfirmedStatus) {
  return {
    success: status.success,
    resultDesc: status.resultDesc,
    resultdDesc: status.resultDesc,
    status: status.status,
    orderStatus: status.orderStatus,
    CheckoutRequestID: status.checkoutRequestId,
    eventId: status.eventId,
    amount: status.amount,
    quantity: status.quantity,
    mpesaReceiptNumber: status.mpesaReceiptNumber,
    // A paid guest checkout: its ticket page, `/t/<ticketToken>`.
    ...(status.ticketToken ? { ticketToken: status.ticketToken } : {}),
  };
}

export type ConfirmAnswer = ReturnType<typeof confirmAnswer>;

const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');
/**
 * Who started a push, as the open-push map keeps it: a member's token hash, or this mark for a guest (no
 * token; a guest checkout is answered to whoever holds its CheckoutRequestID). No hash is ever this short.
 */
const GUEST_BUYER = 'guest';
const buyerOf = (token: string | undefined) => (token === undefined ? GUEST_BUYER : tokenHash(token));

/** What stkPush asks for: the order, plus a guest's optional email. */
export type CheckoutInput = Omit<CreateOrderRequest, 'deadline'> & { guestEmail?: string | undefined; language?: Language | undefined };

/** Why Daraja refused a push, in words a buyer can act on. */
function explainDarajaError(error: DarajaError): { status: number; code: ErrorCode; reason: string; params?: Record<string, string> } {
  if (error.subscriberLocked) {
    return {
      status: 409,
      code: 'mpesa_prompt_pending',
      reason: 'a prompt is already pending on this phone (M-Pesa 1001). Complete or cancel it on the phone, wait a moment, then try again.',
    };
  }
  if (error.network || error.httpStatus >= 500) return { status: 502, code: 'mpesa_unreachable', reason: UNREACHABLE };
  if (/PhoneNumber/i.test(error.errorMessage)) {
    return { status: 400, code: 'mpesa_phone_refused', reason: 'M-Pesa does not accept this phone number. Use a Safaricom number, 254 followed by 9 digits.' };
  }
  return { status: 502, code: 'mpesa_refused', reason: `M-Pesa refused the request (${error.errorMessage}).`, params: { reason: error.errorMessage } };
}

export interface CheckoutDeps {
  api: ApiServerClient;
  daraja: DarajaClient;
  settlement: Settlement;
  logger: Logger;
  /** stk_pushes_total{outcome}. */
  metrics?: Pick<PaymentMetrics, 'stkPushes'> | undefined;
  callbackUrl: () => string;
  /** A buyer's poll this long after the push asks the API server (and, while pending, Daraja) instead of answering "pending" here. */
  confirmQueryAfterSeconds: number;
}

/**
 * The checkout rules of the payment service: the order comes from the API server (it prices it and
 * holds the seats), the prompt goes to Daraja, the push is journaled on disk and recorded on the API
 * server (with retries), and the buyer's polls are answered from the open-push map while they can
 * be. Routes only parse the request, call this and shape the answer; failures are
 * PaymentServiceErrors for the one error handler.
 */
export function createCheckoutService(deps: CheckoutDeps) {
  const { api, daraja, settlement, logger } = deps;

  /** A call made for the buyer failed: the API server's 4xx is the buyer's to read, anything else is logged and answered 503. */
  function initiateFailedBy(error: unknown, what: string): PaymentServiceError {
    if (error instanceof ApiServerError && error.status < 500) {
      const { code, fields } = apiServerCode(error);
      return initiateFailed(error.status, code, error.message, fields);
    }
    logger.error(what, error);
    return checkoutUnavailable();
  }

  /** The prompt on the buyer's phone; when Daraja refuses, the order's seats are released at once. */
  async function sendPush(order: HeldOrder, phone: string): Promise<StkPushResponse> {
    let push: StkPushResponse;
    try {
      push = await daraja.stkPush({
        amount: order.amount,
        phone,
        accountReference: order.accountReference,
        transactionDesc: order.transactionDesc,
        callbackUrl: deps.callbackUrl(),
      });
    } catch (error) {
      await api.abandonOrder(order.orderId, error instanceof Error ? error.message : 'push failed').catch((abandonError: unknown) => {
        logger.error(`could not release order ${order.orderId}`, abandonError);
      });
      deps.metrics?.stkPushes.inc({ outcome: error instanceof DarajaError && !error.network && error.httpStatus < 500 ? 'refused' : 'failed' });
      if (error instanceof DarajaError) {
        const { status, code, reason, params } = explainDarajaError(error);
        logger.info(`STK push refused: ${error.message}`);
        throw initiateFailed(status, code, reason, { errorCode: error.errorCode, ...(params ? { params } : {}) });
      }
      logger.error('STK push failed', error);
      throw initiateFailed(502, 'mpesa_unreachable', UNREACHABLE);
    }
    deps.metrics?.stkPushes.inc({ outcome: 'sent' });
    return push;
  }

  /**
   * The prompt is on the phone now and the customer may pay whatever happens next. The push is
   * journaled on disk first (push-journal.ts), so that it is recorded even if the API server is
   * down or this process is killed before recording it: a payment for a push the API server never
   * saw would be refused as unknown, and the customer would pay for no ticket.
   */
  async function journalAndRecord(order: HeldOrder, push: StkPushResponse, startedAt: number): Promise<void> {
    const checkoutRequestId = push.CheckoutRequestID;
    const entry = { orderId: order.orderId, checkoutRequestId, merchantRequestId: push.MerchantRequestID, sentAt: Date.now() };
    let journaled = true;
    try {
      settlement.journal.add(entry);
    } catch (error) {
      journaled = false;
      logger.error(`push ${checkoutRequestId} could not be journaled`, error);
    }
    // Recorded before answering; a callback arriving meanwhile waits for this (settlement.recording).
    const record = (async () => {
      for (let attempt = 0; ; attempt += 1) {
        try {
          // The whole push's time so far (order, prompt, earlier tries): the waiting room's adaptive rate follows it.
          await settlement.recordPush(entry, api, { pushMs: Math.round(performance.now() - startedAt) });
          return;
        } catch (error) {
          if (attempt >= RECORD_RETRIES || (error instanceof ApiServerError && error.status < 500)) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
        }
      }
    })();
    settlement.recording.set(checkoutRequestId, record);
    try {
      await record;
    } catch (error) {
      if (!journaled || !settlement.unrecorded(checkoutRequestId)) {
        logger.error(`push ${checkoutRequestId} was sent but could not be recorded`, error);
        throw initiateFailed(503, 'push_not_recorded', 'the prompt was sent but Tukio could not record it. Do not pay; try again in a moment.');
      }
      // Kept in the journal: the reconciler records it once the API server answers, then settles
      // it. The buyer follows it as any other push (polls are answered "pending" meanwhile).
      logger.error(`push ${checkoutRequestId} was sent but is not recorded yet; the reconciler will record it`, error);
    } finally {
      settlement.recording.delete(checkoutRequestId);
    }
  }

  return {
    /** The account the API server verifies `token` belongs to (a rate limit counts per account). */
    async verifyBuyer(token: string): Promise<string> {
      try {
        return (await api.whoami(token)).userId;
      } catch (error) {
        throw initiateFailedBy(error, 'token check failed');
      }
    },

    /**
     * Order, prompt, journal and record; then the push is open, and its buyer's polls are answered here.
     * Without a token it is a guest purchase: the API server's guest route buys for the phone's shadow account.
     */
    async startCheckout(token: string | undefined, input: CheckoutInput, abandoned?: AbortSignal): Promise<{ order: HeldOrder; push: StkPushResponse }> {
      const startedAt = performance.now();
      // The buyer already has an answer (a timeout): nothing is held or sent for this request any more.
      if (abandoned?.aborted) throw checkoutUnavailable();
      let order: HeldOrder;
      try {
        const { guestEmail, language, ...request } = input;
        order =
          token === undefined
            ? await api.createGuestOrder({ ...request, ...(guestEmail ? { guestEmail } : {}), ...(language ? { language } : {}) })
            : await api.createOrder(token, request);
      } catch (error) {
        throw initiateFailedBy(error, 'create order failed');
      }
      if (abandoned?.aborted) {
        // Held after the buyer had an answer: the seats go back, and no prompt reaches a phone whose owner was told to try again.
        logger.info(`order ${order.orderId} released: its stkPush request was answered before the prompt could go out`);
        await api.abandonOrder(order.orderId, 'the buyer had an answer before the prompt').catch((error: unknown) => logger.error(`could not release order ${order.orderId}`, error));
        throw checkoutUnavailable();
      }
      const push = await sendPush(order, input.phone);
      await journalAndRecord(order, push, startedAt);
      settlement.open.add(push.CheckoutRequestID, { tokenHash: buyerOf(token), eventId: input.eventId, amount: order.amount, quantity: order.quantity });
      return { order, push };
    },

    /**
     * Where the buyer's payment stands, for the buyer only (the API server checks the token). Without a
     * token only a guest checkout is answered; a member's payment needs its owner's token (401).
     */
    async confirm(token: string | undefined, checkoutRequestId: string): Promise<ConfirmAnswer> {
      // A push this instance sent, still unanswered, asked about with the token that made it:
      // "pending" needs no round trip to the API server (polls are most of the traffic).
      // The same goes for its final result once the API server recorded it (settle returns the view).
      const open = settlement.open.get(checkoutRequestId);
      if (open && open.tokenHash === buyerOf(token)) {
        // A guest's final answer is asked of the API server each time: the order may have been attached
        // to an account since, and is then no longer answered without that account's token.
        if (open.state === 'final' && open.final && token !== undefined) return confirmAnswer(open.final);
        // Not recorded yet (the API server was down): nothing to ask it about, and it is still pending.
        if (open.state === 'open' && (Date.now() - open.createdAt < deps.confirmQueryAfterSeconds * 1000 || settlement.unrecorded(checkoutRequestId))) {
          const { eventId, amount, quantity } = open;
          return confirmAnswer({ success: false, resultDesc: PENDING_MESSAGE, status: 'pending', orderStatus: 'pending', checkoutRequestId, eventId, amount, quantity, mpesaReceiptNumber: null });
        }
      }
      try {
        // Journaled by an earlier run of this service and not recorded yet: record it first, or the
        // API server would answer 404 and the client would stop following a payment that is coming.
        if (!open && settlement.unrecorded(checkoutRequestId)) await settlement.recordIfJournaled(checkoutRequestId);
        const ask = () => (token === undefined ? api.guestPaymentStatus(checkoutRequestId) : api.paymentStatus(token, checkoutRequestId));
        let status = await ask();
        // The callback may be late or lost: once the buyer asks after a while, ask Daraja directly.
        if (status.status === 'pending' && status.ageSeconds >= deps.confirmQueryAfterSeconds) {
          try {
            if (await settlement.reconcileOne(checkoutRequestId)) status = await ask();
          } catch (error) {
            logger.error(`STK query for ${checkoutRequestId} failed`, error);
          }
        }
        if (open && status.status !== 'pending') settlement.open.remember(status);
        return confirmAnswer(status);
      } catch (error) {
        // Without a token, "not a guest's" is answered as before guest checkout: log in to confirm it.
        if (token === undefined && error instanceof ApiServerError && error.status === 404) throw confirmFailed(401, 'login_required', LOGIN_TO_CONFIRM);
        if (error instanceof ApiServerError && error.status === 404) throw confirmFailed(404, 'no_payment_to_confirm', 'No payment to confirm');
        if (error instanceof ApiServerError && error.status < 500) {
          const { code, fields } = apiServerCode(error);
          throw confirmFailed(error.status, code, error.message, fields);
        }
        logger.error('confirm payment failed', error);
        throw confirmFailed(503, 'payment_not_confirmed', 'An error occurred during payment confirmation');
      }
    },
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
