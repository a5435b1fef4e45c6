import type { ApiServerClient } from './api-server-client.js';
import { isUnknownRequest } from './daraja/daraja-client.js';
import type { Logger } from './logger.js';
import type { Settlement } from './settlement.js';

const CONCURRENCY = 4;
/** A push Daraja has never heard of is closed as failed once it is this old. */
const UNKNOWN_GIVE_UP_MS = 10 * 60 * 1000;

/**
 * Callbacks can be lost, and forged. Every `intervalMs` the reconciler first records the pushes the API
 * server missed (journaled on disk, see push-journal.ts), then asks the API server for pushes still
 * pending after `afterSeconds` and settles each from Daraja's STK query answer, then asks Daraja about
 * the successes recorded from a callback alone (before callbacks were confirmed, or by an older payment
 * service): one it confirms is marked so, one it contradicts has its tickets voided by the API server.
 */
export function createReconciler(deps: { api: ApiServerClient; settlement: Settlement; logger: Logger; intervalMs: number; afterSeconds: number }) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<{ checked: number; settled: number }> | undefined;

  async function pass(): Promise<{ checked: number; settled: number }> {
    await deps.settlement.recordUnrecorded(deps.afterSeconds);
    const pending = await deps.api.pendingPushes(deps.afterSeconds, 200);
    const unconfirmed = await deps.api.unconfirmedSuccesses(deps.afterSeconds, 100);
    const checked = pending.length + unconfirmed.length;
    let settled = 0;
    let next = 0;
    const worker = async () => {
      while (next < pending.length) {
        const item = pending[next++]!;
        try {
          const result = await deps.settlement.reconcileOne(item.checkoutRequestId);
          if (result?.changed) settled += 1;
        } catch (error) {
          // Daraja does not know the request (e.g. the simulator restarted): give up after a while,
          // so the push stops being queried; a later real result can still upgrade it.
          const unknown = isUnknownRequest(error);
          if (unknown && Date.now() - new Date(item.createdAt).getTime() > UNKNOWN_GIVE_UP_MS) {
            await deps.api
              .settle({ checkoutRequestId: item.checkoutRequestId, resultCode: -1, resultDesc: 'M-Pesa has no record of this payment request.', source: 'query' })
              .then(() => {
                settled += 1;
              })
              .catch((settleError: unknown) => deps.logger.error(`could not close ${item.checkoutRequestId}`, settleError));
          } else {
            deps.logger.error(`reconcile ${item.checkoutRequestId} failed`, error);
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pending.length) }, worker));
    // Daraja rate-limits STK queries: these go one at a time after the pending ones; a failure waits for the next pass.
    for (const item of unconfirmed) {
      const result = await deps.settlement.reconcileOne(item.checkoutRequestId).catch((error: unknown) => deps.logger.error(`confirming ${item.checkoutRequestId} failed`, error));
      if (result?.changed) settled += 1;
    }
    if (settled > 0) deps.logger.info(`reconciler settled ${settled} of ${checked} payments it asked M-Pesa about`);
    return { checked, settled };
  }

  return {
    /** One pass now (tests call this); concurrent calls share the pass in progress. */
    runOnce() {
      running ??= pass().finally(() => {
        running = undefined;
      });
      return running;
    },
    /**
     * `passes`: a pass every `intervalMs`. `journal`: the API server's jobs ask for the passes (on any
     * instance), so the timer only replays this instance's own push journal, which no other can.
     */
    start(what: 'passes' | 'journal' = 'passes') {
      if (deps.intervalMs <= 0 || timer) return;
      // Pushes journaled by an earlier run (killed before recording them) are recorded at once.
      deps.settlement.recordUnrecorded().catch((error: unknown) => deps.logger.error('recording journaled pushes failed', error));
      const tick = what === 'passes' ? () => this.runOnce() : () => deps.settlement.recordUnrecorded(deps.afterSeconds);
      timer = setInterval(() => {
        tick().catch((error: unknown) => deps.logger.error(what === 'passes' ? 'reconciler pass failed' : 'recording journaled pushes failed', error));
      }, deps.intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}

export type Reconciler = ReturnType<typeof createReconciler>;
