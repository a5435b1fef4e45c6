import type { JobQueue } from '../../lib/job-queue.js';
import type { Logger } from '../../lib/logger.js';
import { createRepeatingTask } from '../../lib/repeating-task.js';
import type { MakePayouts } from './make-payouts.handler.js';
import type { SendPayouts } from './send-payouts.handler.js';

/**
 * The payouts job (docs/decisions/payouts.md): every PAYOUT_JOB_MS, once per period across API instances (a
 * pg-boss job), makes the payouts that are due and moves every open one along with M-Pesa. Safe on several
 * runners at once (a retried job may overlap a late one): payouts are made under the organiser's row lock,
 * attempts are claimed with SKIP LOCKED.
 */
export function createPayoutsJob(deps: { make: MakePayouts; send: SendPayouts; everyMs: number; logger: Logger; jobs?: JobQueue | undefined }) {
  const runNow = async () => {
    const now = new Date();
    const made = await deps.make.makeDue(now);
    return { made, ...(await deps.send(now)) };
  };
  return createRepeatingTask('payouts', runNow, { everyMs: deps.everyMs, logger: deps.logger, jobs: deps.jobs });
}

export type PayoutsJob = ReturnType<typeof createPayoutsJob>;
