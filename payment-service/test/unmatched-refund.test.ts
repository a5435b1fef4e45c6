import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { refunds, unmatchedPayments } from '../../server/src/db/schema.js';
import { auditPayments } from '../src/audit.js';
import { startStack, type Stack } from './helpers/stack.js';

/**
 * An unmatched Paybill payment refunded by an administrator, through the whole stack (docs/decisions/paybill.md):
 * the (simulated) M-Pesa completes a payment to an account number no order has, the API server keeps it, the
 * administrator refunds it, the refunds job sends a reversal of its TransID through the payment service, the
 * simulator reverses it and its result comes back through the outbox; the audit of M-Pesa's books finds nothing.
 */
let stack: Stack;
let validation: Server;

beforeAll(async () => {
  stack = await startStack();
  // Our validation refuses an unknown account; Daraja lets it through when validation is off (or did not answer
  // under ResponseType Completed). A stand-in validation URL that accepts everything is registered for that.
  validation = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ResultCode: '0', ResultDesc: 'Accepted' })));
  await new Promise<void>((resolve) => validation.listen(0, '127.0.0.1', resolve));
  const validationUrl = `http://127.0.0.1:${(validation.address() as AddressInfo).port}/accept`;
  stack.sim.allowCallbacksTo(validationUrl);
  const basic = Buffer.from(`${stack.sim.paymentEnv.DARAJA_CONSUMER_KEY}:${stack.sim.paymentEnv.DARAJA_CONSUMER_SECRET}`).toString('base64');
  const token = (await (await fetch(`${stack.sim.url}/oauth/v1/generate?grant_type=client_credentials`, { headers: { authorization: `Basic ${basic}` } })).json()) as { access_token: string };
  const registered = await fetch(`${stack.sim.url}/mpesa/c2b/v2/registerurl`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ShortCode: stack.config.daraja.shortcode, ResponseType: 'Completed', ValidationURL: validationUrl, ConfirmationURL: stack.pay.paybill.urls.confirmationUrl }),
  });
  expect(registered.status).toBe(200);
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await new Promise((resolve) => validation?.close(resolve));
});

describe('refunding an unmatched Paybill payment over Daraja', () => {
  it('reverses its TransID at M-Pesa, the payment becomes refunded, and the audit finds 0 discrepancies', async () => {
    const paid = await stack.simApi('POST', '/simulator/menu/pay', { body: { phone: '254712555001', account: 'NOBODY9', amount: 640 } });
    expect(paid.body).toMatchObject({ status: 'completed', confirmationSent: true });
    const transId: string = paid.body.transId;
    const row = await vi.waitFor(
      async () => {
        const [kept] = await stack.server.db.select().from(unmatchedPayments).where(eq(unmatchedPayments.transId, transId));
        expect(kept?.status).toBe('waiting');
        return kept!;
      },
      { timeout: 10_000, interval: 50 },
    );
    // Daraja v2 masks the payer: a B2C payout has no number to go to.
    expect(row.msisdn).not.toMatch(/^254\d{9}$/);

    const admin = await stack.server.loginAdmin();
    const refunded = await stack.api<any>('POST', `/api/admin/unmatched-payments/${row.id}/refund`, { token: admin.token, body: { reason: 'Paid the wrong business' } });
    expect(refunded.status).toBe(200);
    const refundId: string = refunded.body.refundId;

    await stack.server.services.refundsJob.runOnce();
    await vi.waitFor(
      async () => {
        const [refund] = await stack.server.db.select().from(refunds).where(eq(refunds.id, refundId));
        expect(refund).toMatchObject({ status: 'succeeded', method: 'reversal' });
      },
      { timeout: 20_000, interval: 100 },
    );
    const [after] = await stack.server.db.select().from(unmatchedPayments).where(eq(unmatchedPayments.id, row.id));
    expect(after!.status).toBe('refunded');
    const ledger = (await stack.simApi('GET', '/simulator/ledger', { headers: stack.simulatorKey })).body as { refunds: Array<{ kind: string; amount: number }> };
    expect(ledger.refunds.filter((refund) => refund.kind === 'reversal' && refund.amount === 640)).toHaveLength(1);

    const audit = await auditPayments(stack.config, { ledgerUrl: `${stack.sim.url}/simulator/ledger`, key: stack.config.simulator.key });
    expect(audit.discrepancies).toEqual([]);
  });
});
