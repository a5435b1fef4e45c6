import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { refundResultRequest, type RefundResultRequest, type SendRefundBody } from '@tukio/shared/internal-refunds';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AsyncRequestOutcome, DarajaClient } from '../src/daraja/daraja-client.js';
import type { ParsedResult } from '../src/daraja/daraja-results.js';
import { createSendOnce } from '../src/daraja/send-once.js';
import { createLogger } from '../src/logger.js';
import { createPaymentMetrics } from '../src/metrics.js';
import { createProviderJournal, readProviderJournal, type ProviderJournal } from '../src/provider-journal.js';
import { createRefunds } from '../src/refunds/refunds.js';
import { createResultOutbox } from '../src/result-outbox.js';

/**
 * The payment service's side of refunds with Daraja replaced by a recorder and the API server by the outbox's
 * delivery: what it sends for each attempt the API server asks for (once), what it answers, what it asks Transaction
 * Status with, and the results it delivers (once each, normalized).
 */

const REFUND = 'a'.repeat(24);
const attempt = (n: number) => `tukio-${REFUND}-${n}`;

let dir: string;
let journal: ProviderJournal;
const closers: Array<() => Promise<void>> = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tukio-refund-requests-'));
  journal = createProviderJournal(path.join(dir, 'journal'));
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  journal.close();
  rmSync(dir, { recursive: true, force: true });
});

function setup(options: { outcome?: AsyncRequestOutcome } = {}) {
  const calls = { daraja: [] as Array<[string, Record<string, unknown>]>, delivered: [] as RefundResultRequest[] };
  const answer = (name: string) => async (input: Record<string, unknown>) => {
    calls.daraja.push([name, input]);
    return options.outcome ?? { outcome: 'accepted' as const, conversationId: 'AG_20260101_00000000000000000001', originatorConversationId: 'dad6-4c34-8787-c8cb963a496d' };
  };
  const daraja = { b2cPayment: answer('b2c'), reversal: answer('reversal'), transactionStatus: answer('status'), refundsEnabled: true } as unknown as DarajaClient;
  const logger = createLogger('silent');
  const outbox = createResultOutbox({ what: 'refund', dir: path.join(dir, 'outbox'), schema: refundResultRequest, logger, retryMs: 10, deliver: async (result) => void calls.delivered.push(result) });
  outbox.start();
  closers.push(async () => {
    await outbox.stop();
    outbox.close();
  });
  const url = (...parts: string[]) => `https://pay.example.com/${parts.join('/')}`;
  const refunds = createRefunds({
    daraja,
    journal,
    outbox,
    sendOnce: createSendOnce({ journal, logger, enabled: () => true }),
    urls: () => ({ result: (kind, id) => url(kind, 'result', id), timeout: (kind, id) => url(kind, 'timeout', id), statusResult: (method, id) => url('status', method, id), statusTimeout: (method, id) => url('status-timeout', method, id) }),
    logger,
    metrics: createPaymentMetrics(),
  });
  return { refunds, calls, outbox };
}

const body = (n: number, method: 'reversal' | 'b2c', receipt: string | null = 'PDU91HIVIT'): SendRefundBody => ({
  originatorConversationId: attempt(n),
  method,
  amount: 500,
  phone: '254712345678',
  receipt,
  remarks: 'Tukio refund: Fault Concert',
});

const parsed = (overrides: Partial<ParsedResult> = {}): ParsedResult => ({
  resultCode: '0',
  resultDesc: 'The service request is processed successfully.',
  originatorConversationId: undefined,
  conversationId: 'AG_20260101_00000000000000000001',
  transactionId: 'SDU91HIVIT',
  parameters: [{ Key: 'TransactionAmount', Value: 500 }],
  ...overrides,
});

