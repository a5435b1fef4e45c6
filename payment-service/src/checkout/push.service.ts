import type { StkPushAnswer, StkPushCall } from '@tukio/shared/internal-api';
import type { ErrorCode } from '@tukio/shared/error-codes';
import { DarajaError, isUnknownRequest, type DarajaClient } from '../daraja/daraja-client.js';
import { PaymentServiceError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { PaymentMetrics } from '../metrics.js';
import type { Settlement } from '../settlement.js';

const UNREACHABLE = 'M-Pesa is not reachable right now. Please try again in a minute.';

/** Why Daraja refused a push, in words a buyer can act on (the API server prefixes "Failed to initiate payment: "). */
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

/**
 * What the API server's checkout asks of M-Pesa: send a prompt for an order it holds, and ask where a push
 * stands. No price, seat or order rule lives here: the API server decided all of that before asking.
 */
export function createPushService(deps: {
  daraja: DarajaClient;
  settlement: Settlement;
  logger: Logger;
  metrics?: Pick<PaymentMetrics, 'stkPushes'> | undefined;
  callbackUrl: () => string;
  /** Daraja is Tukio's simulator: the prompt's phone-page path it names is passed on (never with Safaricom). */
  simulator: boolean;
}) {
  const { daraja, settlement, logger } = deps;
  return {
    /**
     * The prompt on the buyer's phone. Once Daraja accepts it the money may move whatever happens next, so the
     * push is journaled on disk before answering (push-journal.ts): should the API server die before it records
     * the answer, the journal records it later and the payment still finds its order.
     */
    async sendPush(call: StkPushCall): Promise<StkPushAnswer> {
      let push;
      try {
        push = await daraja.stkPush({ amount: call.amount, phone: call.phone, accountReference: call.accountReference, transactionDesc: call.transactionDesc, callbackUrl: deps.callbackUrl() });
      } catch (error) {
        deps.metrics?.stkPushes.inc({ outcome: error instanceof DarajaError && !error.network && error.httpStatus < 500 ? 'refused' : 'failed' });
        if (error instanceof DarajaError) {
          const { status, code, reason, params } = explainDarajaError(error);
          logger.info(`STK push refused: ${error.message}`);
          throw new PaymentServiceError(status, code, reason, { errorCode: error.errorCode, ...(params ? { params } : {}) });
        }
        logger.error('STK push failed', error);
        throw new PaymentServiceError(502, 'mpesa_unreachable', UNREACHABLE);
      }
      deps.metrics?.stkPushes.inc({ outcome: 'sent' });
      try {
        settlement.journal.add({ orderId: call.orderId, checkoutRequestId: push.CheckoutRequestID, merchantRequestId: push.MerchantRequestID, sentAt: Date.now() });
      } catch (error) {
        // The API server records it from this answer; only a crash of both in the next moment would lose it.
        logger.error(`push ${push.CheckoutRequestID} could not be journaled`, error);
      }
      return {
        checkoutRequestId: push.CheckoutRequestID,
        merchantRequestId: push.MerchantRequestID,
        customerMessage: push.CustomerMessage || 'Success. Request accepted for processing',
        ...(deps.simulator && typeof push.SimulatorPromptPath === 'string' ? { simulatorPromptPath: push.SimulatorPromptPath } : {}),
      };
    },

    /** Asks M-Pesa about a push (STK query) and settles it from a final answer; false while it cannot answer yet. */
    async queryPush(checkoutRequestId: string): Promise<{ settled: boolean }> {
      try {
        return { settled: (await settlement.reconcileOne(checkoutRequestId)) !== undefined };
      } catch (error) {
        if (!isUnknownRequest(error)) logger.error(`STK query for ${checkoutRequestId} failed`, error);
        return { settled: false };
      }
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
