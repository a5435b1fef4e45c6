import { payoutAttemptId, payoutDestinationSchema } from '@tukio/shared/internal-payouts';
import type { Database } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import type { Logger } from '../../lib/logger.js';
import type { PayoutGateway } from './payout-gateway.js';
import { createPayoutsRepository } from './payouts.repository.js';
import type { RecordPayoutResult } from './record-payout-result.handler.js';

export interface SendPayoutsDeps {
  db: Database;
  gateway: PayoutGateway;
  recordResult: RecordPayoutResult;
  logger: Logger;
  /** PAYOUT_RESULT_WAIT_SECONDS: an attempt without a result this long has its status asked. */
  resultWaitSeconds: number;
}

/** Attempts handled per step of a run. */
const BATCH = 100;

/** Daraja's Remarks on the organiser's M-Pesa message. */
const REMARKS = 'Tukio payout';

/**
 * Moves payouts along with M-Pesa, each step safe on several runners at once (SKIP LOCKED claims):
 * 1. a retrying payout whose back-off is over gets its next attempt (`tukio-payout-<id>-<n+1>`);
 * 2. attempts not sent yet are claimed (`sent`, committed) and then sent: accepted keeps Daraja's conversation
 *    id, rejected is recorded as the attempt's failure, never-sent goes back to wait for the next run, and an
 *    unknown outcome (502, timeout) is left `sent`: it is never sent again blindly;
 * 3. attempts with no result after PAYOUT_RESULT_WAIT_SECONDS have their status asked (the answer comes as a result).
 */
export function createSendPayouts(deps: SendPayoutsDeps) {
  const { db, gateway, logger } = deps;

  async function startDueRetries(now: Date) {
    return db.transaction(async (tx) => {
      const repo = createPayoutsRepository(tx);
      const due = await repo.lockDueRetries(now, BATCH);
      for (const payout of due) {
        const number = payout.attempts + 1;
        await repo.insertAttempt({ id: newId(), payoutId: payout.id, number, originatorConversationId: payoutAttemptId(payout.id, number), status: 'pending', createdAt: now });
        await repo.updatePayout(payout.id, { status: 'sending', attempts: number, nextAttemptAt: null, updatedAt: now });
      }
      return due.length;
    });
  }

  async function sendUnsent(now: Date) {
    const claimed = await db.transaction((tx) => createPayoutsRepository(tx).claimUnsent(now, BATCH));
    for (const { attempt, amount, destination } of claimed) {
      const originatorConversationId = attempt.originatorConversationId;
      const answer = await gateway.send({ originatorConversationId, amount, destination: payoutDestinationSchema.parse(destination), remarks: REMARKS });
      const repo = createPayoutsRepository(db);
      if (answer.outcome === 'accepted') await repo.acceptedAs(attempt.id, answer.conversationId);
      else if (answer.outcome === 'rejected') {
        await deps.recordResult({ originatorConversationId, resultCode: answer.resultCode, resultDesc: answer.resultDesc, source: 'rejected' });
      } else if (answer.outcome === 'unsent') {
        await repo.updateAttempt(attempt.id, { status: 'pending', sentAt: null });
      } else logger.info(`payout attempt ${originatorConversationId}: outcome unknown; its status will be asked`);
    }
    return claimed.length;
  }

  async function askAboutLate(now: Date) {
    const before = new Date(now.getTime() - deps.resultWaitSeconds * 1000);
    const late = await db.transaction((tx) => createPayoutsRepository(tx).claimAwaitingResult(before, now, BATCH));
    for (const { attempt, destination } of late) {
      await gateway
        .askStatus({
          originatorConversationId: attempt.originatorConversationId,
          destination: payoutDestinationSchema.parse(destination),
          ...(attempt.conversationId ? { conversationId: attempt.conversationId } : {}),
        })
        // Asked again after the next wait.
        .catch((error: unknown) => logger.error(`payout attempt ${attempt.originatorConversationId}: status not asked`, error));
    }
    return late.length;
  }

  return async function sendPayouts(now: Date) {
    const retried = await startDueRetries(now);
    const sent = await sendUnsent(now);
    const asked = await askAboutLate(now);
    return { retried, sent, asked };
  };
}

export type SendPayouts = ReturnType<typeof createSendPayouts>;
