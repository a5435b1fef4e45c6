import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ClaimedRefunds, RefundResultRequest, UnresolvedRefunds } from '@tukio/shared/internal-refunds';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiServerError, type ApiServerClient } from '../src/api-server-client.js';
import type { AsyncRequestOutcome, DarajaClient } from '../src/daraja/daraja-client.js';
import { createLogger } from '../src/logger.js';
import { createPaymentMetrics } from '../src/metrics.js';
import { createProviderJournal, readProviderJournal, type ProviderJournal } from '../src/provider-journal.js';
import { createRefundResults } from '../src/refunds/refund-results.js';
import { createRefundWorker } from '../src/refunds/refund-worker.js';

/**
 * The refund worker's decisions with the API server and Daraja replaced by recorders: what it reports for
 * each synchronous answer, what it asks Transaction Status with, and how it backs off while the API server
 * is away (fake timers: no waiting).
 */

const REFUND = 'a'.repeat(24);
const attempt = (n: number) => `tukio-${REFUND}-${n}`;

let dir: string;
let journal: ProviderJournal;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tukio-refund-worker-'));
  journal = createProviderJournal(dir);
});
afterEach(() => {
  vi.useRealTimers();
  journal.close();
  rmSync(dir, { recursive: true, force: true });
});

function setup(options: { claims?: ClaimedRefunds[]; unresolved?: UnresolvedRefunds; outcome?: AsyncRequestOutcome; claimError?: () => Error | undefined; pollMs?: number; resultWaitMs?: number } = {}) {
  const claims = [...(options.claims ?? [])];
  const calls = { claim: 0, accepted: [] as unknown[], results: [] as RefundResultRequest[], daraja: [] as Array<[string, Record<string, unknown>]> };
  const api = {
    claimRefunds: async () => {
      calls.claim += 1;
      const error = options.claimError?.();
      if (error) throw error;
      return claims.shift() ?? [];
    },
    refundAccepted: async (body: unknown) => {
      calls.accepted.push(body);
      return { changed: true };
    },
    refundResult: async (body: RefundResultRequest) => {
      calls.results.push(body);
      return { refundId: REFUND, status: 'due' as const, changed: true };
    },
    unresolvedRefunds: async () => options.unresolved ?? [],
  } as unknown as ApiServerClient;
  const answer = (name: string) => async (input: Record<string, unknown>) => {
    calls.daraja.push([name, input]);
    return options.outcome ?? { outcome: 'accepted' as const, conversationId: 'AG_20260101_00000000000000000001', originatorConversationId: 'dad6-4c34-8787-c8cb963a496d' };
  };
  const daraja = { b2cPayment: answer('b2c'), reversal: answer('reversal'), transactionStatus: answer('status'), refundsEnabled: true } as unknown as DarajaClient;
  const logger = createLogger('silent');
  const metrics = createPaymentMetrics();
  const url = (...parts: string[]) => `https://pay.example.com/${parts.join('/')}`;
  const worker = createRefundWorker({
    api,
    daraja,
    results: createRefundResults({ api, journal, logger, metrics }),
    journal,
    urls: { result: (kind, id) => url(kind, 'result', id), timeout: (kind, id) => url(kind, 'timeout', id), statusResult: (method, id) => url('status', method, id), statusTimeout: (method, id) => url('status-timeout', method, id) },
    logger,
    metrics,
    pollMs: options.pollMs ?? 0,
    resultWaitMs: options.resultWaitMs ?? 60_000,
  });
  return { worker, calls };
}

const claim = (n: number, method: 'reversal' | 'b2c', receipt: string | null = 'PDU91HIVIT') => ({
  refundId: REFUND,
  originatorConversationId: attempt(n),
  method,
  amount: 500,
  phone: '254712345678',
  receipt,
  remarks: 'Tukio refund: Fault Concert',
});

