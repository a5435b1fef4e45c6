import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payouts, refunds } from '../src/db/schema.js';
import { createEvent } from './helpers/events.js';
import { buyThroughCheckout, confirmPayoutPhone, startPayoutServices, waitFor, type PayoutServices } from './helpers/payout-services.js';
import type { TestServer } from './helpers/test-server.js';

/**
 * Organisers get paid, the whole loop over HTTP with the real payment service and simulator: a platform fee, sales
 * through the browser's checkout (on-top and absorbed fees), a refund, an early payout of the nets, a refund after the
 * payout (a negative balance) and the next event's sales recovering it. The payments audit finds nothing after each
 * step where money moves.
 */

let services: PayoutServices;
let t: TestServer;

beforeAll(async () => {
  services = await startPayoutServices({
    // Trusted organisers get all of an event's net before it ends: the loop need not wait for events to end.
    serverEnv: { EARLY_PAYOUT_SHARE: '100', STK_RATE_LIMIT_PER_IP: '1000', STK_RATE_LIMIT_PER_USER: '1000', STK_RATE_LIMIT_PER_PHONE: '1000', REFUND_POLL_MS: '100' },
    // Refunds go to M-Pesa (the simulator) as they would in production.
  });
  t = services.t;
}, 120_000);

afterAll(async () => {
  await services?.close();
});

async function expectAuditClean() {
  const audit = await services.audit();
  expect(audit.discrepancies).toEqual([]);
  return audit;
}

/** Waits until every refund of the event is paid by M-Pesa (the API server's refunds job, through the payment service). */
const refundsPaid = (eventId: string, count: number) =>
  waitFor(async () => {
    const rows = await t.db.select().from(refunds).where(eq(refunds.eventId, eventId));
    return rows.length === count && rows.every((row) => row.status === 'succeeded') ? rows : undefined;
  }, `${count} refund(s) of ${eventId} to be paid`);

/** Runs the payouts job and waits for the organiser's `nth` payout to be paid (its result delivered by the outbox). */
async function payOut(organiserId: string, nth: number) {
  await t.services.payouts.job.runOnce();
  return waitFor(async () => {
    const rows = await t.db.select().from(payouts).where(eq(payouts.organiserId, organiserId)).orderBy(asc(payouts.createdAt));
    return rows.length === nth && rows[nth - 1]!.status === 'paid' ? rows[nth - 1]! : undefined;
  }, `payout ${nth} to be paid`);
}

describe('organisers get paid: fees, refunds, payouts and a negative balance recovered', () => {
  it('pays the nets of on-top and absorbed events, nets a late refund from the next sales, and the audit stays clean', async () => {
    const admin = await t.loginAdmin();
    expect((await t.api('PUT', '/api/admin/fees', { token: admin.token, body: { percent: 5, fixed: 0, minimum: 10 } })).status).toBe(200);
    const organiser = await t.createUser('looporganiser', 'organiser-secret-1');
    const eventOf = async (title: string, ticketPrice: number, feeMode: 'on_top' | 'absorbed') =>
      (await createEvent(t, organiser.token, { title, isPaid: true, ticketPrice, capacity: 50, feeMode, refundPolicy: { kind: 'full', untilHours: 24 } }, { approveWith: admin.token }))._id as string;
    const summary = async () => (await t.api('GET', '/api/payouts', { token: organiser.token })).body;
    const amani = await t.createUser('loopamani');
    const baraka = await t.createUser('loopbaraka');

    // A: Ksh 400 with the fee on top (5 % = 20 ≥ the minimum 10): buyers pay 420 a ticket, the organiser nets 400.
    const eventA = await eventOf('Loop A: on top', 400, 'on_top');
    // B: Ksh 100 with the fee absorbed (5 % = 5, the minimum 10 applies): the organiser nets 90 a ticket.
    const eventB = await eventOf('Loop B: absorbed', 100, 'absorbed');
    // Payout accounts are for organisers (users with events).
    await confirmPayoutPhone(t, organiser, 'organiser-secret-1', '254722000321');
    expect((await t.api('PUT', `/api/admin/users/${organiser.user._id}/early-payouts`, { token: admin.token, body: { allowed: true } })).status).toBe(200);
    const ticketsA = await buyThroughCheckout(t, amani, eventA, 2, '254711000201');
    const ticketsB = await buyThroughCheckout(t, baraka, eventB, 3, '254711000202');
    expect(ticketsA).toHaveLength(2);
    expect(ticketsB).toHaveLength(3);
    expect((await expectAuditClean()).checked).toMatchObject({ payments: 2 });

    // One ticket of B refunded in full (100, its fee share 10 back to the buyer): B nets 2 × 90 = 180.
    expect((await t.api('POST', '/api/tickets/cancel', { token: baraka.token, body: { ticketIds: [ticketsB[0]] } })).status).toBe(200);
    const [refundB] = await refundsPaid(eventB, 1);
    expect(refundB).toMatchObject({ amount: 100, feeAmount: 10 });
    await expectAuditClean();

    const netA = 2 * 400;
    const netB = 3 * 90 - 90;
    expect(await summary()).toMatchObject({ available: netA + netB, nextPayout: { amount: netA + netB }, negativeBalance: 0 });
    const first = await payOut(organiser.user._id, 1);
    expect(first).toMatchObject({ amount: netA + netB, attempts: 1 });
    expect(await summary()).toMatchObject({ paid: netA + netB, available: 0, negativeBalance: 0, nextPayout: null });
    expect((await expectAuditClean()).checked).toMatchObject({ payouts: 1 });

    // A late refund on A after its payout: 420 back to the buyer (price + fee), 400 of it charged to the organiser.
    expect((await t.api('POST', '/api/tickets/cancel', { token: amani.token, body: { ticketIds: [ticketsA[0]] } })).status).toBe(200);
    const [refundA] = await refundsPaid(eventA, 1);
    expect(refundA).toMatchObject({ amount: 420, feeAmount: 20 });
    const negative = await summary();
    expect(negative).toMatchObject({ negativeBalance: 400, nextPayout: null });
    expect(negative.events.find((event: { eventId: string }) => event.eventId === eventA)).toMatchObject({ status: 'negative', negative: 400 });
    await expectAuditClean();

    // C: Ksh 1000 absorbed (fee 50): its net 950 pays back the 400 first.
    const eventC = await eventOf('Loop C: recovers', 1000, 'absorbed');
    await buyThroughCheckout(t, baraka, eventC, 1, '254711000203');
    await expectAuditClean();
    expect(await summary()).toMatchObject({ nextPayout: { amount: 950 - 400 } });
    const second = await payOut(organiser.user._id, 2);
    expect(second).toMatchObject({ amount: 950 - 400, attempts: 1 });
    expect(await summary()).toMatchObject({ paid: netA + netB + 550, negativeBalance: 0, available: 0, nextPayout: null });

    const audit = await expectAuditClean();
    expect(audit.checked).toMatchObject({ payments: 3, refunds: 2, payouts: 2 });
    expect(audit.books.payouts.map((payout) => payout.amount).sort((x, y) => x - y)).toEqual([550, 980]);
  }, 240_000);
});
