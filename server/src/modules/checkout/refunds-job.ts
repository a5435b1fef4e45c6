import type { RefundStatusBody, SendRefundBody } from '@tukio/shared/internal-refunds';
import type { Database } from '../../db/database.js';
import type { JobQueue } from '../../lib/job-queue.js';
import type { Logger } from '../../lib/logger.js';
import { createRepeatingTask } from '../../lib/repeating-task.js';
import { createRefundsRepository } from './refunds.repository.js';
import { payablePhone, remarksFor, type RefundsService } from './refunds.service.js';
import { createRequestGateway, type RequestGateway, type SendOutcome } from './request-gateway.js';

/** What the refunds job asks of M-Pesa through the payment service (@tukio/shared/internal-refunds). */
export type RefundGateway = RequestGateway<SendRefundBody, RefundStatusBody>;

/** POST /internal/refunds and /internal/refunds/status on the payment service (X-Internal-Key). */
export const createRefundGateway = (options: { paymentUrl: string; internalApiKey: string; timeoutMs: number }): RefundGateway =>
  createRequestGateway(options, { what: 'refund', send: '/internal/refunds', status: '/internal/refunds/status' });

/** Refunds claimed, and late attempts looked at, per step of a run. */
const BATCH = 50;

export interface RefundsJobDeps {
  db: Database;
  refunds: RefundsService;
  gateway: RefundGateway;
  logger: Logger;
  /** REFUND_RESULT_WAIT_MS: an attempt without a result this long is looked at again, and again after as long. */
  resultWaitMs: number;
  /** REFUND_POLL_MS: the job's period (0: only when asked). */
  everyMs: number;
  jobs?: JobQueue | undefined;
}

/**
 * The refunds job (docs/decisions/refunds.md, "Over Daraja"): every REFUND_POLL_MS, once per period across API
 * instances (a pg-boss job), safe on several runners at once (SKIP LOCKED claims):
 * 1. due refunds whose time has come are claimed: each gets its attempt `tukio-<refundId>-<n>` and becomes `sent`
 *    (committed), then the attempt is sent once through the payment service. `accepted` keeps Daraja's
 *    ConversationID, `rejected` is the attempt's failure (due again after the back-off, by B2C after a reversal);
 *    `unsent` and `unknown` leave it sent;
 * 2. attempts still sent REFUND_RESULT_WAIT_MS after they were sent (or last looked at) are looked at: one Daraja
 *    never answered for (no ConversationID) is sent again — the payment service answers a repeat from its journal,
 *    and sends it only if it never went — and one Daraja took has its Transaction Status asked. Either way the
 *    result comes back through the payment service's outbox to POST /api/internal/refunds/result.
 */
export function createRefundsJob(deps: RefundsJobDeps) {
  const { db, refunds, gateway, logger } = deps;

  /** Records what the payment service said of a send; true when the attempt is still waiting for a result. */
  async function record(attempt: string, answer: SendOutcome) {
    if (answer.outcome === 'accepted') {
      await refunds.accepted({ originatorConversationId: attempt, conversationId: answer.conversationId }).catch((error: unknown) => {
        logger.error(`refund attempt ${attempt}: Daraja's ConversationID not recorded`, error);
      });
    } else if (answer.outcome === 'rejected') {
      await refunds.result({ originatorConversationId: attempt, resultCode: answer.resultCode, resultDesc: answer.resultDesc, source: 'rejected' });
    } else {
      logger.info(`refund attempt ${attempt}: ${answer.outcome === 'unsent' ? 'the payment service did not send it; it is sent again later' : 'outcome unknown; its status will be asked'}`);
    }
    return answer.outcome === 'unknown';
  }

  async function sendDue(now: Date) {
    let sent = 0;
    for (;;) {
      const claimed = await refunds.claim(BATCH, now);
      for (const one of claimed) {
        const { refundId: _refundId, ...body } = one;
        await record(one.originatorConversationId, await gateway.send(body)).catch((error: unknown) => logger.error(`refund attempt ${one.originatorConversationId} not recorded`, error));
      }
      sent += claimed.length;
      if (claimed.length < BATCH) return sent;
    }
  }

  async function askAboutLate(now: Date) {
    const before = new Date(now.getTime() - deps.resultWaitMs);
    const late = await db.transaction((tx) => createRefundsRepository(tx).claimAwaitingResult(before, now, BATCH));
    for (const { attempt, amount, phone, stkReceipt, eventTitle } of late) {
      const id = attempt.originatorConversationId;
      try {
        if (attempt.conversationId === null) {
          const answer = await gateway.send({ originatorConversationId: id, method: attempt.method, amount, phone: payablePhone(phone), receipt: stkReceipt, remarks: remarksFor(eventTitle) });
          // Sent before and its answer lost: Daraja may still know it (B2C by our id).
          if (!(await record(id, answer))) continue;
        }
        await gateway.askStatus({ originatorConversationId: id, method: attempt.method, ...(attempt.conversationId ? { conversationId: attempt.conversationId } : {}) });
      } catch (error) {
        // Asked again after the next wait.
        logger.error(`refund attempt ${id}: status not asked`, error);
      }
    }
    return late.length;
  }

  return createRepeatingTask(
    'refunds',
    async () => {
      const now = new Date();
      const sent = await sendDue(now);
      const asked = await askAboutLate(now);
      return { sent, asked };
    },
    { everyMs: deps.everyMs, logger, jobs: deps.jobs },
  );
}

export type RefundsJob = ReturnType<typeof createRefundsJob>;
