import type { StkPushAnswer } from '@tukio/shared/internal-api';
import type { Language } from '@tukio/shared/languages';
import { AppError, type ErrorCode } from '../../lib/app-error.js';
import type { Logger } from '../../lib/logger.js';
import type { GuestCheckout } from './guest-checkout.service.js';
import { GatewayUnreachable, PushOutcomeUnknown, PushRefused, type PaymentGateway } from './payment-gateway.js';
import type { PaymentsService } from './payments.service.js';

const INITIATE_FAILED = 'Failed to initiate payment';
const UNAVAILABLE = 'Tukio is temporarily unavailable. Please try again in a moment.';
/** The prompt may be on the phone already, so "try again" would be wrong: the client keeps looking for the payment. */
const OUTCOME_UNKNOWN = 'Your M-Pesa prompt may have been sent: watch your phone. If you pay, your tickets will follow.';

/** An stkPush failure: every one starts with the same words, then says why. */
export const initiateFailed = (status: number, code: ErrorCode, reason: string, fields: { field?: string | undefined; params?: Record<string, unknown> | undefined; body?: Record<string, unknown> } = {}) =>
  new AppError(status, code, `${INITIATE_FAILED}: ${reason}`, {
    ...(fields.field ? { field: fields.field } : {}),
    ...(fields.params ? { params: fields.params as never } : {}),
    ...(fields.body ? { body: fields.body } : {}),
  });

/** Something the checkout depends on cannot answer now: try again. */
export const checkoutUnavailable = () => initiateFailed(503, 'service_unavailable', UNAVAILABLE);

/** The line in front of a busy sale (the waiting-room module, above checkout): a hold waits for the buyer's turn. */
export interface SaleLine {
  admit(eventId: string, member: { userId: string } | { phone: string }): Promise<void>;
  /** Runs an admitted buyer's seat hold, timed: the line's admission rate follows how long holds take. */
  timeHold<T>(hold: () => Promise<T>): Promise<T>;
  /** A whole push (hold, prompt, record): the admission rate follows that too. */
  observePush(ms: number): void;
}

/** Who buys: a signed-in member, or a guest by phone (the phone's shadow account buys). */
export type Buyer = { userId: string } | { guest: { email?: string | undefined; language?: Language | undefined } };

export interface CheckoutRequest {
  eventId: string;
  quantity: number;
  phone: string;
  items?: Array<{ typeId: string; quantity: number }> | undefined;
  promoCode?: string | undefined;
  /** The buyer's answers to the event's checkout questions; absent from a client that knows nothing of them. */
  answers?: unknown;
  /** Pay the deposit of the type's instalment plan now (docs/decisions/instalments.md). */
  instalments?: boolean | undefined;
  /** On an event series: the date picked. */
  dateId?: string | undefined;
}

/**
 * The event's checkout questions (the checkout-questions module, above checkout; docs/decisions/checkout-questions.md):
 * `check` refuses answers that break the questions (a 400 before anything is held); `keep` stores them on the held order.
 */
export interface OrderAnswers<Checked = unknown> {
  check(request: { eventId: string; quantity: number; items?: Array<{ typeId: string; quantity: number }> | undefined }, answers: unknown): Promise<Checked>;
  keep(orderId: string, checked: Checked): Promise<void>;
}

/**
 * One purchase by M-Pesa prompt: hold the seats (after the sale's line, if any), ask the payment service to send
 * the prompt, record the push. Named steps; the seats go back at once when the prompt is refused, and stay held
 * when it may have gone out (the push journal on the payment service and the reconciler find it then).
 */
