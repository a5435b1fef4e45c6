import type { ClaimedRefunds, RefundMethod, UnresolvedRefunds } from '@tukio/shared/internal-refunds';
import { ApiServerError, type ApiServerClient } from '../api-server-client.js';
import type { AsyncRequestOutcome, DarajaClient } from '../daraja/daraja-client.js';
import type { Logger } from '../logger.js';
import type { PaymentMetrics } from '../metrics.js';
import type { ProviderJournal } from '../provider-journal.js';
import type { RefundResults } from './refund-results.js';

/** Where Daraja posts the result and the queue timeout of a request about one of our attempts. */
export interface RefundUrls {
  result(kind: 'b2c' | 'reversal', attempt: string): string;
  timeout(kind: 'b2c' | 'reversal', attempt: string): string;
  statusResult(method: RefundMethod, attempt: string): string;
  statusTimeout(method: RefundMethod, attempt: string): string;
}

/** Claims per call; a pass claims at most this many batches, so a backlog drains over a few passes. */
const CLAIM_BATCH = 10;
const MAX_BATCHES = 5;
/** Requests to Daraja at once. */
const CONCURRENCY = 4;
/** The longest wait between passes while the API server is unreachable. */
const MAX_BACKOFF_MS = 5 * 60 * 1000;

type Claimed = ClaimedRefunds[number];
type Unresolved = UnresolvedRefunds[number];

/** Runs `work` over `items`, `CONCURRENCY` at a time. */
async function eachLimited<T>(items: T[], work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
}

/** The API server is down, failing, or does not have the refund routes: nothing to do until it is back. */
const apiUnavailable = (error: unknown) => error instanceof ApiServerError && (error.status >= 500 || error.status === 404 || error.status === 401);

/**
 * The refund worker and its reconciler, one pass every `pollMs`:
 * 1. claims due refunds from the API server (each claim is one attempt, already `sent` there, with our
 *    OriginatorConversationID), sends each to Daraja once — a reversal of the STK receipt, or a B2C payout —
 *    and reports Daraja's synchronous answer: `accepted` (queued; the result callback settles it), or a
 *    `rejected` result (Daraja refused: nothing was paid). No usable answer reports nothing: the attempt stays
 *    sent, because it may have been queued;
 * 2. asks Daraja (Transaction Status) about attempts still sent `resultWaitMs` after they were sent, once per
 *    `resultWaitMs` each; the query's result callback settles them (refund-results.ts).
 * While the API server is unreachable the passes back off (doubling up to 5 min) and nothing is claimed.
 */
