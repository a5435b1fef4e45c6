import type { SettleResponse } from '@tukio/shared/internal-api';
import { ApiServerError, type ApiServerClient } from './api-server-client.js';
import { isUnknownRequest, type DarajaClient, type StkQueryResult } from './daraja/daraja-client.js';
import { callbackItem, type StkCallbackBody } from '@tukio/shared/daraja-protocol';
import type { Logger } from './logger.js';
import type { ProviderJournal } from './provider-journal.js';
import type { PushJournal, UnrecordedPush } from './push-journal.js';


/** The API server refuses to record a push for good: bad request, unknown order, or the id is another order's. */
const isFinalRecordFailure = (error: unknown): error is ApiServerError => error instanceof ApiServerError && [400, 404, 409].includes(error.status);

export type CallbackOutcome = 'settled' | 'duplicate' | 'unknown' | 'verified-by-query' | 'left-pending' | 'contradicted';

/** What one callback says about its push, as the API server's settle takes it. */
interface CallbackClaim {
  merchantRequestId?: string | undefined;
  resultCode: number;
  resultDesc: string;
  amount?: number | undefined;
  mpesaReceiptNumber?: string | undefined;
  phone?: string | undefined;
  transactionDate?: string | undefined;
}

/** Success claims still waiting for M-Pesa's word are forgotten after this long (the reconciler's query settles the push anyway). */
const CLAIM_TTL_MS = 30 * 60 * 1000;

/**
 * Turns Daraja results into settled payments on the API server. Callbacks are unsigned (anyone who
 * knows the callback URL's secret can post one), so a success callback is confirmed with Daraja
 * itself (STK query) before any ticket is issued: the push settles as paid only when the query says
 * 0, by the query's answer when it says anything else (the claim is recorded as a contradiction), and
 * stays pending while the query cannot answer yet (the reconciler asks again). The API server also
 * checks each callback against its push (known CheckoutRequestID, amount, phone).
 */