export function createStartCheckoutHandler(deps: {
  payments: PaymentsService;
  guests: GuestCheckout;
  line: SaleLine;
  gateway: PaymentGateway;
  logger: Logger;
  /** Checkout questions; without it answers are ignored. */
  answers?: OrderAnswers | undefined;
  /** payment_push_seconds, for operators. */
  pushSeconds?: { observe(seconds: number): void } | undefined;
}) {
  const { payments, logger } = deps;

  /** A refusal of the hold keeps its code and params, after the stkPush words; anything else is "try again". */
  function holdFailed(error: unknown): AppError {
    if (error instanceof AppError && error.status < 500) return initiateFailed(error.status, error.code, error.message, { field: error.details?.field, params: error.details?.params, body: error.details?.body });
    if (!(error instanceof AppError)) logger.error('seat hold failed', error);
    return checkoutUnavailable();
  }

  async function holdSeats(buyer: Buyer, checkoutRequest: CheckoutRequest) {
    const { answers: _answers, ...request } = checkoutRequest;
    const member = 'userId' in buyer;
    await deps.line.admit(request.eventId, member ? { userId: buyer.userId } : { phone: request.phone });
    return deps.line.timeHold(() =>
      member
        ? payments.createOrder(buyer.userId, request)
        : deps.guests.createOrder({ ...request, ...(buyer.guest.email ? { guestEmail: buyer.guest.email } : {}), ...(buyer.guest.language ? { language: buyer.guest.language } : {}) }),
    );
  }

  async function release(orderId: string, reason: string) {
    await payments.abandonOrder(orderId, reason.slice(0, 500)).catch((error: unknown) => logger.error(`could not release order ${orderId}`, error));
  }

  async function sendPrompt(order: Awaited<ReturnType<typeof holdSeats>>, phone: string): Promise<StkPushAnswer> {
    try {
      return await deps.gateway.stkPush({ orderId: order.orderId, amount: order.due, phone, accountReference: order.accountReference, transactionDesc: order.transactionDesc });
    } catch (error) {
      if (error instanceof PushOutcomeUnknown) {
        logger.error(`order ${order.orderId}: ${error.message}; its seats stay held until the push is found or the hold expires`);
        throw new AppError(error.timedOut ? 504 : 502, 'payment_outcome_unknown', OUTCOME_UNKNOWN);
      }
      if (error instanceof GatewayUnreachable) logger.error('payment service unreachable', error.cause);
      else if (!(error instanceof PushRefused)) logger.error('STK push failed', error);
      await release(order.orderId, error instanceof Error ? error.message : 'push failed');
      if (error instanceof PushRefused) {
        const { params, ...rest } = error.fields;
        throw initiateFailed(error.status, error.code, error.message, { params: params as Record<string, unknown> | undefined, body: rest });
      }
      throw new AppError(503, 'payment_service_unreachable', 'The payment service is not reachable right now. Please try again in a moment.');
    }
  }

  async function handle(buyer: Buyer, request: CheckoutRequest, abandoned?: AbortSignal) {
    const startedAt = performance.now();
    // The buyer already has an answer (a timeout): nothing is held or sent for this request any more.
    if (abandoned?.aborted) throw checkoutUnavailable();
    let order;
    let checked: unknown;
    try {
      // Answers are checked before the line and the hold: a refusal holds nothing.
      checked = await deps.answers?.check(request, request.answers);
      order = await holdSeats(buyer, request);
    } catch (error) {
      throw holdFailed(error);
    }
    try {
      await deps.answers?.keep(order.orderId, checked);
    } catch (error) {
      logger.error(`order ${order.orderId}: its checkout answers could not be kept`, error);
      await release(order.orderId, 'its checkout answers could not be kept');
      throw checkoutUnavailable();
    }
    if (abandoned?.aborted) {
      // Held after the buyer had an answer: the seats go back, and no prompt reaches a phone whose owner was told to try again.
      await release(order.orderId, 'the buyer had an answer before the prompt');
      throw checkoutUnavailable();
    }
    const push = await sendPrompt(order, request.phone);
    try {
      await payments.recordPush({ orderId: order.orderId, checkoutRequestId: push.checkoutRequestId, merchantRequestId: push.merchantRequestId });
    } catch (error) {
      // The payment service journaled the push and records it on its next pass; the prompt is on the phone.
      logger.error(`push ${push.checkoutRequestId} was sent but could not be recorded yet`, error);
      throw new AppError(502, 'payment_outcome_unknown', OUTCOME_UNKNOWN);
    }
    const pushMs = Math.round(performance.now() - startedAt);
    deps.line.observePush(pushMs);
    deps.pushSeconds?.observe(pushMs / 1000);
    return { order, push };
  }

  return { handle };
}

export type StartCheckoutHandler = ReturnType<typeof createStartCheckoutHandler>;
