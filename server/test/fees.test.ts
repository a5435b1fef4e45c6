import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payments, platformFeeSettings, refunds } from '../src/db/schema.js';
import { mpesaCharge, parseMpesaTariff } from '../src/modules/fees/index.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders, payFor, receiptNo, type Paid } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * The platform fee and M-Pesa's charges (docs/decisions/fees.md) over HTTP on a real database: the admin's
 * settings and a per-event override, the organiser's fee mode, what a purchase costs and posts in either mode,
 * refunds and contradictions reversing the fee, and the audit at 0 with the fee and the charges in the books.
 */

/** A small tariff so the charges are easy to read: Ksh 10 to receive up to 1,000, 20 above. */
const TARIFF = { receive: [[100, 0], [1000, 10], [250_000, 20]], b2c: [[250_000, 5]], b2b: [[250_000, 7]] };

let t: TestServer;
type Session = { token: string; user: { _id: string } };
let admin: Session;
let organiser: Session;
let buyer: Session & { user: { email: string } };

beforeAll(async () => {
  t = await startTestServer({ MPESA_TARIFF: JSON.stringify(TARIFF) });
  admin = await t.loginAdmin();
  [organiser, buyer] = await Promise.all([t.createUser('feeorganiser'), t.createUser('feebuyer')]);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const internal = <T = any>(method: string, path: string, body?: unknown) => t.api<T>(method, `/api/internal${path}`, { headers: internalHeaders(t), body });
const newEvent = (price: number) => insertEventRow(t.db, { ownerId: organiser.user._id, days: 20, price, title: `Fee night ${Math.random().toString(36).slice(2, 8)}` });
const setPlatformFee = (body: unknown, as: Session | null = admin) => t.api('PUT', '/api/admin/fees', { token: as?.token, body });
const setOverride = (eventId: string, override: unknown) => t.api('PUT', `/api/admin/events/${eventId}/fee`, { token: admin.token, body: { override } });
const setFeeMode = (eventId: string, feeMode: unknown) => t.api('PUT', `/api/events/${eventId}`, { token: organiser.token, body: { feeMode } });
const quote = (eventId: string, quantity = 1) => t.api('POST', `/api/events/${eventId}/quote`, { body: { quantity } });
const balances = async (eventId: string) => (await t.api('GET', `/api/admin/ledger/balances?eventId=${eventId}`, { token: admin.token })).body.balances;
const paymentOf = async (paid: Paid) => (await t.db.select().from(payments).where(eq(payments.checkoutRequestId, paid.checkoutRequestId)))[0]!;

/** What M-Pesa would report: every successful payment and succeeded refund as the database has them. */
async function audit() {
  const paid = await t.db.select().from(payments).where(eq(payments.status, 'success'));
  const refunded = await t.db.select().from(refunds).where(eq(refunds.status, 'succeeded'));
  const books = {
    payments: paid.map((row) => ({ receipt: row.mpesaReceiptNumber ?? receiptNo('Q'), amount: row.amount, phone: row.phone, checkoutRequestId: row.checkoutRequestId })),
    refunds: refunded.map((row) => ({ transactionId: row.receipt!, originatorConversationId: `tukio-${row.id}-1`, amount: row.amount, kind: row.method })),
  };
  const answer = await internal<{ discrepancies: Array<{ kind: string; detail: string }> }>('POST', '/audit', books);
  expect(answer.status).toBe(200);
  return answer.body.discrepancies.filter((found) => found.kind.startsWith('ledger-'));
}

describe('settings', () => {
  it('a fresh install has the configured fee (0 by default); an admin sets a new one and the old one is kept', async () => {
    const first = await t.api('GET', '/api/admin/fees', { token: admin.token });
    expect(first.status).toBe(200);
    expect(first.body.fee).toEqual({ percent: 0, fixed: 0, minimum: 0 });
    expect(first.body.history).toHaveLength(1);
    expect(first.body.history[0].setBy).toBeNull();

    const set = await setPlatformFee({ percent: 5, fixed: 0, minimum: 10 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.fee).toEqual({ percent: 5, fixed: 0, minimum: 10 });
    expect(set.body.history.map((row: { percent: number }) => row.percent)).toEqual([5, 0]);
    expect(set.body.history[0].setBy).toBe(admin.user._id);
  });

  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const before = await t.db.select().from(platformFeeSettings);
    for (const body of [
      { percent: -1, fixed: 0, minimum: 0 },
      { percent: 101, fixed: 0, minimum: 0 },
      { percent: 2.555, fixed: 0, minimum: 0 },
      { percent: '5', fixed: 0, minimum: 0 },
      { percent: 5, fixed: -3, minimum: 0 },
      { percent: 5, fixed: 1.5, minimum: 0 },
      { percent: 5, fixed: 0, minimum: 'ten' },
      { percent: 5, fixed: 0 },
    ]) {
      const refused = await setPlatformFee(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body).toMatchObject({ code: 'validation_failed' });
      expect(['percent', 'fixed', 'minimum']).toContain(refused.body.field);
    }
    const eventId = await newEvent(300);
    expect((await setOverride(eventId, { percent: 100.5, fixed: 0, minimum: 0 })).status).toBe(400);
    expect((await setFeeMode(eventId, 'sometimes')).status).toBe(400);
    expect(await t.db.select().from(platformFeeSettings)).toEqual(before);
    expect((await t.api('GET', `/api/admin/events/${eventId}/fee`, { token: admin.token })).body).toMatchObject({ feeMode: 'absorbed', override: null });
  });

  it('only an administrator reads or sets the fee', async () => {
    expect((await t.api('GET', '/api/admin/fees', { token: organiser.token })).status).toBe(403);
    expect((await setPlatformFee({ percent: 1, fixed: 0, minimum: 0 }, organiser)).status).toBe(403);
    expect((await setPlatformFee({ percent: 1, fixed: 0, minimum: 0 }, null)).status).toBe(401);
    const eventId = await newEvent(300);
    expect((await t.api('PUT', `/api/admin/events/${eventId}/fee`, { token: organiser.token, body: { override: null } })).status).toBe(403);
    expect((await t.api('GET', '/api/admin/fees', { token: admin.token })).body.fee).toEqual({ percent: 5, fixed: 0, minimum: 10 });
  });
});

describe('buying with a fee (5 %, at least Ksh 10 a ticket)', () => {
  it('absorbed (the default): the buyer pays the ticket price; the fee comes out of the organiser\'s share', async () => {
    const eventId = await newEvent(500);
    expect((await quote(eventId, 2)).body).toMatchObject({ subtotal: 1000, amount: 1000, fee: 50, feeMode: 'absorbed' });
    const paid = await payFor(t, buyer.token, eventId, { quantity: 2, phone: '254711200001' });
    expect(paid.amount).toBe(1000);
    expect((await t.db.select().from(orders).where(eq(orders.id, paid.orderId)))[0]).toMatchObject({ amount: 1000, feeAmount: 50, feeMode: 'absorbed' });
    // The fee to the fee account, the rest to the organiser; M-Pesa's Ksh 10 for receiving 1,000 borne out of the fee.
    expect(await balances(eventId)).toMatchObject({ mpesa_clearing: 1000, organiser_payable: -950, platform_fees: -40, mpesa_charges: -10 });
    expect((await t.api('GET', `/api/events/${eventId}/ledger`, { token: organiser.token })).body).toMatchObject({ grossSales: 950, balance: 950 });
    expect(await audit()).toEqual([]);
  });

  it('on top: the buyer pays the ticket and the fee, and the organiser gets the whole ticket price', async () => {
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 20, price: 400, title: 'Fee on top night' });
    const mode = await setFeeMode(eventId, 'on_top');
    expect(mode.status, JSON.stringify(mode.body)).toBe(200);
    expect(mode.body.feeMode).toBe('on_top');
    // 5 % of 800 is 40, above the minimum of 2 × 10.
    expect((await quote(eventId, 2)).body).toMatchObject({ subtotal: 800, fee: 40, amount: 840, feeMode: 'on_top' });
    const paid = await payFor(t, buyer.token, eventId, { quantity: 2, phone: '254711200002' });
    expect(paid.amount).toBe(840);
    expect(await balances(eventId)).toMatchObject({ mpesa_clearing: 840, organiser_payable: -800, platform_fees: -30, mpesa_charges: -10 });
    // The buyer sees the breakdown in the ticket email and in their payment history.
    const mail = await t.smtp.waitFor(buyer.user.email, /^Your Tukio tickets?: Fee on top night$/);
    expect(mail.text).toContain('Tickets Ksh.800 + Tukio service fee Ksh.40.');
    const history = await t.api('GET', `/api/transactions/${buyer.user._id}`, { token: buyer.token });
    expect(history.body.find((row: { checkoutRequestId: string }) => row.checkoutRequestId === paid.checkoutRequestId)).toMatchObject({ amount: 840, fee: 40, feeMode: 'on_top' });
    // The minimum per ticket: 5 % of 100 is 5, so 10.
    const cheap = await newEvent(100);
    await setFeeMode(cheap, 'on_top');
    expect((await quote(cheap, 3)).body).toMatchObject({ subtotal: 300, fee: 30, amount: 330 });
    expect(await audit()).toEqual([]);
  });

  it('a per-event override replaces the platform fee until it is cleared', async () => {
    const eventId = await newEvent(1000);
    const set = await setOverride(eventId, { percent: 2.5, fixed: 3, minimum: 0 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({ eventId, feeMode: 'absorbed', override: { percent: 2.5, fixed: 3, minimum: 0 }, fee: { percent: 2.5, fixed: 3, minimum: 0 } });
    expect((await quote(eventId, 1)).body).toMatchObject({ amount: 1000, fee: 28 });
    const paid = await payFor(t, buyer.token, eventId, { phone: '254711200003' });
    expect((await t.db.select().from(orders).where(eq(orders.id, paid.orderId)))[0]?.feeAmount).toBe(28);
    const cleared = await setOverride(eventId, null);
    expect(cleared.body).toMatchObject({ override: null, fee: { percent: 5, fixed: 0, minimum: 10 } });
    expect((await quote(eventId, 1)).body).toMatchObject({ fee: 50 });
    // The order keeps the fee it was priced with.
    expect(await balances(eventId)).toMatchObject({ organiser_payable: -972, platform_fees: -18, mpesa_charges: -10 });
    expect((await setOverride('0123456789abcdef01234567', null)).status).toBe(404);
    expect(await audit()).toEqual([]);
  });

  it('a free event carries no fee: registration posts nothing and a quote is refused as free', async () => {
    const eventId = await newEvent(0);
    expect((await quote(eventId, 1)).body).toMatchObject({ code: 'event_free' });
    expect((await t.api('POST', `/api/events/register/${eventId}`, { token: buyer.token })).status).toBeLessThan(300);
    expect(await balances(eventId)).toMatchObject({ platform_fees: 0, organiser_payable: 0, mpesa_clearing: 0 });
  });
});

describe('refunds and contradictions', () => {
  it("a cancelled event refunds what the buyer paid, the fee included: the fee account gives its share back", async () => {
    const eventId = await newEvent(300);
    await setFeeMode(eventId, 'on_top');
    const paid = await payFor(t, buyer.token, eventId, { quantity: 2, phone: '254711200004' });
    expect(paid.amount).toBe(630);
    expect((await t.api('POST', `/api/events/${eventId}/cancel`, { token: organiser.token, body: { reason: 'The venue flooded.' } })).status).toBe(200);
    const [refund] = await t.db.select().from(refunds).where(eq(refunds.eventId, eventId));
    expect(refund).toMatchObject({ amount: 630, feeAmount: 30 });
    // Owed back in full; the receiving charge stays Tukio's cost.
    expect(await balances(eventId)).toMatchObject({ mpesa_clearing: 630, organiser_payable: 0, platform_fees: 10, mpesa_charges: -10, refunds_payable: -630 });
    expect(await audit()).toEqual([]);
  });

  it('a holder cancelling one of two tickets gets back its price and its share of a fee paid on top', async () => {
    const eventId = await newEvent(400);
    await setFeeMode(eventId, 'on_top');
    const policy = await t.api('PUT', `/api/events/${eventId}`, { token: organiser.token, body: { refundPolicy: { kind: 'full', untilHours: 0 } } });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    const paid = await payFor(t, buyer.token, eventId, { quantity: 2, phone: '254711200006' });
    expect(paid.amount).toBe(840);
    const mine = (await t.api('GET', '/api/tickets/mine', { token: buyer.token })).body.filter((ticket: { event: { _id: string } }) => ticket.event._id === eventId);
    expect(mine).toHaveLength(2);
    const cancelled = await t.api('POST', '/api/tickets/cancel', { token: buyer.token, body: { ticketIds: [mine[0]._id] } });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(await t.db.select().from(refunds).where(eq(refunds.eventId, eventId))).toMatchObject([{ amount: 420, feeAmount: 20 }]);
    // The organiser gives back the ticket's price, the fee account its fee; the other ticket's money stays.
    expect(await balances(eventId)).toMatchObject({ organiser_payable: -400, platform_fees: -10, mpesa_charges: -10, refunds_payable: -420 });
    expect(await audit()).toEqual([]);
  });

  it('a success M-Pesa contradicts reverses every leg of its posting, the fee and the charge too', async () => {
    const eventId = await newEvent(700);
    const paid = await payFor(t, buyer.token, eventId, { phone: '254711200005' });
    expect(await balances(eventId)).toMatchObject({ mpesa_clearing: 700, platform_fees: -25, mpesa_charges: -10, organiser_payable: -665 });
    const contradicted = await internal('POST', '/payments/settle', { checkoutRequestId: paid.checkoutRequestId, resultCode: 1037, resultDesc: 'DS timeout user cannot be reached', source: 'query' });
    expect(contradicted.body).toMatchObject({ status: 'failed', changed: true });
    expect((await paymentOf(paid)).status).toBe('failed');
    expect(await balances(eventId)).toMatchObject({ mpesa_clearing: 0, platform_fees: 0, mpesa_charges: 0, organiser_payable: 0 });
    expect(await audit()).toEqual([]);
  });
});

describe('M-Pesa charges', () => {
  it('reads the band an amount falls in, per kind; a bad MPESA_TARIFF is refused at start', () => {
    const tariff = parseMpesaTariff(JSON.stringify(TARIFF));
    expect([mpesaCharge('receive', 100, tariff), mpesaCharge('receive', 101, tariff), mpesaCharge('receive', 1000, tariff), mpesaCharge('receive', 1001, tariff)]).toEqual([0, 10, 10, 20]);
    expect([mpesaCharge('b2c', 5000, tariff), mpesaCharge('b2b', 5000, tariff)]).toEqual([5, 7]);
    expect(mpesaCharge('receive', 0, parseMpesaTariff('none'))).toBe(0);
    expect(mpesaCharge('receive', 2000)).toBeGreaterThan(0);
    expect(() => parseMpesaTariff('{"receive": [[100, 0]]}')).toThrow(/MPESA_TARIFF/);
    expect(() => parseMpesaTariff(JSON.stringify({ ...TARIFF, receive: [[1000, 10], [500, 5], [250_000, 20]] }))).toThrow(/go up/);
    expect(() => parseMpesaTariff(JSON.stringify({ ...TARIFF, b2c: [[1000, -1], [250_000, 5]] }))).toThrow(/MPESA_TARIFF/);
    expect(() => parseMpesaTariff('bands please')).toThrow(/MPESA_TARIFF/);
  });
});
