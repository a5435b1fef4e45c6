import type { RefundMethod, RefundResultRequest } from '@tukio/shared/internal-refunds';
import { ApiServerError, type ApiServerClient } from '../api-server-client.js';
import { REFUND_RESULT_CODES, resultParameter } from '@tukio/shared/daraja-protocol';
import { amountOf, providerId, transactionStatusVerdict, type ParsedResult } from '../daraja/daraja-results.js';
import type { Logger } from '../logger.js';
import type { PaymentMetrics } from '../metrics.js';
import type { ProviderJournal } from '../provider-journal.js';

/** Our OriginatorConversationIDs: tukio-<refund id>-<attempt number>. */
export const ATTEMPT_ID = /^tukio-[0-9a-f]{24}-\d{1,6}$/;

export type ResultOutcome = 'recorded' | 'duplicate' | 'unknown' | 'doubtful' | 'pending' | 'malformed' | 'unavailable';

/**
 * Turns Daraja's answers about refunds into results on the API server (`POST /api/internal/refunds/result`),
 * which keys them by our OriginatorConversationID and ignores duplicates and late ones.
 */
export function createRefundResults(deps: { api: ApiServerClient; journal: ProviderJournal; logger: Logger; metrics: Pick<PaymentMetrics, 'refunds'> }) {
  const { api, journal, logger, metrics } = deps;

  async function report(method: RefundMethod, body: RefundResultRequest): Promise<ResultOutcome> {
    try {
      const answer = await api.refundResult(body);
      if (answer.changed) metrics.refunds.inc({ method, outcome: body.resultCode === REFUND_RESULT_CODES.success ? 'succeeded' : 'failed' });
      return answer.changed ? 'recorded' : 'duplicate';
    } catch (error) {
      if (!(error instanceof ApiServerError)) throw error;
      if (error.status === 404) {
        logger.info(`refund result for an unknown request ${body.originatorConversationId} ignored`);
        return 'unknown';
      }
      if (error.status === 409) {
        // A success that names another amount: never believed; a person looks at the attempt (it stays sent).
        logger.error(`refund result for ${body.originatorConversationId} doubted by the API server: ${error.message}`);
        return 'doubtful';
      }
      if (error.status === 400) {
        logger.error(`refund result for ${body.originatorConversationId} refused by the API server: ${error.message}`);
        return 'malformed';
      }
      // Down or failing: the attempt stays sent and the reconciler asks Daraja again later.
      logger.error(`refund result for ${body.originatorConversationId} not recorded now`, error);
      return 'unavailable';
    }
  }

  /**
   * A completed payout goes into the journal (the audit's provider side with real Daraja) once the API server
   * knows the attempt: recorded, a duplicate, or doubted (M-Pesa paid something the ledger disputes, which the
   * audit must see). A stray or forged result for no attempt of ours is left out.
   */
  function journalPayout(outcome: ResultOutcome, payout: Parameters<ProviderJournal['payout']>[0]) {
    if (outcome === 'recorded' || outcome === 'duplicate' || outcome === 'doubtful') journal.payout(payout);
  }

  return {
    report,

    /** The result callback of a B2C payout or a reversal. `attempt` is ours (from the ResultURL), else Daraja's id is used. */
    async payout(method: RefundMethod, attempt: string | undefined, result: ParsedResult): Promise<ResultOutcome> {
      const originatorConversationId = attempt ?? result.originatorConversationId;
      if (!originatorConversationId) return 'malformed';
      const success = result.resultCode === REFUND_RESULT_CODES.success;
      const transactionId = providerId(result.transactionId ?? resultParameter(result.parameters, 'TransactionReceipt'));
      const amount = amountOf(resultParameter(result.parameters, method === 'b2c' ? 'TransactionAmount' : 'Amount'));
      if (success) {
        if (!transactionId) {
          logger.error(`refund success for ${originatorConversationId} without a TransactionID; left for the reconciler`);
          return 'pending';
        }
      }
      const outcome = await report(method, {
        originatorConversationId,
        conversationId: providerId(result.conversationId),
        resultCode: result.resultCode,
        resultDesc: result.resultDesc,
        // A failure still carries a TransactionID (a placeholder for reversals): not a receipt of anything paid.
        ...(success ? { transactionId, amount } : {}),
        source: 'callback',
      });
      if (success) journalPayout(outcome, { transactionId: transactionId!, originatorConversationId: result.originatorConversationId ?? originatorConversationId, attempt, amount: amount ?? 0, kind: method });
      return outcome;
    },

    /**
     * The result of a Transaction Status query about one of our attempts. Completed → success with its
     * ReceiptNo; a status that says it did not pay, or M-Pesa not knowing the request, → failure; anything
     * else (still pending, or our query itself refused) says nothing and the attempt stays sent.
     */
    async status(method: RefundMethod, attempt: string, result: ParsedResult): Promise<ResultOutcome> {
      const verdict = transactionStatusVerdict(result);
      if (verdict.state === 'paid') {
        const { transactionId, amount } = verdict;
        const outcome = await report(method, {
          originatorConversationId: attempt,
          conversationId: verdict.conversationId,
          source: 'status-query',
          resultCode: REFUND_RESULT_CODES.success,
          resultDesc: `Transaction Status: ${verdict.status}`,
          transactionId,
          amount,
        });
        journalPayout(outcome, { transactionId, originatorConversationId: verdict.namedOriginatorConversationId ?? attempt, attempt, amount: amount ?? 0, kind: method });
        return outcome;
      }
      if (verdict.state === 'failed') {
        return report(method, { originatorConversationId: attempt, conversationId: verdict.conversationId, source: 'status-query', resultCode: verdict.resultCode, resultDesc: verdict.resultDesc });
      }
      if (verdict.indefinite) logger.info(`Transaction Status for ${attempt} says nothing definite (${result.resultCode} ${verdict.status || result.resultDesc}); it stays sent`);
      return 'pending';
    },
  };
}

export type RefundResults = ReturnType<typeof createRefundResults>;