describe('refund worker', () => {
  it('sends each claimed refund once and reports what Daraja answered', async () => {
    const accepted = setup({ claims: [[claim(1, 'reversal'), claim(2, 'b2c')]] });
    expect(await accepted.worker.runOnce()).toEqual({ sent: 2, queried: 0 });
    expect(accepted.calls.daraja.map(([name, input]) => [name, input.transactionId ?? input.originatorConversationId, input.amount])).toEqual([
      ['reversal', 'PDU91HIVIT', 500],
      ['b2c', attempt(2), 500],
    ]);
    expect(accepted.calls.daraja[1]![1]).toMatchObject({ phone: '254712345678', resultUrl: `https://pay.example.com/b2c/result/${attempt(2)}` });
    expect(accepted.calls.accepted).toEqual([
      { originatorConversationId: attempt(1), conversationId: 'AG_20260101_00000000000000000001' },
      { originatorConversationId: attempt(2), conversationId: 'AG_20260101_00000000000000000001' },
    ]);
    expect(accepted.calls.results).toEqual([]);
    expect(journal.request(attempt(1))).toMatchObject({ kind: 'reversal', darajaOriginatorConversationId: 'dad6-4c34-8787-c8cb963a496d' });

    const refused = setup({ claims: [[claim(3, 'b2c')]], outcome: { outcome: 'rejected', errorCode: '400.002.02', errorMessage: 'Bad Request - Invalid PartyB' } });
    await refused.worker.runOnce();
    expect(refused.calls.results).toEqual([{ originatorConversationId: attempt(3), resultCode: '400.002.02', resultDesc: 'Bad Request - Invalid PartyB', source: 'rejected' }]);
    expect(readProviderJournal(dir).rejections.get(attempt(3))).toMatchObject({ errorCode: '400.002.02' });

    // No usable answer: nothing reported, the attempt stays sent for the reconciler.
    const silent = setup({ claims: [[claim(4, 'b2c')]], outcome: { outcome: 'unknown', reason: 'timed out' } });
    await silent.worker.runOnce();
    expect([silent.calls.accepted, silent.calls.results]).toEqual([[], []]);

    // A reversal without a receipt is refused here: nothing can have been paid.
    const noReceipt = setup({ claims: [[claim(5, 'reversal', null)]] });
    await noReceipt.worker.runOnce();
    expect(noReceipt.calls.daraja).toEqual([]);
    expect(noReceipt.calls.results).toEqual([expect.objectContaining({ originatorConversationId: attempt(5), resultCode: 'no-receipt', source: 'rejected' })]);
  });

  it('asks Transaction Status with the id Daraja knows, once per wait, and reports a refusal the API server missed', async () => {
    journal.sent({ originatorConversationId: attempt(1), kind: 'reversal', darajaOriginatorConversationId: 'dad6-reversal', conversationId: 'AG_1' });
    journal.rejected({ originatorConversationId: attempt(4), errorCode: '400.002.02', errorMessage: 'Bad Request - Invalid Amount' });
    const sentAt = new Date().toISOString();
    const { worker, calls } = setup({
      unresolved: [
        { originatorConversationId: attempt(1), conversationId: 'AG_1', method: 'reversal', sentAt },
        { originatorConversationId: attempt(2), conversationId: null, method: 'b2c', sentAt },
        { originatorConversationId: attempt(3), conversationId: null, method: 'reversal', sentAt },
        { originatorConversationId: attempt(4), conversationId: null, method: 'b2c', sentAt },
      ],
    });
    expect(await worker.runOnce()).toEqual({ sent: 0, queried: 2 });
    expect(calls.daraja.map(([name, input]) => [name, input.originalConversationId, input.party, input.resultUrl])).toEqual([
      ['status', 'dad6-reversal', 'paybill', `https://pay.example.com/status/reversal/${attempt(1)}`],
      ['status', attempt(2), 'b2c', `https://pay.example.com/status/b2c/${attempt(2)}`],
    ]);
    expect(calls.results).toEqual([{ originatorConversationId: attempt(4), resultCode: '400.002.02', resultDesc: 'Bad Request - Invalid Amount', source: 'rejected' }]);
    // Asked already: not again before resultWaitMs.
    expect(await worker.runOnce()).toEqual({ sent: 0, queried: 0 });
  });

  it('backs off while the API server is unavailable, resumes when it answers, and stops cleanly', async () => {
    vi.useFakeTimers();
    let down = 3;
    const { worker, calls } = setup({ pollMs: 100, claimError: () => (down-- > 0 ? new ApiServerError(503, 'not reachable') : undefined) });
    worker.start();
    await vi.advanceTimersByTimeAsync(100);
    expect(calls.claim).toBe(1);
    // 200, then 400 ms between the next tries.
    await vi.advanceTimersByTimeAsync(199);
    expect(calls.claim).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.claim).toBe(2);
    await vi.advanceTimersByTimeAsync(399);
    expect(calls.claim).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.claim).toBe(3);
    await vi.advanceTimersByTimeAsync(800);
    expect(calls.claim).toBe(4);
    // Answering again: back to every 100 ms.
    await vi.advanceTimersByTimeAsync(100);
    expect(calls.claim).toBe(5);
    await worker.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls.claim).toBe(5);
  });
});
