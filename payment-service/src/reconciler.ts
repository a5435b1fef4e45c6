import type { ApiServerClient } from './api-server-client.js';
import type { Logger } from './logger.js';
import type { Settlement } from './settlement.js';

const CONCURRENCY = 4;

/**
 * Callbacks can be lost. Every `intervalMs` the reconciler asks the API server for pushes still
 * pending after `afterSeconds` and settles each from Daraja's STK query answer.
 */
export function createReconciler(deps: { api: ApiServerClient; settlement: Settlement; logger: Logger; intervalMs: number; afterSeconds: number }) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<{ checked: number; settled: number }> | undefined;

  async function pass(): Promise<{ checked: number; settled: number }> {
    const pending = await deps.api.pendingPushes(deps.afterSeconds, 200);
    let settled = 0;
    let next = 0;
    const worker = async () => {
      while (next < pending.length) {
        const item = pending[next++]!;
        try {
          const result = await deps.settlement.reconcileOne(item.checkoutRequestId);
          if (result?.changed) settled += 1;
        } catch (error) {
          deps.logger.error(`reconcile ${item.checkoutRequestId} failed`, error);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pending.length) }, worker));
    if (settled > 0) deps.logger.info(`reconciler settled ${settled} of ${pending.length} pending payments`);
    return { checked: pending.length, settled };
  }

  return {
    /** One pass now (tests call this); concurrent calls share the pass in progress. */
    runOnce() {
      running ??= pass().finally(() => {
        running = undefined;
      });
      return running;
    },
    start() {
      if (deps.intervalMs <= 0 || timer) return;
      timer = setInterval(() => {
        this.runOnce().catch((error: unknown) => deps.logger.error('reconciler pass failed', error));
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