export function createRefundWorker(deps: {
  api: ApiServerClient;
  daraja: DarajaClient;
  results: RefundResults;
  journal: ProviderJournal;
  urls: RefundUrls;
  logger: Logger;
  metrics: Pick<PaymentMetrics, 'refunds'>;
  pollMs: number;
  resultWaitMs: number;
}) {
  const { api, daraja, logger, metrics } = deps;
  /** When each unresolved attempt was last asked about (ms). */
  const asked = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<{ sent: number; queried: number }> | undefined;
  let started = false;
  let stopped = false;
  let failures = 0;

  async function send(refund: Claimed) {
    const attempt = refund.originatorConversationId;
    let outcome: AsyncRequestOutcome;
    if (refund.method === 'reversal' && !refund.receipt) {
      outcome = { outcome: 'rejected', errorCode: 'no-receipt', errorMessage: 'No M-Pesa receipt to reverse.' };
    } else if (refund.method === 'reversal') {
      outcome = await daraja.reversal({
        transactionId: refund.receipt!,
        amount: refund.amount,
        remarks: refund.remarks,
        resultUrl: deps.urls.result('reversal', attempt),
        timeoutUrl: deps.urls.timeout('reversal', attempt),
      });
    } else {
      outcome = await daraja.b2cPayment({
        originatorConversationId: attempt,
        amount: refund.amount,
        phone: refund.phone,
        remarks: refund.remarks,
        resultUrl: deps.urls.result('b2c', attempt),
        timeoutUrl: deps.urls.timeout('b2c', attempt),
      });
    }
    metrics.refunds.inc({ method: refund.method, outcome: outcome.outcome === 'accepted' ? 'sent' : outcome.outcome });
    if (outcome.outcome === 'accepted') {
      deps.journal.sent({ originatorConversationId: attempt, kind: refund.method, darajaOriginatorConversationId: outcome.originatorConversationId || attempt, conversationId: outcome.conversationId });
      // Lost, it costs nothing: the result callback names the attempt, and the journal keeps Daraja's ids.
      await api.refundAccepted({ originatorConversationId: attempt, conversationId: outcome.conversationId }).catch((error: unknown) => {
        logger.error(`could not record that Daraja accepted ${attempt}`, error);
      });
    } else if (outcome.outcome === 'rejected') {
      logger.info(`Daraja refused refund ${attempt} (${refund.method}): ${outcome.errorCode} ${outcome.errorMessage}`);
      // Journaled first: if the API server does not record it now, the reconciler reports it again.
      deps.journal.rejected({ originatorConversationId: attempt, errorCode: outcome.errorCode, errorMessage: outcome.errorMessage });
      await reportRejection(refund.method, attempt);
    } else {
      logger.error(`refund ${attempt} (${refund.method}): no answer from Daraja (${outcome.reason}); the reconciler will ask`);
    }
  }

  async function reportRejection(method: RefundMethod, attempt: string) {
    const rejection = deps.journal.rejection(attempt);
    if (!rejection) return false;
    const outcome = await deps.results.report(method, { originatorConversationId: attempt, resultCode: rejection.errorCode.slice(0, 40), resultDesc: rejection.errorMessage.slice(0, 1000), source: 'rejected' });
    return outcome === 'recorded' || outcome === 'duplicate';
  }

  async function sendDue(): Promise<number> {
    let sent = 0;
    for (let batch = 0; batch < MAX_BATCHES && !stopped; batch += 1) {
      const claimed = await api.claimRefunds(CLAIM_BATCH);
      // Claimed attempts are already sent on the API server: each goes out now, even while stopping.
      await eachLimited(claimed, async (refund) => {
        try {
          await send(refund);
        } catch (error) {
          logger.error(`refund ${refund.originatorConversationId} could not be sent`, error);
        }
      });
      sent += claimed.length;
      if (claimed.length < CLAIM_BATCH) break;
    }
    return sent;
  }

  /** How Daraja names the attempt's request for a Transaction Status query, if anyone knows. */
  function originalId(item: Unresolved): string | undefined {
    // B2C v3 carries ours; a reversal is named by Daraja, in its synchronous answer (journaled).
    if (item.method === 'b2c') return item.originatorConversationId;
    return deps.journal.request(item.originatorConversationId)?.darajaOriginatorConversationId ?? item.conversationId ?? undefined;
  }

  async function ask(item: Unresolved): Promise<boolean> {
    const attempt = item.originatorConversationId;
    const last = asked.get(attempt);
    if (last !== undefined && Date.now() - last < deps.resultWaitMs) return false;
    // Refused by Daraja, but the API server missed it: nothing to ask, only to report again.
    if (await reportRejection(item.method, attempt)) return false;
    const original = originalId(item);
    asked.set(attempt, Date.now());
    if (!original) {
      // Killed between Daraja accepting the reversal and journaling its answer (or it never reached Daraja).
      logger.error(`refund ${attempt}: no id to ask Daraja about this reversal with; check the M-Pesa statement and settle it by hand`);
      return false;
    }
    const outcome = await daraja.transactionStatus({
      originalConversationId: original,
      party: item.method === 'b2c' ? 'b2c' : 'paybill',
      remarks: 'Tukio refund status',
      resultUrl: deps.urls.statusResult(item.method, attempt),
      timeoutUrl: deps.urls.statusTimeout(item.method, attempt),
    });
    metrics.refunds.inc({ method: item.method, outcome: 'status-query' });
    if (outcome.outcome !== 'accepted') logger.error(`Transaction Status for refund ${attempt} not accepted: ${outcome.outcome === 'rejected' ? `${outcome.errorCode} ${outcome.errorMessage}` : outcome.reason}`);
    return outcome.outcome === 'accepted';
  }

  async function reconcile(): Promise<number> {
    const unresolved = await api.unresolvedRefunds(Math.ceil(deps.resultWaitMs / 1000), 100);
    const open = new Set(unresolved.map((item) => item.originatorConversationId));
    for (const attempt of asked.keys()) if (!open.has(attempt)) asked.delete(attempt);
    let queried = 0;
    await eachLimited(unresolved, async (item) => {
      try {
        if (await ask(item)) queried += 1;
      } catch (error) {
        logger.error(`Transaction Status for refund ${item.originatorConversationId} failed`, error);
      }
    });
    return queried;
  }

  async function pass(): Promise<{ sent: number; queried: number }> {
    const sent = await sendDue();
    const queried = stopped ? 0 : await reconcile();
    return { sent, queried };
  }

  function schedule() {
    if (stopped || deps.pollMs <= 0) return;
    const delay = failures === 0 ? deps.pollMs : Math.min(deps.pollMs * 2 ** failures, MAX_BACKOFF_MS);
    timer = setTimeout(() => {
      timer = undefined;
      worker
        .runOnce()
        .then(
          () => {
            if (failures > 0) logger.info('refund worker: the API server answers again; refunds resume');
            failures = 0;
          },
          (error: unknown) => {
            if (!apiUnavailable(error)) logger.error('refund worker pass failed', error);
            else if (failures === 0) logger.error(`refund worker paused: the API server is not available (${(error as ApiServerError).status} ${(error as Error).message}); retrying with backoff`);
            failures = Math.min(failures + 1, 30);
          },
        )
        .finally(schedule);
    }, delay);
    timer.unref();
  }

  const worker = {
    /** One pass now (tests call this); concurrent calls share the pass in progress. */
    runOnce() {
      running ??= pass().finally(() => {
        running = undefined;
      });
      return running;
    },
    start() {
      if (started || deps.pollMs <= 0) return;
      started = true;
      schedule();
    },
    /** No new pass starts; the one in progress finishes sending what it claimed. */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
  return worker;
}

export type RefundWorker = ReturnType<typeof createRefundWorker>;
