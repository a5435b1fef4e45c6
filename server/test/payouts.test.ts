import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import type { PayoutDestination, SendPayoutBody } from '@tukio/shared/internal-payouts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { events, payments, payoutAttempts, payouts, refunds, webhookDeliveries, webhookEndpoints } from '../src/db/schema.js';
import { newId } from '../src/db/ids.js';
import { createLogger } from '../src/lib/logger.js';
import type { MpesaTariff } from '../src/modules/fees/index.js';
import { createPayoutGateway, createPayouts, type PayoutDestinations } from '../src/modules/payouts/index.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders, payFor, receiptNo } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Organiser payouts (docs/decisions/payouts.md) over HTTP on a real database: tickets sold through the checkout's
 * internal calls, the event ended, the payouts job run, and the payment service's results delivered to
 * POST /api/internal/payouts/results as it would. The payment service's side is stood in for by a small HTTP
 * server recording the /internal/payouts calls (the API server's side is what is tested here).
 */

type Answer = { status: number; body: unknown } | 'accept';

/**
 * The payment service as the API server sees it: records each call and answers it from the queue of its amount
 * (each test pays its own amounts, so a run that also sends other tests' payouts takes only its own answers);
 * without one, accepted.
 */
async function startFakePaymentService(key: string) {
  const sends: SendPayoutBody[] = [];
  const statusAsks: Array<{ originatorConversationId: string }> = [];
  const answers = new Map<number, Answer[]>();
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const reply = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.headers['x-internal-key'] !== key) return reply(401, { message: 'no key' });
      const body = JSON.parse(raw) as SendPayoutBody;
      if (req.url === '/internal/payouts/status') {
        statusAsks.push(body);
        return reply(202, {});
      }
      if (req.url !== '/internal/payouts') return reply(404, {});
      sends.push(body);
      const answer = answers.get(body.amount)?.shift() ?? 'accept';
      if (answer === 'accept') return reply(200, { outcome: 'accepted', conversationId: `AG_${body.originatorConversationId}` });
      return reply(answer.status, answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sends,
    statusAsks,
    /** The next answers to a payout of `amount`. */
    answer: (amount: number, ...next: Answer[]) => answers.set(amount, [...(answers.get(amount) ?? []), ...next]),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Destinations as the payout-accounts module would answer them (a test double of that module). */
function testDestinations() {
  const byOrganiser = new Map<string, { destination: PayoutDestination; heldUntil: Date | null }>();
  const port: PayoutDestinations = { payoutDestination: async (organiserId) => byOrganiser.get(organiserId) ?? null };
  return {
    port,
    set: (organiserId: string, heldUntil: Date | null = null, destination: PayoutDestination = { method: 'mpesa', phone: '254722000111' }) =>
      byOrganiser.set(organiserId, { destination, heldUntil }),
  };
}

/** MPESA_TARIFF of these tests: receiving is free (the sales' ledger stays as without charges), payouts cost by band. */
const PAYOUT_TARIFF = {
  receive: [[250_000, 0]],
  b2c: [
    [1000, 7],
    [250_000, 13],
  ],
  b2b: [[250_000, 21]],
} as const satisfies MpesaTariff;

const KEY = 'test-internal-key';
let fake: Awaited<ReturnType<typeof startFakePaymentService>>;
const destinations = testDestinations();
let t: TestServer;
let admin: { token: string; user: { _id: string } };
let buyer: { token: string; user: { _id: string } };
let names = 0;

beforeAll(async () => {
  fake = await startFakePaymentService(KEY);
  t = await startTestServer(
    // The job runs when a test says (no timer); failed attempts are retried at once, twice at most; a result is awaited 1 s.
    { PAYMENT_URL: fake.url, PAYOUT_JOB_MS: '0', PAYOUT_RETRY_BASE_MS: '1', PAYOUT_MAX_ATTEMPTS: '2', PAYOUT_RESULT_WAIT_SECONDS: '1', MPESA_TARIFF: JSON.stringify(PAYOUT_TARIFF) },
    { payoutDestinations: destinations.port },
  );
  admin = await t.loginAdmin();
  buyer = await t.createUser('payoutbuyer');
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const DAY = 24 * 60 * 60 * 1000;
const runJob = () => t.services.payouts.job.runOnce();
const organiserNamed = async () => t.createUser(`payorg${++names}${Math.random().toString(36).slice(2, 6)}`);
/** An organiser with a confirmed destination (out of its hold). */
async function payableOrganiser() {
  const organiser = await organiserNamed();
  destinations.set(organiser.user._id);
  return organiser;
}
/** An event of `ownerId` with `tickets` sold at `price` (through the checkout), then moved `endedDaysAgo` days into the past. */
async function eventWithSales(ownerId: string, price: number, tickets: number, endedDaysAgo: number | null = 10) {
  const eventId = await insertEventRow(t.db, { ownerId, days: 20, price, title: `Payout night ${Math.random().toString(36).slice(2, 8)}` });
  if (tickets > 0) await payFor(t, buyer.token, eventId, { quantity: tickets, phone: '254711222333' });
  if (endedDaysAgo !== null) await startedDaysAgo(eventId, endedDaysAgo);
  return eventId;
}
async function startedDaysAgo(eventId: string, days: number) {
  await t.db.update(events).set({ startsAt: new Date(Date.now() - days * DAY) }).where(eq(events.id, eventId));
}
const payoutsOf = (organiserId: string) => t.db.select().from(payouts).where(eq(payouts.organiserId, organiserId)).orderBy(payouts.createdAt);
const sendsFor = (payoutId: string) => fake.sends.filter((send) => send.originatorConversationId.startsWith(`tukio-payout-${payoutId}-`));
const balances = async (eventId: string) => (await t.api('GET', `/api/admin/ledger/balances?eventId=${eventId}`, { token: admin.token })).body.balances;
const allBalances = async () => (await t.api('GET', '/api/admin/ledger/balances', { token: admin.token })).body.balances;
const summary = async (token: string) => (await t.api('GET', '/api/payouts', { token })).body;
const result = (body: Record<string, unknown>) => t.api('POST', '/api/internal/payouts/results', { headers: internalHeaders(t), body });
const paidResult = (originatorConversationId: string, amount: number, extra: Record<string, unknown> = {}) =>
  result({ originatorConversationId, resultCode: '0', resultDesc: 'The service request is processed successfully.', transactionId: receiptNo('U'), amount, source: 'callback', ...extra });
const failedResult = (originatorConversationId: string) => result({ originatorConversationId, resultCode: '2001', resultDesc: 'The initiator information is invalid.', source: 'callback' });

describe('the payouts job', () => {
  it("pays an ended event's net once, PAYOUT_DELAY_DAYS after it ends: payout and ledger in one go, the result posts payout_paid", async () => {
    const organiser = await payableOrganiser();
    // The organiser's webhook asks for payout.paid (written directly: registering checks the address is public).
    await t.db.insert(webhookEndpoints).values({ id: newId(), userId: organiser.user._id, url: 'https://hooks.example.org/tukio', events: ['payout.paid'], secret: 'whsec_dGVzdA==' });
    const eventId = await eventWithSales(organiser.user._id, 500, 2, null);
    await runJob();
    // Not ended yet: pending.
    expect(await payoutsOf(organiser.user._id)).toHaveLength(0);
    expect(await summary(organiser.token)).toMatchObject({ pending: 1000, available: 0, paid: 0, waitingFor: 'nothing_payable', events: [{ eventId, status: 'pending', owed: 1000 }] });
    // Ended 2 days ago: still within the 3 days.
    await startedDaysAgo(eventId, 2);
    await runJob();
    expect(await payoutsOf(organiser.user._id)).toHaveLength(0);
    await startedDaysAgo(eventId, 5);
    expect(await summary(organiser.token)).toMatchObject({ available: 1000, nextPayout: { amount: 1000 } });
    await runJob();
    const [payout] = await payoutsOf(organiser.user._id);
    expect(payout).toMatchObject({ amount: 1000, status: 'sending', attempts: 1 });
    expect(sendsFor(payout!.id)).toEqual([{ originatorConversationId: `tukio-payout-${payout!.id}-1`, amount: 1000, destination: { method: 'mpesa', phone: '254722000111' }, remarks: 'Tukio payout' }]);
    expect(await balances(eventId)).toMatchObject({ mpesa_clearing: 1000, organiser_payable: 0, payouts_in_flight: -1000 });
    expect(await summary(organiser.token)).toMatchObject({ available: 0, inFlight: 1000, waitingFor: 'payout_open' });
    // Another run sends nothing more.
    await runJob();
    expect(sendsFor(payout!.id)).toHaveLength(1);

    const paid = await paidResult(`tukio-payout-${payout!.id}-1`, 1000, { charge: 15 });
    expect(paid.status).toBe(200);
    expect(paid.body).toEqual({ recorded: true });
    expect((await paidResult(`tukio-payout-${payout!.id}-1`, 1000)).body).toEqual({ recorded: false });
    const [done] = await payoutsOf(organiser.user._id);
    expect(done).toMatchObject({ status: 'paid', charge: 15 });
    // One payout.paid delivery, written with the payment, the repeated result adding none.
    const told = await t.db.select().from(webhookDeliveries).where(and(eq(webhookDeliveries.userId, organiser.user._id), eq(webhookDeliveries.eventType, 'payout.paid')));
    expect(told).toHaveLength(1);
    expect(told[0]!.payload).toMatchObject({ type: 'payout.paid', data: { payoutId: payout!.id, amount: 1000, charge: 15, receipt: done!.receipt, method: 'mpesa' } });
    expect(await balances(eventId)).toMatchObject({ mpesa_clearing: 0, organiser_payable: 0, payouts_in_flight: 0 });
    expect(await summary(organiser.token)).toMatchObject({ paid: 1000, available: 0, inFlight: 0, events: [{ eventId, status: 'settled' }] });
    const statement = await t.api('GET', `/api/payouts/events/${eventId}/statement`, { token: organiser.token });
    expect(statement.body).toMatchObject({ grossSales: 1000, fees: 0, refunds: 0, net: 1000, paidOut: 1000, balance: 0, payouts: [{ payoutId: payout!.id, forEvent: 1000, amount: 1000, status: 'paid', receipt: done!.receipt }] });
  });

  it("records MPESA_TARIFF's charge when the result names none: B2C to a phone, B2B to a Paybill, borne by the fee account", async () => {
    const toPhone = await payableOrganiser();
    await eventWithSales(toPhone.user._id, 1200, 1);
    const toPaybill = await organiserNamed();
    destinations.set(toPaybill.user._id, null, { method: 'paybill', shortcode: '400200', accountReference: 'TUKIO1' });
    await eventWithSales(toPaybill.user._id, 800, 1);
    await runJob();
    const [phonePayout] = await payoutsOf(toPhone.user._id);
    const [paybillPayout] = await payoutsOf(toPaybill.user._id);
    const chargesBefore = (await allBalances()).mpesa_charges as number;
    expect((await paidResult(`tukio-payout-${phonePayout!.id}-1`, 1200)).body).toEqual({ recorded: true });
    expect((await paidResult(`tukio-payout-${paybillPayout!.id}-1`, 800)).body).toEqual({ recorded: true });
    expect((await payoutsOf(toPhone.user._id))[0]).toMatchObject({ status: 'paid', charge: 13 });
    expect((await payoutsOf(toPaybill.user._id))[0]).toMatchObject({ status: 'paid', charge: 21 });
    expect((await allBalances()).mpesa_charges).toBe(chargesBefore - 34);
  });

  it('sends nothing below PAYOUT_MIN_AMOUNT, without a destination, or while the destination is held', async () => {
    const small = await payableOrganiser();
    await eventWithSales(small.user._id, 50, 1);
    const none = await organiserNamed();
    await eventWithSales(none.user._id, 500, 1);
    const heldDestination = await organiserNamed();
    destinations.set(heldDestination.user._id, new Date(Date.now() + DAY));
    await eventWithSales(heldDestination.user._id, 500, 1);
    await runJob();
    for (const organiser of [small, none, heldDestination]) expect(await payoutsOf(organiser.user._id)).toHaveLength(0);
    expect((await summary(small.token)).waitingFor).toBe('below_minimum');
    expect((await summary(none.token)).waitingFor).toBe('no_destination');
    expect((await summary(heldDestination.token)).waitingFor).toBe('destination_held');
    destinations.set(heldDestination.user._id, new Date(Date.now() - 1000));
    await runJob();
    expect(await payoutsOf(heldDestination.user._id)).toMatchObject([{ amount: 500 }]);
  });

  it('retries a failed payout with a new attempt, then leaves it failed for an administrator and puts its money back', async () => {
    const organiser = await payableOrganiser();
    const eventId = await eventWithSales(organiser.user._id, 400, 1);
    await runJob();
    const [payout] = await payoutsOf(organiser.user._id);
    expect((await failedResult(`tukio-payout-${payout!.id}-1`)).body).toEqual({ recorded: true });
    expect((await failedResult(`tukio-payout-${payout!.id}-1`)).body).toEqual({ recorded: false });
    expect((await payoutsOf(organiser.user._id))[0]).toMatchObject({ status: 'retrying', attempts: 1 });
    // The back-off (1 ms here) passes; the next run sends attempt 2 (Daraja rejects it synchronously).
    fake.answer(400, { status: 200, body: { outcome: 'rejected', resultCode: '2001', resultDesc: 'The initiator information is invalid.' } });
    for (let run = 0; run < 20 && sendsFor(payout!.id).length < 2; run++) await runJob();
    expect(sendsFor(payout!.id).map((send) => send.originatorConversationId)).toEqual([`tukio-payout-${payout!.id}-1`, `tukio-payout-${payout!.id}-2`]);
    expect((await payoutsOf(organiser.user._id))[0]).toMatchObject({ status: 'failed', attempts: 2 });
    // Failed: the money is the organiser's payable again, and nothing new is made until an administrator retries.
    expect(await balances(eventId)).toMatchObject({ organiser_payable: -400, payouts_in_flight: 0 });
    await runJob();
    expect(await payoutsOf(organiser.user._id)).toHaveLength(1);
    expect(await summary(organiser.token)).toMatchObject({ available: 400, waitingFor: 'payout_failed' });
    const failedList = await t.api('GET', '/api/admin/payouts?status=failed', { token: admin.token });
    expect(failedList.body.find((row: { payoutId: string }) => row.payoutId === payout!.id)).toMatchObject({ amount: 400, status: 'failed', attempts: 2, lastResultCode: '2001', earlyPayouts: false });
    expect((await t.api('GET', '/api/admin/payouts?status=failed', { token: organiser.token })).status).toBe(403);

    const retried = await t.api('POST', `/api/admin/payouts/${payout!.id}/retry`, { token: admin.token });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ payoutId: payout!.id, waitingFor: null });
    expect((await t.api('POST', `/api/admin/payouts/${payout!.id}/retry`, { token: admin.token })).status).toBe(409);
    const again = (await payoutsOf(organiser.user._id))[1]!;
    expect(again).toMatchObject({ id: retried.body.newPayoutId, amount: 400, status: 'sending' });
    expect((await t.api('POST', `/api/admin/payouts/${again.id}/retry`, { token: admin.token })).body).toMatchObject({ code: 'payout_retry_only_failed' });
  });

  it('never resends an attempt whose outcome is unknown: it asks for its status, and resends one that was never sent', async () => {
    const organiser = await payableOrganiser();
    await eventWithSales(organiser.user._id, 300, 1);
    // 503: never sent, so the same attempt goes again on the next run; then a 502: outcome unknown.
    fake.answer(300, { status: 503, body: { message: 'not sent' } }, { status: 502, body: { message: 'lost' } });
    await runJob();
    const [payout] = await payoutsOf(organiser.user._id);
    const first = `tukio-payout-${payout!.id}-1`;
    await runJob();
    expect(sendsFor(payout!.id).map((send) => send.originatorConversationId)).toEqual([first, first]);
    // Each run of the job asks for the status once the attempt has waited PAYOUT_RESULT_WAIT_SECONDS.
    await vi.waitFor(
      async () => {
        await runJob();
        if (!fake.statusAsks.some((ask) => ask.originatorConversationId === first)) throw new Error('no status asked yet');
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(fake.statusAsks.find((ask) => ask.originatorConversationId === first)).toMatchObject({ destination: { method: 'mpesa' } });
    expect(sendsFor(payout!.id)).toHaveLength(2);
    // The status query's answer arrives as a result.
    expect((await paidResult(first, 300, { source: 'status-query' })).body).toEqual({ recorded: true });
    expect((await payoutsOf(organiser.user._id))[0]).toMatchObject({ status: 'paid' });
  });

  it("a refund after a payout leaves a negative balance, shown, and recovered from the organiser's next sales", async () => {
    const organiser = await payableOrganiser();
    const first = await eventWithSales(organiser.user._id, 600, 1);
    await runJob();
    const [payout] = await payoutsOf(organiser.user._id);
    await paidResult(`tukio-payout-${payout!.id}-1`, 600);
    // The event is cancelled after it was paid out (an administrator may, once it started): its buyer is refunded.
    expect((await t.api('POST', `/api/events/${first}/cancel`, { token: admin.token, body: { reason: 'It never took place.' } })).status).toBe(200);
    expect(await balances(first)).toMatchObject({ organiser_payable: 600 });
    expect(await summary(organiser.token)).toMatchObject({ negativeBalance: 600, events: [{ eventId: first, status: 'negative', owed: -600 }] });
    await runJob();
    expect(await payoutsOf(organiser.user._id)).toHaveLength(1);

    const second = await eventWithSales(organiser.user._id, 550, 2);
    await runJob();
    const next = (await payoutsOf(organiser.user._id))[1]!;
    expect(next).toMatchObject({ amount: 500 });
    expect(await balances(first)).toMatchObject({ organiser_payable: 0 });
    expect(await balances(second)).toMatchObject({ organiser_payable: 0 });
    expect((await t.api('GET', `/api/payouts/events/${first}/statement`, { token: organiser.token })).body).toMatchObject({
      grossSales: 600,
      refunds: 600,
      net: 0,
      paidOut: 0,
      balance: 0,
      payouts: [{ forEvent: 600 }, { forEvent: -600, payoutId: next.id }],
    });
    expect((await summary(organiser.token)).negativeBalance).toBe(0);
  });

  it("an administrator's hold stops an event's payouts until released", async () => {
    const organiser = await payableOrganiser();
    const eventId = await eventWithSales(organiser.user._id, 700, 1);
    const hold = await t.api('POST', `/api/admin/events/${eventId}/payout-hold`, { token: admin.token, body: { reason: 'Complaints about the event.' } });
    expect(hold.status).toBe(201);
    expect((await t.api('POST', `/api/admin/events/${eventId}/payout-hold`, { token: admin.token, body: { reason: 'Again.' } })).status).toBe(409);
    const noReason = await t.api('POST', `/api/admin/events/${eventId}/payout-hold`, { token: admin.token, body: {} });
    expect(noReason.status).toBe(400);
    expect((await t.api('POST', `/api/admin/events/${eventId}/payout-hold`, { token: organiser.token, body: { reason: 'Mine.' } })).status).toBe(403);
    await runJob();
    expect(await payoutsOf(organiser.user._id)).toHaveLength(0);
    expect(await summary(organiser.token)).toMatchObject({ onHold: 700, available: 0, events: [{ status: 'on_hold' }] });
    const holds = await t.api('GET', '/api/admin/payout-holds', { token: admin.token });
    expect(holds.body).toEqual(expect.arrayContaining([expect.objectContaining({ eventId, organiser: organiser.user.username, reason: 'Complaints about the event.' })]));
    expect((await t.api('GET', '/api/admin/payout-holds', { token: organiser.token })).status).toBe(403);
    expect((await t.api('DELETE', `/api/admin/events/${eventId}/payout-hold`, { token: admin.token })).body).toMatchObject({ held: false });
    expect((await t.api('DELETE', `/api/admin/events/${eventId}/payout-hold`, { token: admin.token })).status).toBe(409);
    expect(((await t.api('GET', '/api/admin/payout-holds', { token: admin.token })).body as Array<{ eventId: string }>).map((row) => row.eventId)).not.toContain(eventId);
    await runJob();
    expect(await payoutsOf(organiser.user._id)).toMatchObject([{ amount: 700 }]);
  });

  it('a trusted organiser is paid EARLY_PAYOUT_SHARE of the net before the event ends', async () => {
    const organiser = await payableOrganiser();
    const eventId = await eventWithSales(organiser.user._id, 500, 2, null);
    expect((await t.api('PUT', `/api/admin/users/${organiser.user._id}/early-payouts`, { token: admin.token, body: { allowed: 'yes' } })).status).toBe(400);
    expect((await t.api('PUT', `/api/admin/users/aaaaaaaaaaaaaaaaaaaaaaaa/early-payouts`, { token: admin.token, body: { allowed: true } })).status).toBe(404);
    expect((await t.api('PUT', `/api/admin/users/${organiser.user._id}/early-payouts`, { token: admin.token, body: { allowed: true } })).body).toEqual({ userId: organiser.user._id, earlyPayouts: true });
    await runJob();
    const [early] = await payoutsOf(organiser.user._id);
    expect(early).toMatchObject({ amount: 500 });
    // The administrators' list says where the trust stands (the toggle is there).
    const listed = (await t.api('GET', '/api/admin/payouts', { token: admin.token })).body.find((row: { payoutId: string }) => row.payoutId === early!.id);
    expect(listed).toMatchObject({ username: organiser.user.username, earlyPayouts: true });
    await paidResult(`tukio-payout-${early!.id}-1`, 500);
    expect(await summary(organiser.token)).toMatchObject({ pending: 500, paid: 500, events: [{ eventId, status: 'pending', owed: 500, paidOut: 500 }] });
    await runJob();
    expect(await payoutsOf(organiser.user._id)).toHaveLength(1);
    await startedDaysAgo(eventId, 5);
    await runJob();
    expect((await payoutsOf(organiser.user._id))[1]).toMatchObject({ amount: 500 });
  });

  it('two job runners at once make and send one payout (on PostgreSQL, a second API instance on the same database too)', async () => {
    const organiser = await payableOrganiser();
    await eventWithSales(organiser.user._id, 800, 1);
    // More runners over the same database, as other API instances would be.
    const runner = () =>
      createPayouts({
        db: t.db,
        logger: createLogger('error'),
        gateway: createPayoutGateway({ paymentUrl: fake.url, internalApiKey: KEY, timeoutMs: 5000 }),
        destinations: destinations.port,
        rules: { delayDays: 3, earlySharePercent: 50, minAmount: 100 },
        resultWaitSeconds: 600,
        maxAttempts: 2,
        retryBaseMs: 1,
        jobMs: 0,
        mpesaTariff: PAYOUT_TARIFF,
      }).job;
    const second = t.databaseUrl ? await startTestServer({ PAYMENT_URL: fake.url, PAYOUT_JOB_MS: '0' }, { databaseUrl: t.databaseUrl, payoutDestinations: destinations.port }) : undefined;
    try {
      await Promise.all([runner().runOnce(), runner().runOnce(), runJob(), second?.services.payouts.job.runOnce()]);
    } finally {
      await second?.close();
    }
    const made = await payoutsOf(organiser.user._id);
    expect(made).toHaveLength(1);
    expect(sendsFor(made[0]!.id)).toHaveLength(1);
    expect(await t.db.select().from(payoutAttempts).where(eq(payoutAttempts.payoutId, made[0]!.id))).toHaveLength(1);
  });
});

describe('who sees what', () => {
  it("nobody sees another organiser's statement; CSV for the organiser and an admin", async () => {
    const organiser = await payableOrganiser();
    const other = await organiserNamed();
    const eventId = await eventWithSales(organiser.user._id, 250, 1, null);
    expect((await t.api('GET', `/api/payouts/events/${eventId}/statement`, { token: other.token })).status).toBe(403);
    expect((await t.api('GET', `/api/payouts/events/${eventId}/statement`)).status).toBe(401);
    expect((await t.api('GET', `/api/payouts/events/${eventId}/statement?format=xml`, { token: organiser.token })).status).toBe(400);
    expect((await t.api('GET', `/api/payouts/events/not-an-id/statement`, { token: organiser.token })).status).toBe(400);
    expect((await t.api('GET', `/api/payouts/events/${eventId}/statement`, { token: admin.token })).body).toMatchObject({ grossSales: 250, balance: 250 });
    const csv = await t.api('GET', `/api/payouts/events/${eventId}/statement?format=csv`, { token: organiser.token });
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect(csv.body).toContain('"Gross sales","250"');
    // The summary is the caller's own: the other organiser has nothing.
    expect(await summary(other.token)).toMatchObject({ pending: 0, available: 0, events: [] });
  });

  it('the results endpoint wants the internal key, a known attempt and a valid body', async () => {
    const attempt = 'tukio-payout-aaaaaaaaaaaaaaaaaaaaaaaa-1';
    expect((await t.api('POST', '/api/internal/payouts/results', { body: { originatorConversationId: attempt, resultCode: '0', source: 'callback' } })).status).toBe(401);
    expect((await result({ originatorConversationId: attempt, resultCode: '0', source: 'callback' })).status).toBe(404);
    expect((await result({ originatorConversationId: 'tukio-other-1', resultCode: '0', source: 'callback' })).status).toBe(400);
    expect((await result({ originatorConversationId: attempt, resultCode: '0', source: 'guess' })).status).toBe(400);
  });

  it('a success for another amount is not recorded and changes nothing', async () => {
    const organiser = await payableOrganiser();
    await eventWithSales(organiser.user._id, 450, 1);
    await runJob();
    const [payout] = await payoutsOf(organiser.user._id);
    const wrong = await paidResult(`tukio-payout-${payout!.id}-1`, 999);
    expect(wrong.status).toBe(409);
    expect(wrong.body).toMatchObject({ code: 'payout_result_doubtful', doubtful: true });
    expect((await payoutsOf(organiser.user._id))[0]).toMatchObject({ status: 'sending' });
    // Refused for good (the payment service parks it): administrators see the payout needs a person, and why.
    const listed = await t.api('GET', '/api/admin/payouts?status=needs_attention', { token: admin.token });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([expect.objectContaining({ payoutId: payout!.id, status: 'sending', needsAttention: expect.stringMatching(/amount 999 is not the payout's 450/) })]);
  });

  /** M-Pesa's books as this database says they are: its payments, refunds and the payout attempts paid. */
  async function providerBooks() {
    const paid = await t.db.select().from(payments).where(eq(payments.status, 'success'));
    const refunded = await t.db.select().from(refunds).where(eq(refunds.status, 'succeeded'));
    const paidAttempts = await t.db
      .select({ attempt: payoutAttempts, amount: payouts.amount, destination: payouts.destination })
      .from(payoutAttempts)
      .innerJoin(payouts, eq(payouts.id, payoutAttempts.payoutId))
      .where(eq(payoutAttempts.status, 'paid'));
    return {
      payments: paid.map((row) => ({ receipt: row.mpesaReceiptNumber!, amount: row.amount, phone: row.phone, checkoutRequestId: row.checkoutRequestId })),
      refunds: refunded.map((row) => ({ transactionId: row.receipt!, originatorConversationId: `tukio-${row.id}-1`, amount: row.amount, kind: row.method })),
      // B2C as M-Pesa names it, by our OriginatorConversationID; B2B by the ConversationID of Daraja's acceptance (its OriginatorConversationID is its own).
      payouts: paidAttempts.map(({ attempt, amount, destination }) =>
        destination.method === 'mpesa'
          ? { transactionId: attempt.transactionId!, originatorConversationId: attempt.originatorConversationId, amount, kind: 'b2c' }
          : { transactionId: attempt.transactionId!, originatorConversationId: `daraja-${attempt.id}`, conversationId: attempt.conversationId!, amount, kind: 'b2b' },
      ),
    };
  }
  const moneyFindings = (body: { discrepancies: Array<{ kind: string; detail: string }> }) => body.discrepancies.filter((found) => /^(ledger|payout)-/.test(found.kind));

  it('the audit accounts for payouts: money in = refunds + payouts + fees + charges + balances owed, and M-Pesa paid each paid payout', async () => {
    const books = await providerBooks();
    expect(books.payouts.map((payout) => payout.kind)).toEqual(expect.arrayContaining(['b2c', 'b2b']));
    const audit = await t.api('POST', '/api/internal/audit', { headers: internalHeaders(t), body: books });
    expect(audit.status).toBe(200);
    expect(audit.body.checked.payouts).toBe(books.payouts.length);
    expect(moneyFindings(audit.body)).toEqual([]);
  });

  it('the audit names a payout M-Pesa made that no payout records, and a paid payout M-Pesa never made', async () => {
    const books = await providerBooks();
    const [recorded, ...others] = books.payouts;
    const stranger = { transactionId: receiptNo('X'), originatorConversationId: 'tukio-payout-bbbbbbbbbbbbbbbbbbbbbbbb-1', amount: 703, kind: 'b2c' };
    const b2bStranger = { transactionId: receiptNo('X'), originatorConversationId: 'AG_20261129_unknown', conversationId: 'AG_20261129_nobody', amount: 300, kind: 'b2b' };
    const audit = await t.api('POST', '/api/internal/audit', { headers: internalHeaders(t), body: { ...books, payouts: [...others, stranger, b2bStranger] } });
    expect(audit.status).toBe(200);
    const kinds = moneyFindings(audit.body).map((found) => found.kind);
    expect(kinds.filter((kind) => kind === 'payout-unknown')).toHaveLength(2);
    expect(kinds).toContain('payout-missing-at-provider');
    // The clearing check takes M-Pesa's payouts: 1003 more than the ledger paid out, less the missing one.
    expect(kinds).toContain('ledger-clearing');
    expect(moneyFindings(audit.body).find((found) => found.kind === 'payout-missing-at-provider')!.detail).toContain(recorded!.transactionId);
  });
});
