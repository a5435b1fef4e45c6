import type { SendRequestAnswer } from '@tukio/shared/internal-refunds';
import { PaymentServiceError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { JournaledRequest, ProviderJournal } from '../provider-journal.js';
import type { AsyncRequestOutcome } from './daraja-client.js';

/** One request of the API server's, named by our attempt id: `what` for messages, `kind` for the journal, `request` makes it. */
export interface OnceRequest {
  attempt: string;
  /** `payout` or `refund`, in messages. */
  what: string;
  kind: JournaledRequest['kind'];
  request: () => Promise<AsyncRequestOutcome>;
  /** Counts each outcome (repeat, sent, rejected, not-sent, unknown). */
  count: (outcome: string) => void;
}

const outcomeUnknown = (what: string, attempt: string) =>
  new PaymentServiceError(502, 'payment_outcome_unknown', `${what[0]!.toUpperCase()}${what.slice(1)} ${attempt} was sent to M-Pesa and its answer was lost: ask for its status.`);

/**
 * Sends each attempt to Daraja at most once, for payouts and refunds alike: the provider journal notes it before it
 * goes (`sending`) and Daraja's answer after, so a repeat — even after a kill -9 — gets the same answer (or "outcome
 * unknown", 502) without a second request, and one never sent (503) may be sent again. A concurrent repeat shares the
 * first one's answer.
 */
export function createSendOnce(deps: { journal: ProviderJournal; logger: Logger; enabled: () => boolean }) {
  const { journal, logger } = deps;
  const sending = new Map<string, Promise<SendRequestAnswer>>();

  /** What the journal already knows of an attempt: Daraja's answer, or that it went without one. */
  function known(what: string, attempt: string): SendRequestAnswer | undefined {
    const accepted = journal.request(attempt);
    if (accepted) return { outcome: 'accepted', conversationId: accepted.conversationId };
    const rejected = journal.rejection(attempt);
    if (rejected) return { outcome: 'rejected', resultCode: rejected.errorCode, resultDesc: rejected.errorMessage };
    if (journal.wasSent(attempt)) throw outcomeUnknown(what, attempt);
    return undefined;
  }

  async function send(one: OnceRequest): Promise<SendRequestAnswer> {
    const { attempt, what } = one;
    const repeated = known(what, attempt);
    if (repeated) {
      one.count('repeat');
      return repeated;
    }
    if (!deps.enabled()) throw new PaymentServiceError(503, 'mpesa_unreachable', `${what === 'payout' ? 'Payouts' : 'Refunds'} are not configured (DARAJA_INITIATOR_NAME, DARAJA_SECURITY_CREDENTIAL, DARAJA_B2C_SHORTCODE).`);
    journal.sending(attempt);
    const outcome = await one.request();
    if (outcome.outcome === 'accepted') {
      one.count('sent');
      journal.sent({ originatorConversationId: attempt, kind: one.kind, darajaOriginatorConversationId: outcome.originatorConversationId || attempt, conversationId: outcome.conversationId });
      return { outcome: 'accepted', conversationId: outcome.conversationId };
    }
    if (outcome.outcome === 'rejected') {
      one.count('rejected');
      logger.info(`Daraja refused ${what} ${attempt} (${one.kind}): ${outcome.errorCode} ${outcome.errorMessage}`);
      const rejection = { originatorConversationId: attempt, errorCode: outcome.errorCode.slice(0, 40), errorMessage: outcome.errorMessage.slice(0, 1000) };
      journal.rejected(rejection);
      return { outcome: 'rejected', resultCode: rejection.errorCode, resultDesc: rejection.errorMessage };
    }
    if (outcome.neverSent) {
      one.count('not-sent');
      journal.unsent(attempt);
      throw new PaymentServiceError(503, 'mpesa_unreachable', `M-Pesa is not reachable: ${what} ${attempt} was not sent.`);
    }
    one.count('unknown');
    logger.error(`${what} ${attempt} (${one.kind}): no answer from Daraja (${outcome.reason}); its status must be asked`);
    throw outcomeUnknown(what, attempt);
  }

  return function sendOnce(one: OnceRequest): Promise<SendRequestAnswer> {
    const inFlight = sending.get(one.attempt);
    if (inFlight) return inFlight;
    const answer = send(one).finally(() => sending.delete(one.attempt));
    sending.set(one.attempt, answer);
    return answer;
  };
}

export type SendOnce = ReturnType<typeof createSendOnce>;

/** A Transaction Status query's synchronous answer: nothing when Daraja took it (its result comes later), else the error the API server gets. */
export function statusQueryTaken(outcome: AsyncRequestOutcome): void {
  if (outcome.outcome === 'accepted') return;
  if (outcome.outcome === 'rejected') throw new PaymentServiceError(502, 'mpesa_refused', `M-Pesa refused the status query: ${outcome.errorCode} ${outcome.errorMessage}`, { errorCode: outcome.errorCode });
  throw new PaymentServiceError(outcome.neverSent ? 503 : 502, 'mpesa_unreachable', `M-Pesa did not answer the status query (${outcome.reason}).`);
}
