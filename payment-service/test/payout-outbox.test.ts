import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PayoutResultBody } from '@tukio/shared/internal-payouts';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/logger.js';
import { ApiServerError, refusedForGood } from '../src/api-server-client.js';
import { createPayoutOutbox, PARKED_LOG, readParkedPayoutResults, resultKey, type ParkedResult } from '../src/payouts/payout-outbox.js';

/** The payout outbox alone: one delivery per result, retried until acknowledged, and its log read back after a kill. */
const root = mkdtempSync(path.join(os.tmpdir(), 'tukio-payout-outbox-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const logger = createLogger('silent');
const result = (n: number, overrides: Partial<PayoutResultBody> = {}): PayoutResultBody => ({
  originatorConversationId: `tukio-payout-${'ab'.repeat(12)}-${n}`,
  resultCode: '0',
  resultDesc: 'ok',
  transactionId: `SG632NMU${String(n).padStart(2, '0')}`,
  amount: 100 * n,
  source: 'callback',
  ...overrides,
});

describe('the payout outbox', () => {
  it('delivers several results at once: a burst does not wait on each round trip in turn', async () => {
    const dir = path.join(root, 'at-once');
    let inFlight = 0;
    let mostInFlight = 0;
    const answer: Array<() => void> = [];
    const delivered: PayoutResultBody[] = [];
    const outbox = createPayoutOutbox({
      dir,
      logger,
      retryMs: 10,
      deliver: async (body) => {
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await new Promise<void>((resolve) => answer.push(resolve));
        inFlight -= 1;
        delivered.push(body);
      },
    });
    outbox.start();
    outbox.add(result(1));
    await vi.waitFor(() => expect(answer).toHaveLength(1));
    // Results arriving while the API server has not answered the first one are sent at once, not after it.
    outbox.add(result(2));
    outbox.add(result(3));
    await vi.waitFor(() => expect(answer).toHaveLength(3));
    for (const resolve of answer) resolve();
    await vi.waitFor(() => expect(delivered).toHaveLength(3));
    expect(mostInFlight).toBe(3);
    expect(outbox.pending()).toEqual([]);
    await outbox.stop();
    outbox.close();
  });

  it('delivers each result once, retrying refusals, queues a repeated result once and empties its log', async () => {
    const dir = path.join(root, 'retries');
    let refusals = 2;
    const delivered: PayoutResultBody[] = [];
    const outbox = createPayoutOutbox({
      dir,
      logger,
      retryMs: 10,
      deliver: async (body) => {
        if (refusals-- > 0) throw new Error('API server answered 500');
        delivered.push(body);
      },
    });
    outbox.start();
    expect(outbox.add(result(1))).toBe(true);
    expect(outbox.add(result(1))).toBe(false);
    await vi.waitFor(() => expect(delivered).toEqual([result(1)]));
    // Delivered: Daraja sending the same callback again changes nothing.
    expect(outbox.add(result(1))).toBe(false);
    expect(outbox.pending()).toEqual([]);
    expect(readFileSync(path.join(dir, 'outbox.log'), 'utf8')).toBe('');
    await outbox.stop();
    outbox.close();
  });

  it('reads back what a killed process left: undelivered results, not the done ones, nor a line cut short', async () => {
    const dir = path.join(root, 'killed');
    const first = createPayoutOutbox({ dir, logger, retryMs: 10, deliver: () => Promise.reject(new Error('down')) });
    // Not started: nothing is delivered, as in a process killed before it could.
    first.add(result(1));
    first.add(result(2, { resultCode: '1', transactionId: undefined, amount: undefined }));
    first.close();
    const log = path.join(dir, 'outbox.log');
    appendFileSync(log, `${JSON.stringify({ done: resultKey(result(1)) })}\n{"add":{"key":"cut-sh`);

    const delivered: PayoutResultBody[] = [];
    const second = createPayoutOutbox({ dir, logger, retryMs: 10, deliver: async (body) => void delivered.push(body) });
    expect(second.pending()).toEqual([result(2, { resultCode: '1', transactionId: undefined, amount: undefined })]);
    second.start();
    await vi.waitFor(() => expect(delivered).toHaveLength(1));
    expect(delivered[0]).toMatchObject({ resultCode: '1', originatorConversationId: result(2).originatorConversationId });
    await second.stop();
    second.close();
  });

  it('parks a result the API server refuses for good (409) and keeps retrying 5xx, 429 and network errors', async () => {
    const dir = path.join(root, 'parked');
    const answers = new Map<string, unknown[]>([
      [result(1).originatorConversationId, [new ApiServerError(409, 'amount 999 is not the payout\'s 450', { code: 'payout_result_doubtful' })]],
      [result(2).originatorConversationId, [new ApiServerError(503, 'down'), new ApiServerError(429, 'slow down'), new TypeError('fetch failed')]],
    ]);
    const calls = new Map<string, number>();
    const delivered: PayoutResultBody[] = [];
    const parkedSeen: ParkedResult[] = [];
    const outbox = createPayoutOutbox({
      dir,
      logger,
      retryMs: 5,
      refusedForGood,
      onParked: (entry) => parkedSeen.push(entry),
      deliver: async (body) => {
        calls.set(body.originatorConversationId, (calls.get(body.originatorConversationId) ?? 0) + 1);
        const error = answers.get(body.originatorConversationId)?.shift();
        if (error) throw error;
        delivered.push(body);
      },
    });
    outbox.start();
    outbox.add(result(1));
    outbox.add(result(2));
    await vi.waitFor(() => expect(delivered).toEqual([result(2)]));
    expect(calls.get(result(2).originatorConversationId)).toBe(4);
    // The refused one: tried once, parked (on disk, for a person), never again.
    expect(calls.get(result(1).originatorConversationId)).toBe(1);
    expect(parkedSeen).toMatchObject([{ result: result(1), status: 409, reason: expect.stringMatching(/amount 999/) }]);
    expect(outbox.pending()).toEqual([]);
    expect(outbox.parked()).toHaveLength(1);
    expect(outbox.add(result(1))).toBe(false);
    expect(readParkedPayoutResults(dir)).toMatchObject([{ key: resultKey(result(1)), status: 409 }]);
    await outbox.stop();
    outbox.close();

    // A restart keeps it parked and does not deliver it again.
    const again: PayoutResultBody[] = [];
    const restarted = createPayoutOutbox({ dir, logger, retryMs: 5, refusedForGood, deliver: async (body) => void again.push(body) });
    restarted.start();
    expect(restarted.parked()).toMatchObject([{ key: resultKey(result(1)) }]);
    expect(restarted.pending()).toEqual([]);
    expect(restarted.add(result(1))).toBe(false);
    await restarted.stop();
    restarted.close();
    expect(again).toEqual([]);
    expect(readFileSync(path.join(dir, PARKED_LOG), 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('a kill between parking and the log\'s done line parks it once, not delivering it again', async () => {
    const dir = path.join(root, 'parked-killed');
    const first = createPayoutOutbox({ dir, logger, retryMs: 5, deliver: () => Promise.reject(new Error('down')) });
    first.add(result(3));
    first.close();
    // As if parked and then killed before `done` was written.
    appendFileSync(path.join(dir, PARKED_LOG), `${JSON.stringify({ key: resultKey(result(3)), result: result(3), status: 409, reason: 'doubtful', at: new Date().toISOString() })}\n`);
    const delivered: PayoutResultBody[] = [];
    const second = createPayoutOutbox({ dir, logger, retryMs: 5, refusedForGood, deliver: async (body) => void delivered.push(body) });
    second.start();
    expect(second.pending()).toEqual([]);
    expect(second.parked()).toHaveLength(1);
    await second.stop();
    second.close();
    expect(delivered).toEqual([]);
  });
});
