import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PayoutResultBody } from '@tukio/shared/internal-payouts';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/logger.js';
import { createPayoutOutbox, resultKey } from '../src/payouts/payout-outbox.js';

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
});
