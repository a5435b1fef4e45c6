import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, payouts } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { confirmPayoutPhone, startPayoutServices, waitFor, type PayoutServices } from './helpers/payout-services.js';
import { payFor } from './helpers/refunds.js';
import type { TestServer } from './helpers/test-server.js';

/**
 * One payout through the real modules and services: the organiser confirms an M-Pesa number (payout-accounts, SMS
 * code), the API server's job sends the payout
 * (POST /internal/payouts), the simulator pays the B2C and calls back, and the payment service's outbox delivers the
 * result to POST /api/internal/payouts/results, which posts payout_paid and keeps the receipt.
 */

/** MPESA_TARIFF: a B2C payout of 1500 costs 17. */
const PAYOUT_TARIFF = { receive: [[250_000, 0]], b2c: [[250_000, 17]], b2b: [[250_000, 29]] };

let services: PayoutServices;
let t: TestServer;

beforeAll(async () => {
  // A tariff with charges for payouts only (receiving free): the B2C result names no charge, the tariff's is recorded.
  services = await startPayoutServices({ serverEnv: { MPESA_TARIFF: JSON.stringify(PAYOUT_TARIFF) } });
  t = services.t;
}, 120_000);

afterAll(async () => {
  await services?.close();
});

describe('a payout through the payment service and the simulator', () => {
  it('is sent once, paid by B2C, and its result (delivered by the outbox) posts payout_paid with the receipt', async () => {
    const organiser = await t.createUser('e2eorganiser', 'organiser-secret-1');
    const buyer = await t.createUser('e2ebuyer');
    const admin = await t.loginAdmin();
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 20, price: 750 });
    // The organiser's first destination: confirmed with the code sent to it, no hold.
    const phone = '254722000999';
    await confirmPayoutPhone(t, organiser, 'organiser-secret-1', phone);
    const bought = await payFor(t, buyer.token, eventId, { quantity: 2, phone: '254711000777' });
    await t.db.update(events).set({ startsAt: new Date(Date.now() - 10 * 24 * 60 * 60 * 1000) }).where(eq(events.id, eventId));

    await t.services.payouts.job.runOnce();
    const paid = await waitFor(async () => {
      const [row] = await t.db.select().from(payouts).where(eq(payouts.organiserId, organiser.user._id));
      return row?.status === 'paid' ? row : undefined;
    }, 'the payout to be paid');
    expect(paid).toMatchObject({ amount: 1500, attempts: 1, destination: { method: 'mpesa', phone } });
    expect(paid.receipt).toMatch(/^[A-Z0-9]{10}$/);
    // The simulator's B2C result callback names no charge (its Transaction Status answer does): MPESA_TARIFF's, Tukio's cost.
    expect(paid.charge).toBe(17);
    expect((await t.api('GET', '/api/admin/ledger/balances', { token: admin.token })).body.balances).toMatchObject({ mpesa_charges: -17, platform_fees: 17 });
    const balances = (await t.api('GET', `/api/admin/ledger/balances?eventId=${eventId}`, { token: admin.token })).body.balances;
    expect(balances).toMatchObject({ mpesa_clearing: 0, organiser_payable: 0, payouts_in_flight: 0 });
    const statement = await t.api('GET', `/api/payouts/events/${eventId}/statement`, { token: organiser.token });
    expect(statement.body).toMatchObject({ grossSales: 1500, net: 1500, paidOut: 1500, balance: 0, payouts: [{ receipt: paid.receipt, status: 'paid' }] });
    // Nothing more is sent on later runs.
    await t.services.payouts.job.runOnce();
    expect(await t.db.select().from(payouts).where(eq(payouts.organiserId, organiser.user._id))).toHaveLength(1);

    // The payments audit as `npm run audit:payments` runs it: the simulator's ledger reports the B2C payout, which
    // matches the paid attempt. The buyer's payment was settled through the internal calls (not the simulator's STK),
    // so it is added to M-Pesa's books as M-Pesa would report it.
    const audit = await services.audit({ payments: [{ receipt: bought.receipt, amount: bought.amount, phone: bought.phone, checkoutRequestId: bought.checkoutRequestId }] });
    expect(audit.books.payouts).toMatchObject([{ transactionId: paid.receipt, amount: 1500, kind: 'b2c' }]);
    expect(audit.checked).toMatchObject({ payments: 1, payouts: 1 });
    expect(audit.discrepancies).toEqual([]);
  });
});
