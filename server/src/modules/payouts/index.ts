/**
 * The payouts module's public face (docs/decisions/payouts.md): organisers get paid. What is payable when (one
 * pure rule), the job that makes each payout once and sends it through the payment service, the results it
 * reports, and the organisers' and administrators' routes.
 */
import type { Database } from '../../db/database.js';
import type { JobQueue } from '../../lib/job-queue.js';
import type { Logger } from '../../lib/logger.js';
import type { MpesaTariff } from '../fees/index.js';
import { createMakePayouts, type PayoutDestinations } from './make-payouts.handler.js';
import type { PayoutRules } from './payable-now.js';
import type { PayoutGateway } from './payout-gateway.js';
import { auditPayouts, type ProviderPayout } from './payouts-audit.js';
import { createPayoutsJob } from './payouts-job.js';
import { createPayoutsService } from './payouts.service.js';
import { createRecordPayoutResult } from './record-payout-result.handler.js';
import { createSendPayouts } from './send-payouts.handler.js';

export { createPayoutGateway, type PayoutGateway, type SendOutcome } from './payout-gateway.js';
export { createAdminPayoutsRouter, createInternalPayoutsRouter, createPayoutsRouter } from './payouts.routes.js';
export { payableNow, type PayoutRules } from './payable-now.js';
export { payoutsPersonalData } from './personal-data.js';
export type { PayoutDestinations } from './make-payouts.handler.js';
export type { PayoutsService } from './payouts.service.js';
export type { PayoutFinding, ProviderPayout } from './payouts-audit.js';

export interface PayoutsDeps {
  db: Database;
  logger: Logger;
  gateway: PayoutGateway;
  destinations: PayoutDestinations;
  rules: PayoutRules;
  /** PAYOUT_RESULT_WAIT_SECONDS, PAYOUT_MAX_ATTEMPTS, PAYOUT_RETRY_BASE_MS, PAYOUT_JOB_MS. */
  resultWaitSeconds: number;
  maxAttempts: number;
  retryBaseMs: number;
  jobMs: number;
  /** MPESA_TARIFF: a paid payout's charge when Daraja's result names none. */
  mpesaTariff: MpesaTariff;
  jobs?: JobQueue | undefined;
}

/** The module composed: its service (routes), the results it records, its job and its part of the payments audit. */
export function createPayouts(deps: PayoutsDeps) {
  const make = createMakePayouts({ db: deps.db, destinations: deps.destinations, rules: deps.rules });
  const recordResult = createRecordPayoutResult({ db: deps.db, logger: deps.logger, maxAttempts: deps.maxAttempts, retryBaseMs: deps.retryBaseMs, mpesaTariff: deps.mpesaTariff });
  const send = createSendPayouts({ db: deps.db, gateway: deps.gateway, recordResult, logger: deps.logger, resultWaitSeconds: deps.resultWaitSeconds });
  return {
    service: createPayoutsService({ db: deps.db, make }),
    recordResult,
    job: createPayoutsJob({ make, send, everyMs: deps.jobMs, logger: deps.logger, jobs: deps.jobs }),
    /** M-Pesa's organiser payouts against the attempts paid here (POST /api/internal/audit, payouts-audit.ts). */
    audit: (reported: ProviderPayout[]) => auditPayouts(deps.db, reported),
  };
}

export type Payouts = ReturnType<typeof createPayouts>;