describe('refund requests', () => {
  it('sends each attempt once and answers what Daraja answered; a repeat gets the same answer without a second request', async () => {
    const accepted = setup();
    expect(await accepted.refunds.send(body(1, 'reversal'))).toEqual({ outcome: 'accepted', conversationId: 'AG_20260101_00000000000000000001' });
    expect(await accepted.refunds.send(body(2, 'b2c'))).toMatchObject({ outcome: 'accepted' });
    // The API server asks again (its answer was lost): the journal answers, Daraja is not asked twice.
    expect(await accepted.refunds.send(body(1, 'reversal'))).toMatchObject({ outcome: 'accepted' });
    expect(accepted.calls.daraja.map(([name, input]) => [name, input.transactionId ?? input.originatorConversationId, input.amount])).toEqual([
      ['reversal', 'PDU91HIVIT', 500],
      ['b2c', attempt(2), 500],
    ]);
    expect(accepted.calls.daraja[1]![1]).toMatchObject({ phone: '254712345678', resultUrl: `https://pay.example.com/b2c/result/${attempt(2)}` });
    expect(journal.request(attempt(1))).toMatchObject({ kind: 'reversal', darajaOriginatorConversationId: 'dad6-4c34-8787-c8cb963a496d' });

    const refused = setup({ outcome: { outcome: 'rejected', errorCode: '400.002.02', errorMessage: 'Bad Request - Invalid PartyB' } });
    expect(await refused.refunds.send(body(3, 'b2c'))).toEqual({ outcome: 'rejected', resultCode: '400.002.02', resultDesc: 'Bad Request - Invalid PartyB' });
    expect(readProviderJournal(path.join(dir, 'journal')).rejections.get(attempt(3))).toMatchObject({ errorCode: '400.002.02' });

    // No usable answer: outcome unknown (502), and never sent again blindly.
    const silent = setup({ outcome: { outcome: 'unknown', reason: 'timed out' } });
    await expect(silent.refunds.send(body(4, 'b2c'))).rejects.toMatchObject({ status: 502, code: 'payment_outcome_unknown' });
    await expect(silent.refunds.send(body(4, 'b2c'))).rejects.toMatchObject({ status: 502 });
    expect(silent.calls.daraja).toHaveLength(1);

    // A reversal without a receipt is refused here: nothing can have been paid.
    const noReceipt = setup();
    expect(await noReceipt.refunds.send(body(5, 'reversal', null))).toMatchObject({ outcome: 'rejected', resultCode: 'no-receipt' });
    expect(noReceipt.calls.daraja).toEqual([]);
    // A B2C payout without a number (M-Pesa masked the payer) is refused too; a reversal needs none.
    expect(await noReceipt.refunds.send({ ...body(6, 'b2c'), phone: null })).toMatchObject({ outcome: 'rejected', resultCode: 'no-phone' });
    expect(noReceipt.calls.daraja).toEqual([]);
    // Nothing goes to the API server through the outbox for a send: the answer is the send's.
    expect([...accepted.calls.delivered, ...refused.calls.delivered, ...silent.calls.delivered]).toEqual([]);
  });

  it('asks Transaction Status with the id Daraja knows, and says so when nothing names a reversal', async () => {
    journal.sent({ originatorConversationId: attempt(1), kind: 'reversal', darajaOriginatorConversationId: 'dad6-reversal', conversationId: 'AG_1' });
    const { refunds, calls } = setup();
    await refunds.status({ originatorConversationId: attempt(1), method: 'reversal', conversationId: 'AG_1' });
    await refunds.status({ originatorConversationId: attempt(2), method: 'b2c' });
    await refunds.status({ originatorConversationId: attempt(3), method: 'reversal', conversationId: 'AG_3' });
    await expect(refunds.status({ originatorConversationId: attempt(4), method: 'reversal' })).rejects.toMatchObject({ status: 409 });
    expect(calls.daraja.map(([name, input]) => [name, input.originalConversationId, input.party, input.resultUrl])).toEqual([
      ['status', 'dad6-reversal', 'paybill', `https://pay.example.com/status/reversal/${attempt(1)}`],
      ['status', attempt(2), 'b2c', `https://pay.example.com/status/b2c/${attempt(2)}`],
      ['status', 'AG_3', 'paybill', `https://pay.example.com/status/reversal/${attempt(3)}`],
    ]);
  });

  it('delivers each result once, normalized: callbacks and Transaction Status answers; nothing for an indefinite one', async () => {
    const { refunds, calls } = setup();
    // Attempts this service sent (a result about any other is not ours).
    for (const n of [1, 2, 3, 4]) journal.sending(attempt(n));
    expect(refunds.result('b2c', attempt(9), parsed())).toBe('unknown');
    expect(refunds.result('b2c', attempt(1), parsed())).toBe('queued');
    // Daraja sends the same callback twice.
    expect(refunds.result('b2c', attempt(1), parsed())).toBe('duplicate');
    expect(refunds.result('reversal', attempt(2), parsed({ resultCode: 'R000002', transactionId: 'SDU91HIVIX', parameters: undefined }))).toBe('queued');
    expect(refunds.result('b2c', attempt(3), parsed({ transactionId: undefined }))).toBe('pending');
    expect(refunds.result('b2c', undefined, parsed({ originatorConversationId: 'not-ours' }))).toBe('unknown');
    const completed = { ResultParameter: [{ Key: 'TransactionStatus', Value: 'Completed' }, { Key: 'ReceiptNo', Value: 'SDU91HIVIY' }, { Key: 'Amount', Value: 500 }] };
    expect(refunds.statusResult('b2c', attempt(4), parsed({ transactionId: undefined, parameters: completed.ResultParameter }))).toBe('queued');
    await vi.waitFor(() => expect(calls.delivered).toHaveLength(3));
    expect(calls.delivered).toEqual([
      { originatorConversationId: attempt(1), conversationId: 'AG_20260101_00000000000000000001', resultCode: '0', resultDesc: 'The service request is processed successfully.', transactionId: 'SDU91HIVIT', amount: 500, source: 'callback' },
      // A failure's TransactionID is a placeholder: not passed on.
      { originatorConversationId: attempt(2), conversationId: 'AG_20260101_00000000000000000001', resultCode: 'R000002', resultDesc: 'The service request is processed successfully.', source: 'callback' },
      expect.objectContaining({ originatorConversationId: attempt(4), resultCode: '0', transactionId: 'SDU91HIVIY', amount: 500, source: 'status-query' }),
    ]);
    // Once the API server has an attempt's result, any later one about it is a duplicate (not delivered).
    refunds.delivered(calls.delivered[0]!);
    expect(refunds.result('b2c', attempt(1), parsed({ resultCode: 'R000002', transactionId: undefined }))).toBe('duplicate');
    // Completed refunds are M-Pesa's books with real Daraja (the audit's provider side).
    expect(readProviderJournal(path.join(dir, 'journal')).payouts.map((paid) => paid.transactionId).sort()).toEqual(['SDU91HIVIT', 'SDU91HIVIY']);
  });
});
