import type { PaymentView, SettleResponse } from '@tukio/shared/internal-api';
import { ApiServerError, type ApiServerClient } from './api-server-client.js';
import type { DarajaClient } from './daraja/daraja-client.js';
import { callbackItem, type StkCallbackBody } from './daraja/protocol.js';
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

export type CallbackOutcome = 'settled' | 'duplicate' | 'unknown' | 'verified-by-query' | 'left-pending';

/**
 * Turns Daraja results into settled payments on the API server. Callbacks are unsigned, so the
 * API server checks each against its push (known CheckoutRequestID, amount, phone); a callback it
 * doubts is never trusted but answered by asking Daraja itself (STK query).
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
  /** What this instance knows of the push's order: a hint that lets the API server settle in one statement. */
  const orderHint = (checkoutRequestId: string) => {
    const push = open.get(checkoutRequestId);
    return push ? { eventId: push.eventId, quantity: push.quantity } : {};
  };
  const prune = () => {
    const cutoff = Date.now() - OPEN_PUSH_TTL_MS;
    for (const [id, push] of open) if (push.createdAt < cutoff) open.delete(id);
  };

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

  async function reconcileOne(checkoutRequestId: string): Promise<SettleResponse | undefined> {
    const result = await daraja.stkQuery(checkoutRequestId);
    if (result.state === 'pending') return undefined;
    markSettling(checkoutRequestId);
    const settled = await api.settle({
      checkoutRequestId,
      merchantRequestId: result.merchantRequestId || undefined,
      resultCode: result.resultCode,
      resultDesc: result.resultDesc,
      source: 'query',
      ...orderHint(checkoutRequestId),
    });
    remember(settled);
    return settled;
  }

  return {
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
          ...orderHint(checkoutRequestId),
        });
        remember(settled);
        // What M-Pesa said it took, once the API server matched it to a push (a stray callback is left out).
        if (Number(callback.ResultCode) === 0 && receipt !== undefined) {
          deps.providerJournal?.payment({ receipt: String(receipt), amount: Number(amount ?? 0), phone: String(phone ?? ''), checkoutRequestId });
        }
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
