import { REFUND_RESULT_CODES, resultParameter } from '@tukio/shared/daraja-protocol';
import { PAYOUT_ATTEMPT_ID, type PayoutDestination, type PayoutResultBody, type PayoutStatusBody, type SendPayoutAnswer, type SendPayoutBody } from '@tukio/shared/internal-payouts';
import type { AsyncRequestOutcome, DarajaClient } from '../daraja/daraja-client.js';
import { statusQueryTaken, type SendOnce } from '../daraja/send-once.js';
import { amountOf, chargeOf, providerId, transactionStatusVerdict, type ParsedResult } from '../daraja/daraja-results.js';
import { PaymentServiceError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { PaymentMetrics } from '../metrics.js';
import type { ProviderJournal } from '../provider-journal.js';
import type { PayoutOutbox } from './payout-outbox.js';

/** Where Daraja posts the result and the queue timeout of a payout request, and of a status query about one. */
export interface PayoutUrls {
  result(attempt: string): string;
  timeout(attempt: string): string;
  statusResult(attempt: string): string;
  statusTimeout(attempt: string): string;
}

/** What a callback came to: queued for the API server, already known, nothing definite yet, or not ours. */
export type PayoutCallbackOutcome = 'queued' | 'duplicate' | 'pending' | 'unknown';

/** Our attempt, when `value` names one. */
export const payoutAttemptOf = (value: unknown) => (typeof value === 'string' && PAYOUT_ATTEMPT_ID.test(value) ? value : undefined);

const kindOf = (destination: PayoutDestination) => (destination.method === 'mpesa' ? 'b2c' : 'b2b');

/**
 * Organiser payouts over Daraja, for the API server which owns every rule about them: one request per attempt (B2C
 * BusinessPayment to a phone, B2B BusinessPayBill to a Paybill's account, BusinessBuyGoods to a Till), Transaction
 * Status queries about attempts without a result, and the results of both turned into `payoutResultBody`s in the
 * outbox. An attempt is sent at most once (`sendOnce`, ../daraja/send-once.ts, as refunds are) — B2B has no
 * OriginatorConversationID of ours for Daraja to refuse a duplicate by.
 */
export function createPayouts(deps: {
  daraja: DarajaClient;
  journal: ProviderJournal;
  outbox: PayoutOutbox;
  sendOnce: SendOnce;
  urls: () => PayoutUrls;
  logger: Logger;
  metrics: Pick<PaymentMetrics, 'payouts'>;
}) {
  const { daraja, journal, outbox, logger, metrics } = deps;
  function request(body: SendPayoutBody): Promise<AsyncRequestOutcome> {
    const attempt = body.originatorConversationId;
    const common = { amount: body.amount, remarks: body.remarks, resultUrl: deps.urls().result(attempt), timeoutUrl: deps.urls().timeout(attempt) };
    const { destination } = body;
    if (destination.method === 'mpesa') return daraja.b2cPayment({ originatorConversationId: attempt, phone: destination.phone, ...common });
    if (destination.method === 'paybill') return daraja.b2bPayment({ commandId: 'BusinessPayBill', shortcode: destination.shortcode, accountReference: destination.accountReference, ...common });
    return daraja.b2bPayment({ commandId: 'BusinessBuyGoods', shortcode: destination.shortcode, ...common });
  }

  /** Delivers a result through the outbox; the paid ones are also M-Pesa's books with real Daraja (the audit). */
  function queue(result: PayoutResultBody, kind: 'b2c' | 'b2b', namedOriginatorConversationId?: string): PayoutCallbackOutcome {
    if (!outbox.add(result)) return 'duplicate';
    metrics.payouts.inc({ method: kind, outcome: result.resultCode === REFUND_RESULT_CODES.success ? 'paid' : 'failed' });
    if (result.resultCode === REFUND_RESULT_CODES.success) {
      const attempt = result.originatorConversationId;
      journal.payout({ transactionId: result.transactionId!, originatorConversationId: namedOriginatorConversationId ?? attempt, attempt, amount: result.amount ?? 0, kind });
    }
    return 'queued';
  }

  const kindOfAttempt = (attempt: string) => journal.request(attempt)?.kind === 'b2b' ? 'b2b' : 'b2c';

  return {
    /** POST /internal/payouts: one attempt sent once; a repeat (even a concurrent one) gets the first one's answer. */
    send(body: SendPayoutBody): Promise<SendPayoutAnswer> {
      const method = body.destination.method;
      return deps.sendOnce({
        attempt: body.originatorConversationId,
        what: 'payout',
        kind: kindOf(body.destination),
        request: () => request(body),
        count: (outcome) => metrics.payouts.inc({ method, outcome }),
      });
    },

    /**
     * POST /internal/payouts/status: a Transaction Status query about an attempt. B2C v3 requests carry our
     * OriginatorConversationID; a B2B one is named by Daraja's (journaled from its answer), else by the
     * ConversationID or TransactionID the API server knows.
     */
    async status(body: PayoutStatusBody): Promise<void> {
      const attempt = body.originatorConversationId;
      const given = body.conversationId?.trim();
      const receipt = given && /^[A-Z0-9]{10}$/.test(given) ? given : undefined;
      const original = body.destination.method === 'mpesa' ? attempt : (journal.request(attempt)?.darajaOriginatorConversationId ?? (receipt ? undefined : given));
      if (!original && !receipt) {
        throw new PaymentServiceError(409, 'payment_outcome_unknown', `Nothing names payout ${attempt} to M-Pesa (no answer of Daraja was journaled): check the M-Pesa statement.`);
      }
      if (!daraja.refundsEnabled) throw new PaymentServiceError(503, 'mpesa_unreachable', 'Payouts are not configured.');
      const outcome = await daraja.transactionStatus({
        ...(receipt ? { transactionId: receipt } : { originalConversationId: original }),
        party: 'b2c',
        remarks: 'Tukio payout status',
        resultUrl: deps.urls().statusResult(attempt),
        timeoutUrl: deps.urls().statusTimeout(attempt),
      });
      metrics.payouts.inc({ method: body.destination.method, outcome: 'status-query' });
      statusQueryTaken(outcome);
    },

    /** Daraja's result of a payout request; `attempt` from its ResultURL, else the OriginatorConversationID B2C v3 echoes. */
    result(attempt: string | undefined, result: ParsedResult): PayoutCallbackOutcome {
      const originatorConversationId = attempt ?? payoutAttemptOf(result.originatorConversationId);
      if (!originatorConversationId) return 'unknown';
      const kind = kindOfAttempt(originatorConversationId);
      const paid = result.resultCode === REFUND_RESULT_CODES.success;
      const transactionId = providerId(result.transactionId ?? resultParameter(result.parameters, 'TransactionReceipt'));
      if (paid && !transactionId) {
        logger.error(`payout success for ${originatorConversationId} without a TransactionID; its status must be asked`);
        return 'pending';
      }
      // B2C names it TransactionAmount, B2B Amount (a string, "190.00").
      const amount = amountOf(resultParameter(result.parameters, 'TransactionAmount') ?? resultParameter(result.parameters, 'Amount'));
      const charge = chargeOf(result.parameters);
      return queue(
        {
          originatorConversationId,
          conversationId: providerId(result.conversationId),
          resultCode: result.resultCode,
          resultDesc: result.resultDesc,
          // A failure still carries a TransactionID (a placeholder): not a receipt of anything paid.
          ...(paid ? { transactionId, ...(amount === undefined ? {} : { amount }), ...(charge === undefined ? {} : { charge }) } : {}),
          source: 'callback',
        },
        kind,
        result.originatorConversationId,
      );
    },

    /** Daraja's answer to a Transaction Status query about `attempt`: a result when it says something definite. */
    statusResult(attempt: string, result: ParsedResult): PayoutCallbackOutcome {
      const verdict = transactionStatusVerdict(result);
      const kind = kindOfAttempt(attempt);
      if (verdict.state === 'paid') {
        const { transactionId, amount, charge } = verdict;
        const body: PayoutResultBody = {
          originatorConversationId: attempt,
          conversationId: verdict.conversationId,
          resultCode: REFUND_RESULT_CODES.success,
          resultDesc: `Transaction Status: ${verdict.status}`,
          transactionId,
          ...(amount === undefined ? {} : { amount }),
          ...(charge === undefined ? {} : { charge }),
          source: 'status-query',
        };
        return queue(body, kind, verdict.namedOriginatorConversationId);
      }
      if (verdict.state === 'failed') {
        return queue({ originatorConversationId: attempt, conversationId: verdict.conversationId, resultCode: verdict.resultCode, resultDesc: verdict.resultDesc, source: 'status-query' }, kind);
      }
      logger.info(`Transaction Status for payout ${attempt} says nothing definite (${result.resultCode} ${verdict.status || result.resultDesc})`);
      return 'pending';
    },
  };
}

export type Payouts = ReturnType<typeof createPayouts>;