export function createSettlement(deps: {
  api: ApiServerClient;
  daraja: DarajaClient;
  logger: Logger;
  journal: PushJournal;
  /** Where each paid callback is written down as M-Pesa said it (the audit's provider side with real Daraja). */
  providerJournal?: ProviderJournal | undefined;
}) {
  const { api, daraja, logger, journal } = deps;
  /** Success callbacks M-Pesa has not confirmed yet (its query said "being processed", or failed), by CheckoutRequestID. */
  const claims = new Map<string, CallbackClaim & { at: number }>();
  const pruneClaims = () => {
    const cutoff = Date.now() - CLAIM_TTL_MS;
    for (const [id, claim] of claims) if (claim.at < cutoff) claims.delete(id);
  };

  /** A callback's claim as the API server's settle takes it. */
  const settleClaim = (checkoutRequestId: string, claim: CallbackClaim, providerConfirmed?: true) =>
    settle({ checkoutRequestId, ...claim, source: 'callback', ...(providerConfirmed ? { providerConfirmed } : {}) });
  /**
   * Settles on the API server. A push it does not know yet (it died between Daraja's answer and recording the
   * push) is recorded from the journal first; once a result is recorded the push leaves the journal.
   */
  async function settle(body: Parameters<ApiServerClient['settle']>[0]): Promise<SettleResponse> {
    let settled: SettleResponse;
    try {
      settled = await api.settle(body);
    } catch (error) {
      if (!(error instanceof ApiServerError && error.status === 404) || !(await recordIfJournaled(body.checkoutRequestId))) throw error;
      settled = await api.settle(body);
    }
    if (journal.has(body.checkoutRequestId)) journal.remove(body.checkoutRequestId);
    return settled;
  }

  /**
   * Records a push on the API server (idempotent there; `via` picks the connections); once
   * recorded it leaves the journal.
   */
  async function recordPush(entry: UnrecordedPush, via: ApiServerClient = api, timing: { pushMs?: number } = {}) {
    try {
      await via.recordPush({ orderId: entry.orderId, checkoutRequestId: entry.checkoutRequestId, merchantRequestId: entry.merchantRequestId, ...timing });
    } catch (error) {
      if (isFinalRecordFailure(error)) {
        journal.setAside(entry.checkoutRequestId);
        logger.error(`push ${entry.checkoutRequestId} (order ${entry.orderId}) cannot be recorded (${error.message}); set aside in ${journal.dir}`);
      }
      throw error;
    }
    journal.remove(entry.checkoutRequestId);
  }

  /** Records a journaled push now; false when there is none or it could not be recorded. */
  async function recordIfJournaled(checkoutRequestId: string): Promise<boolean> {
    const entry = journal.get(checkoutRequestId);
    if (!entry) return false;
    return recordPush(entry).then(
      () => true,
      () => false,
    );
  }

  /**
   * Settles a push from M-Pesa's final answer to an STK query. A success claim (a callback) it agrees with
   * is settled with the callback's details, marked confirmed; any other answer settles by the answer
   * itself, naming the claim it contradicts so the API server records it (and voids tickets issued on it).
   */
  async function settleFromAnswer(checkoutRequestId: string, answer: Extract<StkQueryResult, { state: 'final' }>, claim: CallbackClaim | undefined) {
    claims.delete(checkoutRequestId);
    let settled: SettleResponse | undefined;
    if (claim && answer.resultCode === 0) {
      settled = await settleClaim(checkoutRequestId, claim, true).catch((error: unknown) => {
        // The callback does not match its push (amount, phone, receipt): M-Pesa's answer alone settles it.
        if (error instanceof ApiServerError && (error.status === 409 || error.status === 400)) return undefined;
        throw error;
      });
      // What M-Pesa said it took, confirmed by its query (the audit's provider side with real Daraja).
      if (settled && claim.mpesaReceiptNumber !== undefined) {
        deps.providerJournal?.payment({ receipt: claim.mpesaReceiptNumber, amount: claim.amount ?? 0, phone: claim.phone ?? '', checkoutRequestId });
      }
    }
    if (!settled) {
      const contradicted = claim !== undefined && answer.resultCode !== 0;
      if (contradicted) logger.error(`M-Pesa contradicts a success callback for ${checkoutRequestId}: ${answer.resultCode} ${answer.resultDesc}`);
      settled = await settle({
        checkoutRequestId,
        merchantRequestId: answer.merchantRequestId || undefined,
        resultCode: answer.resultCode,
        resultDesc: answer.resultDesc,
        source: 'query',
        ...(contradicted ? { contradicts: { mpesaReceiptNumber: claim.mpesaReceiptNumber, amount: claim.amount } } : {}),
      });
    }
    return settled;
  }

  /** Asks M-Pesa about a push (STK query) and settles it from the answer; undefined while it cannot answer yet. */
  async function reconcileOne(checkoutRequestId: string): Promise<SettleResponse | undefined> {
    const answer = await daraja.stkQuery(checkoutRequestId);
    if (answer.state === 'pending') return undefined;
    return settleFromAnswer(checkoutRequestId, answer, claims.get(checkoutRequestId));
  }

  /**
   * A success callback (or any callback while an unconfirmed success claim is held): settled only by what
   * M-Pesa's STK query answers. While the query cannot answer ("being processed", rate limited, unreachable)
   * the push stays pending with the success claim kept, and the reconciler or the buyer's polls ask again.
   */
  async function confirmWithQuery(checkoutRequestId: string, claim: CallbackClaim): Promise<CallbackOutcome> {
    let unknown = false;
    const answer = await daraja.stkQuery(checkoutRequestId).catch((error: unknown): StkQueryResult => {
      unknown = isUnknownRequest(error);
      if (!unknown) logger.info(`STK query for ${checkoutRequestId} failed (${error instanceof Error ? error.message : String(error)}); the reconciler asks again`);
      return { state: 'pending' };
    });
    // Daraja never sent this push: nothing to settle, and nothing worth remembering.
    if (unknown) return 'unknown';
    if (answer.state === 'pending') {
      if (claim.resultCode === 0) {
        if (claims.size > 10_000) pruneClaims();
        claims.set(checkoutRequestId, { ...claim, at: Date.now() });
      }
      return 'left-pending';
    }
    if (claim.resultCode === 0) claims.set(checkoutRequestId, { ...claim, at: Date.now() });
    const success = claims.get(checkoutRequestId);
    const settled = await settleFromAnswer(checkoutRequestId, answer, success);
    if (success && answer.resultCode !== 0) return 'contradicted';
    if (success && settled.status === 'success' && !settled.changed) return 'duplicate';
    if (success && settled.status === 'success') return 'settled';
    return settled.changed ? 'verified-by-query' : 'duplicate';
  }

  const settlement = {
    journal,
    recordPush,
    reconcileOne,
    /**
     * Records the journaled pushes sent at least `olderThanSeconds` ago that no result has come for yet (the API
     * server records a push from the answer it gets; this covers one that died before it could), oldest first;
     * idempotent on the API server. Stops at the first failure that is not final. They are then pending like
     * any other push and the reconciler settles them.
     */
    async recordUnrecorded(olderThanSeconds = 0): Promise<{ recorded: number; left: number }> {
      const cutoff = Date.now() - olderThanSeconds * 1000;
      const entries = journal.list().filter((entry) => entry.sentAt <= cutoff);
      let recorded = 0;
      for (const [index, entry] of entries.entries()) {
        try {
          await recordPush(entry);
          recorded += 1;
        } catch (error) {
          if (isFinalRecordFailure(error)) continue;
          if (recorded > 0) logger.info(`recorded ${recorded} pushes the API server had missed`);
          return { recorded, left: entries.length - index };
        }
      }
      if (recorded > 0) logger.info(`recorded ${recorded} pushes the API server had missed`);
      return { recorded, left: 0 };
    },

    async handleCallback(body: StkCallbackBody): Promise<CallbackOutcome> {
      const callback = body.Body.stkCallback;
      const checkoutRequestId = String(callback.CheckoutRequestID);
      const items = callback.CallbackMetadata?.Item;
      const amount = callbackItem(items, 'Amount');
      const receipt = callbackItem(items, 'MpesaReceiptNumber');
      const phone = callbackItem(items, 'PhoneNumber');
      const date = callbackItem(items, 'TransactionDate');
      const claim: CallbackClaim = {
        merchantRequestId: callback.MerchantRequestID ? String(callback.MerchantRequestID) : undefined,
        resultCode: Number(callback.ResultCode),
        resultDesc: String(callback.ResultDesc ?? ''),
        amount: amount === undefined ? undefined : Number(amount),
        mpesaReceiptNumber: receipt === undefined ? undefined : String(receipt),
        phone: phone === undefined ? undefined : String(phone),
        transactionDate: date === undefined ? undefined : String(date),
      };
      try {
        if (claim.resultCode === 0 || claims.has(checkoutRequestId)) return await confirmWithQuery(checkoutRequestId, claim);
        // A failure or cancellation: believed as it comes (nothing is issued on it; a later query may still upgrade it).
        const settled = await settleClaim(checkoutRequestId, claim);
        return settled.changed ? 'settled' : 'duplicate';
      } catch (error) {
        if (error instanceof ApiServerError && error.status === 404) {
          logger.info(`callback for unknown CheckoutRequestID ignored`);
          return 'unknown';
        }
        if (error instanceof ApiServerError && (error.status === 409 || error.status === 400)) {
          // Doubtful (e.g. a "cancelled" after a recorded success): M-Pesa's answer decides, and voids a success it contradicts.
          logger.info(`doubtful callback for ${checkoutRequestId} (${error.message}); asking Daraja`);
          const verified = await reconcileOne(checkoutRequestId);
          return verified ? 'verified-by-query' : 'left-pending';
        }
        throw error;
      }
    },
  };
  return settlement;
}

export type Settlement = ReturnType<typeof createSettlement>;
