import type { JobQueue } from '../../lib/job-queue.js';
import type { Logger } from '../../lib/logger.js';
import { createRepeatingTask } from '../../lib/repeating-task.js';

export interface PaymentPassesDeps {
  /** The payment service as this server reaches it (PAYMENT_URL; in a cluster the balancer before its instances). */
  paymentUrl: string;
  internalApiKey: string;
  logger: Logger;
  /** The reconciler's period (0: not scheduled). */
  reconcileMs: number;
  /** Each period's pass is a job here: queued once across API instances, retried with backoff when it fails. */
  jobs?: JobQueue | undefined;
  /**
   * How long a pass may take before its request is given up (and the job failed, so retried): below the job
   * expiry, so a hung payment instance fails the job before pg-boss counts it lost.
   */
  timeoutMs: number;
}

/**
 * PAYMENT_PASSES=jobs (docs/decisions/scale-out.md, "Payment passes"): the payment service's reconciler
 * runs when this server's job queue says, once per period across every instance of
 * both services. The job's handler asks a payment instance for the pass (POST /internal/passes/<pass>
 * through PAYMENT_URL) and waits for it: an error answer, a timeout or an instance dying mid-pass fails
 * the job, which pg-boss retries with backoff and the balancer sends to a live instance.
 */
export function createPaymentPasses(deps: PaymentPassesDeps) {
  const ask = (pass: 'reconcile') => async (): Promise<unknown> => {
    const response = await fetch(`${deps.paymentUrl}/internal/passes/${pass}`, {
      method: 'POST',
      headers: { 'x-internal-key': deps.internalApiKey, accept: 'application/json' },
      signal: AbortSignal.timeout(deps.timeoutMs),
    });
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw new Error(`the payment service answered the ${pass} pass with ${response.status}`);
    return body;
  };
  const tasks = [
    createRepeatingTask('payment reconcile', ask('reconcile'), { everyMs: deps.reconcileMs, logger: deps.logger, jobs: deps.jobs }),
  ];
  return {
    /** One reconciler pass now, on whichever payment instance the balancer picks (tests). */
    reconcile: tasks[0]!.runOnce,
    start: () => tasks.forEach((task) => task.start()),
    stop: () => Promise.all(tasks.map((task) => task.stop())).then(() => undefined),
  };
}

export type PaymentPasses = ReturnType<typeof createPaymentPasses>;
