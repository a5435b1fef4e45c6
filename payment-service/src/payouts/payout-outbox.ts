import { payoutResultBody, type PayoutResultBody } from '@tukio/shared/internal-payouts';
import { createResultOutbox, readParkedResults, type ParkedResult, type ResultOutbox } from '../result-outbox.js';

export { PARKED_LOG, resultKey, type ParkedResult } from '../result-outbox.js';

/** The organiser payouts' results on their way to POST /api/internal/payouts/results: the result outbox (../result-outbox.ts) of payouts. */
export const createPayoutOutbox = (deps: Omit<Parameters<typeof createResultOutbox<PayoutResultBody>>[0], 'what' | 'schema'>) =>
  createResultOutbox({ ...deps, what: 'payout', schema: payoutResultBody });

/** The payout results the API server refused for good, parked under `dir` (the audit script lists them). */
export const readParkedPayoutResults = (dir: string): ParkedResult<PayoutResultBody>[] => readParkedResults(dir, payoutResultBody);

export type PayoutOutbox = ResultOutbox<PayoutResultBody>;
