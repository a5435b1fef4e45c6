import type { PaymentView, SettleResponse } from '@tukio/shared/internal-api';
import { ApiServerError, type ApiServerClient } from './api-server-client.js';
import { isUnknownRequest, type DarajaClient, type StkQueryResult } from './daraja/daraja-client.js';
import { callbackItem, type StkCallbackBody } from '@tukio/shared/daraja-protocol';
import type { Logger } from './logger.js';
import type { ProviderJournal } from './provider-journal.js';
import type { PushJournal, UnrecordedPush } from './push-journal.js';

export interface OpenPush {
  tokenHash: string;
  createdAt: number;
  eventId: string;
  amount: number;
  quantity: number;
  /** open: no result yet; settling: a result is being recorded; final: `final` is the API server's view. */
  state: 'open' | 'settling' | 'final';
  final?: PaymentView;
}

const OPEN_PUSH_TTL_MS = 30 * 60 * 1000;

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
  /** Pushes whose recording on the API server is still in flight, so an early callback waits for it. */
  const recording = new Map<string, Promise<unknown>>();
  /**
   * Pushes this instance sent and has not seen settled, keyed by CheckoutRequestID, with a hash of
   * the token the API server accepted for the push. While one is open, the owner's polls are
   * answered "pending" here without a round trip to the API server.
   */
  const open = new Map<string, OpenPush>();
  /** Success callbacks M-Pesa has not confirmed yet (its query said "being processed", or failed), by CheckoutRequestID. */
  const claims = new Map<string, CallbackClaim & { at: number }>();
  /** A result is on its way to the API server: polls ask the API server until it is recorded. */
  const markSettling = (checkoutRequestId: string) => {
    const push = open.get(checkoutRequestId);
    if (push && push.state === 'open') push.state = 'settling';
  };
  /** The API server recorded a final result: keep its view to answer the owner's polls. */
  const remember = (settled: SettleResponse | undefined) => {
    const push = settled ? open.get(settled.checkoutRequestId) : undefined;
    if (!push || !settled?.view || settled.view.status === 'pending') return;
    push.state = 'final';
    push.final = settled.view;
  };
  const prune = () => {
    const cutoff = Date.now() - OPEN_PUSH_TTL_MS;
    for (const [id, push] of open) if (push.createdAt < cutoff) open.delete(id);
  };
  const pruneClaims = () => {
    const cutoff = Date.now() - CLAIM_TTL_MS;
    for (const [id, claim] of claims) if (claim.at < cutoff) claims.delete(id);
  };

  /** A callback's claim as the API server's settle takes it. */
  const settleClaim = (checkoutRequestId: string, claim: CallbackClaim, providerConfirmed?: true) =>
    api.settle({ checkoutRequestId, ...claim, source: 'callback', ...(providerConfirmed ? { providerConfirmed } : {}) });

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

  /** Records a journaled push now, if there is one; false when it is still unrecorded. */
  async function recordIfJournaled(checkoutRequestId: string): Promise<boolean> {
    const entry = journal.get(checkoutRequestId);
    if (!entry) return true;
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
    markSettling(checkoutRequestId);
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
      settled = await api.settle({
        checkoutRequestId,
        merchantRequestId: answer.merchantRequestId || undefined,
        resultCode: answer.resultCode,
        resultDesc: answer.resultDesc,
        source: 'query',
        ...(contradicted ? { contradicts: { mpesaReceiptNumber: claim.mpesaReceiptNumber, amount: claim.amount } } : {}),
      });
    }
    remember(settled);
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
    recording,
    journal,
    recordPush,
    reconcileOne,
    /**
     * Records the journaled pushes the API server has not seen (it was down, or this service was
     * killed before recording them), oldest first; stops at the first failure that is not final.
     * They are then pending like any other push and the reconciler settles them.
     */
    async recordUnrecorded(): Promise<{ recorded: number; left: number }> {
      const entries = journal.list().filter((entry) => !recording.has(entry.checkoutRequestId));
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
    /** Sent to Daraja but not yet recorded on the API server. */
    unrecorded: (checkoutRequestId: string) => journal.has(checkoutRequestId),
    recordIfJournaled,
    open: {
      add(checkoutRequestId: string, push: Omit<OpenPush, 'createdAt' | 'state'>) {
        if (open.size > 10_000) prune();
        open.set(checkoutRequestId, { ...push, createdAt: Date.now(), state: 'open' });
      },
      get: (checkoutRequestId: string) => open.get(checkoutRequestId),
      remember: (view: PaymentView) => remember({ checkoutRequestId: view.checkoutRequestId, status: view.status, orderStatus: view.orderStatus, ticketsIssued: 0, changed: false, view }),
    },

    async handleCallback(body: StkCallbackBody): Promise<CallbackOutcome> {
      const callback = body.Body.stkCallback;
      const checkoutRequestId = String(callback.CheckoutRequestID);
      await recording.get(checkoutRequestId)?.catch(() => undefined);
      // A push the API server missed is recorded first, else the result would be refused as unknown.
      if (!(await recordIfJournaled(checkoutRequestId))) throw new ApiServerError(503, 'The push is not recorded yet.');
      markSettling(checkoutRequestId);
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
        remember(settled);
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
