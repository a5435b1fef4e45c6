import type { PayoutResultBody } from '@tukio/shared/internal-payouts';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import type { Logger } from '../../lib/logger.js';
import { mpesaCharge, type MpesaTariff } from '../fees/index.js';
import { createLedger } from '../ledger/index.js';
import { emitWebhook } from '../webhooks/index.js';
import { payoutMessages } from './payout-messages.js';
import { createPayoutsRepository, type PayoutRow } from './payouts.repository.js';

/** The longest a failed payout waits before its next attempt. */
const MAX_BACKOFF_MS = 24 * 60 * 60 * 1000;

/** Wait after `attempts` failed: the base, doubling each time, at most a day. */
export const payoutBackoffMs = (baseMs: number, attempts: number) => Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);

/** A result besides the contract's two sources: Daraja refused the request synchronously (the send's answer). */
export type RecordedResult = Omit<PayoutResultBody, 'source'> & { source: PayoutResultBody['source'] | 'rejected' };

const doubtful = (reason: string) => new AppError(409, 'payout_result_doubtful', payoutMessages.resultDoubtful(reason), { params: { reason }, body: { doubtful: true, reason } });

export interface RecordPayoutResultDeps {
  db: Database;
  logger: Logger;
  /** PAYOUT_MAX_ATTEMPTS and PAYOUT_RETRY_BASE_MS. */
  maxAttempts: number;
  retryBaseMs: number;
  /** MPESA_TARIFF: the charge of a paid payout whose result names none. */
  mpesaTariff: MpesaTariff;
}

/**
 * Records one definite result of a payout attempt, once (POST /api/internal/payouts/results, and a synchronous
 * rejection from the send). Paid ("0"): the attempt and payout are paid, the receipt kept, `payout_paid` posted
 * (with M-Pesa's charge, Tukio's expense: the result's, else MPESA_TARIFF's). Failed: the payout is tried again after a back-off with a new attempt,
 * or after PAYOUT_MAX_ATTEMPTS is failed for an administrator and `payout_failed` puts its money back on the
 * organiser's payables. A repeated result changes nothing (`recorded: false`).
 */
export function createRecordPayoutResult(deps: RecordPayoutResultDeps) {
  const { db, logger } = deps;

  async function failed(repo: ReturnType<typeof createPayoutsRepository>, ledger: ReturnType<typeof createLedger>, payout: PayoutRow, why: string, now: Date) {
    if (payout.attempts < deps.maxAttempts) {
      const wait = payoutBackoffMs(deps.retryBaseMs, payout.attempts);
      await repo.updatePayout(payout.id, { status: 'retrying', nextAttemptAt: new Date(now.getTime() + wait), failure: why, updatedAt: now });
      return;
    }
    await repo.updatePayout(payout.id, { status: 'failed', nextAttemptAt: null, failure: why, updatedAt: now });
    await ledger.payoutFailed({ id: payout.id, legs: await repo.legsOf(payout.id) });
  }

  /** Outside the refused result's (rolled back) transaction: the payout needs a person, and why. */
  async function noteRefused(input: RecordedResult, reason: string) {
    const why = `${input.source} result ${input.resultCode}${input.transactionId ? ` (${input.transactionId})` : ''} of ${input.originatorConversationId} refused: ${reason}`;
    logger.error(`payout result refused: ${why}`);
    await createPayoutsRepository(db).noteAttention(input.originatorConversationId, why.slice(0, 1000), new Date());
  }

  return async function recordPayoutResult(input: RecordedResult): Promise<{ recorded: boolean }> {
    const paid = input.resultCode === '0' && input.source !== 'rejected';
    try {
      return await db.transaction(async (tx) => {
        const repo = createPayoutsRepository(tx);
        const ledger = createLedger(tx);
        // Lock order: attempt, then its payout (as the send and the retry take them).
        const attempt = await repo.lockAttempt(input.originatorConversationId);
        if (!attempt) throw AppError.notFound('payout_attempt_unknown', payoutMessages.unknownAttempt);
        if (attempt.status === 'paid' || attempt.status === 'failed') return { recorded: false };
        const payout = (await repo.lockPayout(attempt.payoutId))!;
        if (paid) {
          if (input.amount !== undefined && Math.round(input.amount * 100) !== payout.amount * 100) throw doubtful(`amount ${input.amount} is not the payout's ${payout.amount}`);
          if (!input.transactionId) throw doubtful('a success names no TransactionID');
        }
        const now = new Date();
        const finished = {
          conversationId: attempt.conversationId ?? input.conversationId ?? null,
          resultCode: input.resultCode,
          resultDesc: input.resultDesc.slice(0, 1000),
          finishedAt: now,
        };
        if (!paid) {
          await repo.updateAttempt(attempt.id, { ...finished, status: 'failed' });
          // Only the payout's current attempt moves it on (an older attempt's late failure is history).
          if (payout.status === 'sending' && attempt.number === payout.attempts) await failed(repo, ledger, payout, `${input.resultCode}: ${input.resultDesc}`.slice(0, 1000), now);
          return { recorded: true };
        }
        await repo.updateAttempt(attempt.id, { ...finished, status: 'paid', transactionId: input.transactionId! });
        if (payout.status === 'paid' || payout.status === 'failed') {
          // Paid through another attempt, or after it was given up: M-Pesa's word is kept on the attempt, and the audit's clearing check shows the money.
          logger.error(`payout ${payout.id}: attempt ${attempt.originatorConversationId} paid (${input.transactionId}) although the payout is ${payout.status}`);
          return { recorded: true };
        }
        // The ledger keeps whole shillings (as every money row): a charge with cents is rounded to the nearest one.
        // Daraja's result callback seldom names the charge: then the configured tariff says what it was (B2C to a
        // phone, B2B to a Paybill or Till), so every paid payout's charge is recorded.
        const kind = payout.destination.method === 'mpesa' ? 'b2c' : 'b2b';
        const charge = Math.round(input.charge ?? mpesaCharge(kind, payout.amount, deps.mpesaTariff));
        await repo.updatePayout(payout.id, { status: 'paid', receipt: input.transactionId!, charge, paidAt: now, nextAttemptAt: null, updatedAt: now });
        await ledger.payoutPaid({ id: payout.id, legs: await repo.legsOf(payout.id) }, charge);
        await emitWebhook(tx, payout.organiserId, 'payout.paid', { payoutId: payout.id, amount: payout.amount, charge, receipt: input.transactionId!, method: payout.destination.method, paidAt: now.toISOString() });
        return { recorded: true };
      });
    } catch (error) {
      const refused = isUniqueViolation(error) ? doubtful('its TransactionID belongs to another payout') : error;
      // Refused for good (the payment service parks such a result): the payout says so to administrators.
      if (refused instanceof AppError && refused.code === 'payout_result_doubtful') await noteRefused(input, String(refused.details?.params?.reason ?? refused.message));
      throw refused;
    }
  };
}

export type RecordPayoutResult = ReturnType<typeof createRecordPayoutResult>;
