import { ApiServerError, type ApiServerClient, type SettleResponse } from './api-server-client.js';
import type { DarajaClient } from './daraja/daraja-client.js';
import { callbackItem, type StkCallbackBody } from './daraja/protocol.js';
import type { Logger } from './logger.js';

export interface OpenPush {
  tokenHash: string;
  createdAt: number;
  eventId: string;
  amount: number;
  quantity: number;
}

const OPEN_PUSH_TTL_MS = 30 * 60 * 1000;

export type CallbackOutcome = 'settled' | 'duplicate' | 'unknown' | 'verified-by-query' | 'left-pending';

/**
 * Turns Daraja results into settled payments on the API server. Callbacks are unsigned, so the
 * API server checks each against its push (known CheckoutRequestID, amount, phone); a callback it
 * doubts is never trusted but answered by asking Daraja itself (STK query).
 */
export function createSettlement(deps: { api: ApiServerClient; daraja: DarajaClient; logger: Logger }) {
  const { api, daraja, logger } = deps;
  /** Pushes whose recording on the API server is still in flight, so an early callback waits for it. */
  const recording = new Map<string, Promise<unknown>>();
  /**
   * Pushes this instance sent and has not seen settled, keyed by CheckoutRequestID, with a hash of
   * the token the API server accepted for the push. While one is open, the owner's polls are
   * answered "pending" here without a round trip to the API server.
   */
  const open = new Map<string, OpenPush>();
  const markSettled = (checkoutRequestId: string) => open.delete(checkoutRequestId);
  const prune = () => {
    const cutoff = Date.now() - OPEN_PUSH_TTL_MS;
    for (const [id, push] of open) if (push.createdAt < cutoff) open.delete(id);
  };

  async function reconcileOne(checkoutRequestId: string): Promise<SettleResponse | undefined> {
    const result = await daraja.stkQuery(checkoutRequestId);
    if (result.state === 'pending') return undefined;
    markSettled(checkoutRequestId);
    return api.settle({
      checkoutRequestId,
      merchantRequestId: result.merchantRequestId || undefined,
      resultCode: result.resultCode,
      resultDesc: result.resultDesc,
      source: 'query',
    });
  }

  return {
    recording,
    reconcileOne,
    open: {
      add(checkoutRequestId: string, push: Omit<OpenPush, 'createdAt'>) {
        if (open.size > 10_000) prune();
        open.set(checkoutRequestId, { ...push, createdAt: Date.now() });
      },
      get: (checkoutRequestId: string) => open.get(checkoutRequestId),
      settled: markSettled,
    },

    async handleCallback(body: StkCallbackBody): Promise<CallbackOutcome> {
      const callback = body.Body.stkCallback;
      const checkoutRequestId = String(callback.CheckoutRequestID);
      await recording.get(checkoutRequestId)?.catch(() => undefined);
      // From here on, polls ask the API server, which has (or is about to have) the result.
      markSettled(checkoutRequestId);
      const items = callback.CallbackMetadata?.Item;
      const amount = callbackItem(items, 'Amount');
      const receipt = callbackItem(items, 'MpesaReceiptNumber');
      const phone = callbackItem(items, 'PhoneNumber');
      const date = callbackItem(items, 'TransactionDate');
      try {
        const settled = await api.settle({
          checkoutRequestId,
          merchantRequestId: callback.MerchantRequestID ? String(callback.MerchantRequestID) : undefined,
          resultCode: Number(callback.ResultCode),
          resultDesc: String(callback.ResultDesc ?? ''),
          amount: amount === undefined ? undefined : Number(amount),
          mpesaReceiptNumber: receipt === undefined ? undefined : String(receipt),
          phone: phone === undefined ? undefined : String(phone),
          transactionDate: date === undefined ? undefined : String(date),
          source: 'callback',
        });
        return settled.changed ? 'settled' : 'duplicate';
      } catch (error) {
        if (error instanceof ApiServerError && error.status === 404) {
          logger.info(`callback for unknown CheckoutRequestID ignored`);
          return 'unknown';
        }
        if (error instanceof ApiServerError && (error.status === 409 || error.status === 400)) {
          logger.info(`doubtful callback for ${checkoutRequestId} (${error.message}); asking Daraja`);
          const verified = await reconcileOne(checkoutRequestId);
          return verified ? 'verified-by-query' : 'left-pending';
        }
        throw error;
      }
    },
  };
}

export type Settlement = ReturnType<typeof createSettlement>;
