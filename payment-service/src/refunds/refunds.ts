import { REFUND_RESULT_CODES, resultParameter } from '@tukio/shared/daraja-protocol';
import { REFUND_ATTEMPT_ID, type RefundMethod, type RefundResultRequest, type RefundStatusBody, type SendRefundBody, type SendRequestAnswer } from '@tukio/shared/internal-refunds';
import type { AsyncRequestOutcome, DarajaClient } from '../daraja/daraja-client.js';
import { amountOf, providerId, transactionStatusVerdict, type ParsedResult } from '../daraja/daraja-results.js';
import { statusQueryTaken, type SendOnce } from '../daraja/send-once.js';
import { PaymentServiceError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { PaymentMetrics } from '../metrics.js';
import type { ProviderJournal } from '../provider-journal.js';
import type { ResultOutbox } from '../result-outbox.js';

/** Where Daraja posts the result and the queue timeout of a refund request, and of a status query about one. */
export interface RefundUrls {
  result(kind: RefundMethod, attempt: string): string;
  timeout(kind: RefundMethod, attempt: string): string;
  statusResult(method: RefundMethod, attempt: string): string;
  statusTimeout(method: RefundMethod, attempt: string): string;
}

/**
 * What a callback came to: queued for the API server; a duplicate (the same result again, or any result for an
 * attempt the API server already has a result for); nothing definite yet; or not ours (no attempt this service sent).
 */
export type RefundCallbackOutcome = 'queued' | 'duplicate' | 'pending' | 'unknown';

/** Our attempt, when `value` names one. */
export const refundAttemptOf = (value: unknown) => (typeof value === 'string' && REFUND_ATTEMPT_ID.test(value) ? value : undefined);

export type RefundOutbox = ResultOutbox<RefundResultRequest>;

/**
 * Refunds over Daraja, for the API server which owns the ledger and every rule (docs/decisions/refunds.md, "Over
 * Daraja"): one request per attempt — a reversal of the STK receipt, or a B2C BusinessPayment — sent at most once
 * (`sendOnce`, as payouts are), Transaction Status queries about attempts without a result, and the results of both,
 * normalized, in the refund outbox (delivered to POST /api/internal/refunds/result until acknowledged).
 */
export function createRefunds(deps: {
  daraja: DarajaClient;
  journal: ProviderJournal;
  outbox: RefundOutbox;
  sendOnce: SendOnce;
  urls: () => RefundUrls;
  logger: Logger;
  metrics: Pick<PaymentMetrics, 'refunds'>;
}) {
  const { daraja, journal, outbox, logger, metrics } = deps;
  /** Attempts the API server acknowledged a result of (it ignores any other result of them), the latest few thousand. */
  const settled = new Set<string>();

  /** An attempt this service sent (journaled), and not one the API server has its result of already. */
  function callbackFor(attempt: string): RefundCallbackOutcome | undefined {
    if (!journal.wasSent(attempt) && !journal.request(attempt) && !journal.rejection(attempt)) return 'unknown';
    return settled.has(attempt) ? 'duplicate' : undefined;
  }

  function request(body: SendRefundBody): Promise<AsyncRequestOutcome> {
    const attempt = body.originatorConversationId;
    const urls = deps.urls();
    if (body.method === 'reversal') {
      // Nothing to reverse: refused here, and the API server's next attempt pays it out by B2C.
      if (!body.receipt) return Promise.resolve({ outcome: 'rejected', errorCode: 'no-receipt', errorMessage: 'No M-Pesa receipt to reverse.' });
      return daraja.reversal({ transactionId: body.receipt, amount: body.amount, remarks: body.remarks, resultUrl: urls.result('reversal', attempt), timeoutUrl: urls.timeout('reversal', attempt) });
    }
    // Nobody to pay: refused here, nothing sent (the API server only asks B2C with a number).
    if (!body.phone) return Promise.resolve({ outcome: 'rejected', errorCode: 'no-phone', errorMessage: 'No M-Pesa number to pay.' });
    return daraja.b2cPayment({ originatorConversationId: attempt, amount: body.amount, phone: body.phone, remarks: body.remarks, resultUrl: urls.result('b2c', attempt), timeoutUrl: urls.timeout('b2c', attempt) });
  }

  /**
   * Delivers a result through the outbox. A completed refund is also M-Pesa's books with real Daraja (the
   * journal: the audit's provider side), whatever the API server makes of it.
   */
  function queue(method: RefundMethod, result: RefundResultRequest, namedOriginatorConversationId?: string): RefundCallbackOutcome {
    if (!outbox.add(result)) return 'duplicate';
    const success = result.resultCode === REFUND_RESULT_CODES.success;
    metrics.refunds.inc({ method, outcome: success ? 'succeeded' : 'failed' });
    if (success) {
      const attempt = result.originatorConversationId;
      journal.payout({ transactionId: result.transactionId!, originatorConversationId: namedOriginatorConversationId ?? attempt, attempt, amount: result.amount ?? 0, kind: method });
    }
    return 'queued';
  }

  return {
    /** POST /internal/refunds: one attempt sent once; a repeat (even a concurrent one) gets the first one's answer. */
    send(body: SendRefundBody): Promise<SendRequestAnswer> {
      return deps.sendOnce({
        attempt: body.originatorConversationId,
        what: 'refund',
        kind: body.method,
        request: () => request(body),
        count: (outcome) => metrics.refunds.inc({ method: body.method, outcome }),
      });
    },

    /**
     * POST /internal/refunds/status: a Transaction Status query about an attempt. B2C v3 carries our
     * OriginatorConversationID; a reversal is named by Daraja's (journaled from its answer), else by the
     * ConversationID the API server recorded.
     */
    async status(body: RefundStatusBody): Promise<void> {
      const attempt = body.originatorConversationId;
      const original = body.method === 'b2c' ? attempt : (journal.request(attempt)?.darajaOriginatorConversationId ?? body.conversationId);
      if (!original) {
        // Killed between Daraja accepting the reversal and journaling its answer (or it never reached Daraja).
        throw new PaymentServiceError(409, 'payment_outcome_unknown', `Nothing names refund ${attempt} to M-Pesa (no answer of Daraja was journaled): check the M-Pesa statement and settle it by hand.`);
      }
      if (!daraja.refundsEnabled) throw new PaymentServiceError(503, 'mpesa_unreachable', 'Refunds are not configured.');
      const outcome = await daraja.transactionStatus({
        originalConversationId: original,
        party: body.method === 'b2c' ? 'b2c' : 'paybill',
        remarks: 'Tukio refund status',
        resultUrl: deps.urls().statusResult(body.method, attempt),
        timeoutUrl: deps.urls().statusTimeout(body.method, attempt),
      });
      metrics.refunds.inc({ method: body.method, outcome: 'status-query' });
      statusQueryTaken(outcome);
    },

    /** The outbox delivered a result of `attempt` (2xx): the API server has its result, and ignores any other. */
    delivered(result: RefundResultRequest) {
      settled.add(result.originatorConversationId);
      if (settled.size > 5000) settled.delete(settled.values().next().value!);
    },

    /** The result callback of a B2C payout or a reversal. `attempt` is ours (from the ResultURL), else the one B2C v3 echoes. */
    result(method: RefundMethod, attempt: string | undefined, result: ParsedResult): RefundCallbackOutcome {
      const originatorConversationId = attempt ?? refundAttemptOf(result.originatorConversationId);
      if (!originatorConversationId) return 'unknown';
      const known = callbackFor(originatorConversationId);
      if (known) return known;
      const success = result.resultCode === REFUND_RESULT_CODES.success;
      const transactionId = providerId(result.transactionId ?? resultParameter(result.parameters, 'TransactionReceipt'));
      const amount = amountOf(resultParameter(result.parameters, method === 'b2c' ? 'TransactionAmount' : 'Amount'));
      if (success && !transactionId) {
        logger.error(`refund success for ${originatorConversationId} without a TransactionID; its status will be asked`);
        return 'pending';
      }
      return queue(
        method,
        {
          originatorConversationId,
          conversationId: providerId(result.conversationId),
          resultCode: result.resultCode,
          resultDesc: result.resultDesc,
          // A failure still carries a TransactionID (a placeholder for reversals): not a receipt of anything paid.
          ...(success ? { transactionId, ...(amount === undefined ? {} : { amount }) } : {}),
          source: 'callback',
        },
        result.originatorConversationId,
      );
    },

    /**
     * The result of a Transaction Status query about one of our attempts. Completed → success with its ReceiptNo;
     * a status that says it did not pay, or M-Pesa not knowing the request, → failure; anything else (still
     * pending, or our query itself refused) says nothing and the attempt stays sent.
     */
    statusResult(method: RefundMethod, attempt: string, result: ParsedResult): RefundCallbackOutcome {
      const known = callbackFor(attempt);
      if (known) return known;
      const verdict = transactionStatusVerdict(result);
      if (verdict.state === 'paid') {
        const { transactionId, amount } = verdict;
        return queue(
          method,
          {
            originatorConversationId: attempt,
            conversationId: verdict.conversationId,
            source: 'status-query',
            resultCode: REFUND_RESULT_CODES.success,
            resultDesc: `Transaction Status: ${verdict.status}`,
            transactionId,
            ...(amount === undefined ? {} : { amount }),
          },
          verdict.namedOriginatorConversationId,
        );
      }
      if (verdict.state === 'failed') {
        return queue(method, { originatorConversationId: attempt, conversationId: verdict.conversationId, source: 'status-query', resultCode: verdict.resultCode, resultDesc: verdict.resultDesc });
      }
      if (verdict.indefinite) logger.info(`Transaction Status for refund ${attempt} says nothing definite (${result.resultCode} ${verdict.status || result.resultDesc}); it stays sent`);
      return 'pending';
    },
  };
}

export type Refunds = ReturnType<typeof createRefunds>;
