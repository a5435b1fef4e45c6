import { readFileSync } from 'node:fs';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/db/ids.js';
import { ledgerEntries, ledgerTransactions, orders, payments, refunds } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders, payFor, receiptNo, settle, type Paid } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * The double-entry ledger (docs/decisions/ledger.md) over HTTP on a real database: what settlement, refunds and
 * contradictions post, what the database refuses (an edit, a delete, an unbalanced transaction), the admin's
 * adjustments and balances, the organiser's statement, the audit's ledger checks and the migration's backfill.
 */

let t: TestServer;
let admin: { token: string; user: { _id: string } };
let organiser: { token: string; user: { _id: string } };
let buyer: { token: string; user: { _id: string } };
let stranger: { token: string; user: { _id: string } };

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.loginAdmin();
  [organiser, buyer, stranger] = await Promise.all([t.createUser('ledgerorganiser'), t.createUser('ledgerbuyer'), t.createUser('ledgerstranger')]);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const internal = <T = any>(method: string, path: string, body?: unknown) => t.api<T>(method, `/api/internal${path}`, { headers: internalHeaders(t), body });
const newEvent = (price = 500) => insertEventRow(t.db, { ownerId: organiser.user._id, days: 20, price, title: `Ledger night ${Math.random().toString(36).slice(2, 8)}` });
const paymentOf = async (paid: Paid) => (await t.db.select().from(payments).where(eq(payments.checkoutRequestId, paid.checkoutRequestId)))[0]!;

/** The transactions recording a payment or refund, each with its entries as `account:amount`. */
async function postings(reference: { paymentId?: string; refundId?: string }) {
  const rows = await t.db
    .select()
    .from(ledgerTransactions)
    .where(reference.paymentId ? eq(ledgerTransactions.paymentId, reference.paymentId) : eq(ledgerTransactions.refundId, reference.refundId!))
    .orderBy(ledgerTransactions.createdAt, ledgerTransactions.id);
  const entries = rows.length ? await t.db.select().from(ledgerEntries).where(inArray(ledgerEntries.transactionId, rows.map((row) => row.id))) : [];
  return rows.map((row) => ({
    kind: row.kind,
    entries: entries
      .filter((entry) => entry.transactionId === row.id)
      .map((entry) => `${entry.account}:${entry.amount}`)
      .sort(),
    organisers: [...new Set(entries.filter((entry) => entry.transactionId === row.id && entry.organiserId).map((entry) => entry.organiserId))],
  }));
}

/** Why the database refused (Drizzle wraps the driver's error on PostgreSQL: its message is then the cause's). */
async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    return [error, (error as { cause?: unknown }).cause].map((one) => (one instanceof Error ? one.message : '')).join(' ');
  }
  return 'accepted';
}

const statement = (eventId: string, token: string) => t.api('GET', `/api/events/${eventId}/ledger`, { token });

/** What M-Pesa would report: every successful payment and succeeded refund as the database has them. */
async function providerBooks() {
  const paid = await t.db.select().from(payments).where(eq(payments.status, 'success'));
  const refunded = await t.db.select().from(refunds).where(eq(refunds.status, 'succeeded'));
  return {
    payments: paid.map((row) => ({ receipt: row.mpesaReceiptNumber ?? receiptNo('Q'), amount: row.amount, phone: row.phone, checkoutRequestId: row.checkoutRequestId })),
    refunds: refunded.map((row) => ({ transactionId: row.receipt!, originatorConversationId: `tukio-${row.id}-1`, amount: row.amount, kind: row.method })),
  };
}
const ledgerFindings = (body: { discrepancies: Array<{ kind: string; detail: string }> }) => body.discrepancies.filter((found) => found.kind.startsWith('ledger-'));

describe('postings', () => {
  it('a paid ticket posts one balanced payment: clearing debited, the event\'s organiser payable credited', async () => {
    const eventId = await newEvent(500);
    const paid = await payFor(t, buyer.token, eventId, { quantity: 2, phone: '254711000001' });
    const payment = await paymentOf(paid);
    expect(await postings({ paymentId: payment.id })).toEqual([
      { kind: 'payment', entries: ['mpesa_clearing:1000', 'organiser_payable:-1000'], organisers: [organiser.user._id] },
    ]);
    // A duplicate callback changes nothing, in the ledger too.
    expect((await settle(t, paid)).body).toMatchObject({ changed: false });
    expect(await postings({ paymentId: payment.id })).toHaveLength(1);
    const own = await statement(eventId, organiser.token);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ eventId, currency: 'KES', grossSales: 1000, reversed: 0, refunds: 0, adjustments: 0, balance: 1000 });
  });

  it('a refund posts what is owed when it is created and its payment when M-Pesa pays it', async () => {
    const eventId = await newEvent(300);
    const paid = await payFor(t, buyer.token, eventId, { phone: '254711000002' });
    expect((await t.api('POST', `/api/events/${eventId}/cancel`, { token: organiser.token, body: { reason: 'The band cancelled.' } })).status).toBe(200);
    const [refund] = await t.db.select().from(refunds).where(eq(refunds.eventId, eventId));
    expect(await postings({ refundId: refund!.id })).toEqual([{ kind: 'refund', entries: ['organiser_payable:300', 'refunds_payable:-300'], organisers: [organiser.user._id] }]);
    expect((await statement(eventId, organiser.token)).body).toMatchObject({ grossSales: 300, refunds: 300, balance: 0 });
    expect((await t.api('GET', `/api/admin/ledger/balances?eventId=${eventId}`, { token: admin.token })).body.balances).toMatchObject({
      mpesa_clearing: 300,
      organiser_payable: 0,
      refunds_payable: -300,
    });

    // Claimed by the refunds job until ours comes out, then M-Pesa's success.
    let attempt: { originatorConversationId: string } | undefined;
    for (let round = 0; round < 10 && !attempt; round++) attempt = (await t.services.refunds.claim(50)).find((one) => one.refundId === refund!.id);
    const transactionId = receiptNo('R');
    const result = await internal('POST', '/refunds/result', { originatorConversationId: attempt!.originatorConversationId, resultCode: '0', resultDesc: 'ok', transactionId, amount: 300, source: 'callback' });
    expect(result.body).toMatchObject({ status: 'succeeded', changed: true });
    // A repeated result posts nothing more.
    await internal('POST', '/refunds/result', { originatorConversationId: attempt!.originatorConversationId, resultCode: '0', resultDesc: 'ok', transactionId, amount: 300, source: 'status-query' });
    expect(await postings({ refundId: refund!.id })).toEqual([
      { kind: 'refund', entries: ['organiser_payable:300', 'refunds_payable:-300'], organisers: [organiser.user._id] },
      { kind: 'refund_paid', entries: ['mpesa_clearing:-300', 'refunds_payable:300'], organisers: [] },
    ]);
    expect((await t.api('GET', `/api/admin/ledger/balances?eventId=${eventId}`, { token: admin.token })).body.balances).toMatchObject({
      mpesa_clearing: 0,
      organiser_payable: 0,
      refunds_payable: 0,
    });
    expect((await paymentOf(paid)).status).toBe('success');
  });

  it('a success M-Pesa contradicts is reversed: the payment posting and its exact opposite', async () => {
    const eventId = await newEvent(700);
    const paid = await payFor(t, buyer.token, eventId, { phone: '254711000003' });
    const contradicted = await internal('POST', '/payments/settle', { checkoutRequestId: paid.checkoutRequestId, resultCode: 1037, resultDesc: 'DS timeout user cannot be reached', source: 'query' });
    expect(contradicted.status).toBe(200);
    expect(contradicted.body).toMatchObject({ status: 'failed', changed: true });
    const payment = await paymentOf(paid);
    expect(await postings({ paymentId: payment.id })).toEqual([
      { kind: 'payment', entries: ['mpesa_clearing:700', 'organiser_payable:-700'], organisers: [organiser.user._id] },
      { kind: 'contradiction', entries: ['mpesa_clearing:-700', 'organiser_payable:700'], organisers: [organiser.user._id] },
    ]);
    expect((await statement(eventId, organiser.token)).body).toMatchObject({ grossSales: 700, reversed: 700, balance: 0 });
  });
});

describe('what the database refuses', () => {
  it('refuses to update or delete a ledger transaction or entry', async () => {
    const eventId = await newEvent(200);
    const payment = await paymentOf(await payFor(t, buyer.token, eventId, { phone: '254711000004' }));
    const [posted] = await t.db.select().from(ledgerTransactions).where(eq(ledgerTransactions.paymentId, payment.id));
    expect(await refusal(t.db.update(ledgerEntries).set({ amount: 1 }).where(eq(ledgerEntries.transactionId, posted!.id)))).toMatch(/ledger rows are never/);
    expect(await refusal(t.db.delete(ledgerEntries).where(eq(ledgerEntries.transactionId, posted!.id)))).toMatch(/ledger rows are never/);
    expect(await refusal(t.db.update(ledgerTransactions).set({ memo: 'edited' }).where(eq(ledgerTransactions.id, posted!.id)))).toMatch(/ledger rows are never/);
    expect(await refusal(t.db.delete(ledgerTransactions).where(eq(ledgerTransactions.id, posted!.id)))).toMatch(/ledger rows are never/);
    expect(await refusal(t.db.execute(sql`truncate ledger_entries, ledger_transactions`))).toMatch(/ledger rows are never/);
    expect(await postings({ paymentId: payment.id })).toEqual([{ kind: 'payment', entries: ['mpesa_clearing:200', 'organiser_payable:-200'], organisers: [organiser.user._id] }]);
  });

  it('refuses, at commit, a transaction whose entries do not sum to zero or that has one entry', async () => {
    const eventId = await newEvent(200);
    const unbalanced = newId();
    expect(
      await refusal(
        t.db.transaction(async (tx) => {
          await tx.insert(ledgerTransactions).values({ id: unbalanced, kind: 'adjustment', memo: 'test', createdBy: admin.user._id });
          await tx.insert(ledgerEntries).values([
            { id: newId(), transactionId: unbalanced, account: 'mpesa_clearing', eventId, amount: 100 },
            { id: newId(), transactionId: unbalanced, account: 'organiser_payable', eventId, amount: -90 },
          ]);
        }),
      ),
    ).toMatch(/does not balance: 2 entries summing to 10/);
    const single = newId();
    expect(
      await refusal(
        t.db.transaction(async (tx) => {
          await tx.insert(ledgerTransactions).values({ id: single, kind: 'adjustment', memo: 'test', createdBy: admin.user._id });
        }),
      ),
    ).toMatch(/does not balance: 0 entries/);
    expect(await t.db.select().from(ledgerTransactions).where(inArray(ledgerTransactions.id, [unbalanced, single]))).toEqual([]);
  });
});

describe('adjustments and balances', () => {
  it('only an admin adjusts, naming two accounts, an amount above 0 and a reason; balances move', async () => {
    const eventId = await newEvent(400);
    await payFor(t, buyer.token, eventId, { phone: '254711000005' });
    const body = { debitAccount: 'mpesa_clearing', creditAccount: 'organiser_payable', eventId, amount: 150, reason: 'Cash sale at the gate, paid into the shortcode.' };
    expect((await t.api('POST', '/api/admin/ledger/adjustments', { body })).status).toBe(401);
    expect((await t.api('POST', '/api/admin/ledger/adjustments', { token: organiser.token, body })).status).toBe(403);
    for (const bad of [
      { ...body, reason: undefined },
      { ...body, reason: '  ' },
      { ...body, amount: 0 },
      { ...body, amount: -5 },
      { ...body, amount: 1.5 },
      { ...body, creditAccount: 'pocket' },
      { ...body, creditAccount: 'mpesa_clearing' },
      { ...body, eventId: undefined },
    ]) {
      const res = await t.api('POST', '/api/admin/ledger/adjustments', { token: admin.token, body: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await t.api('POST', '/api/admin/ledger/adjustments', { token: admin.token, body: { ...body, eventId: '0123456789abcdef01234567' } })).status).toBe(404);
    const before = (await t.api('GET', '/api/admin/ledger/balances', { token: admin.token })).body.balances;
    // Nothing was posted by the refusals.
    expect((await t.api('GET', `/api/admin/ledger/balances?eventId=${eventId}`, { token: admin.token })).body.balances).toMatchObject({ mpesa_clearing: 400, organiser_payable: -400 });

    const done = await t.api('POST', '/api/admin/ledger/adjustments', { token: admin.token, body });
    expect(done.status).toBe(201);
    expect(done.body.balances).toMatchObject({ mpesa_clearing: 550, organiser_payable: -550 });
    const [row] = await t.db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, done.body.transactionId));
    expect(row).toMatchObject({ kind: 'adjustment', memo: body.reason, createdBy: admin.user._id });
    const after = (await t.api('GET', '/api/admin/ledger/balances', { token: admin.token })).body.balances;
    expect(after.mpesa_clearing - before.mpesa_clearing).toBe(150);
    expect(after.organiser_payable - before.organiser_payable).toBe(-150);
    expect((await statement(eventId, organiser.token)).body).toMatchObject({ grossSales: 400, adjustments: 150, balance: 550 });
    // Corrected the one way the ledger allows: the opposite adjustment (the entries stay).
    const undone = await t.api('POST', '/api/admin/ledger/adjustments', {
      token: admin.token,
      body: { ...body, debitAccount: 'organiser_payable', creditAccount: 'mpesa_clearing', reason: 'Entered by mistake: the gate sale was never banked.' },
    });
    expect(undone.body.balances).toMatchObject({ mpesa_clearing: 400, organiser_payable: -400 });
    // Balances are for admins only.
    expect((await t.api('GET', '/api/admin/ledger/balances', { token: organiser.token })).status).toBe(403);
  });

  it('keeps an event a ledger adjustment names: deleting it answers 409 and changes nothing', async () => {
    const eventId = await newEvent(300);
    const adjusted = await t.api('POST', '/api/admin/ledger/adjustments', {
      token: admin.token,
      body: { debitAccount: 'organiser_payable', creditAccount: 'platform_fees', eventId, amount: 50, reason: 'Stand fee agreed with the organiser.' },
    });
    expect(adjusted.status).toBe(201);
    const refused = await t.api('DELETE', `/api/events/${eventId}`, { token: organiser.token });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'event_has_money_records', msg: expect.stringMatching(/cannot be deleted/) });
    expect((await t.api('GET', `/api/events/${eventId}`)).status).toBe(200);
    expect((await statement(eventId, organiser.token)).body).toMatchObject({ adjustments: -50, balance: -50 });
  });

  it("shows an event's ledger to its organiser and admins only", async () => {
    const eventId = await newEvent(250);
    await payFor(t, buyer.token, eventId, { phone: '254711000006' });
    expect((await statement(eventId, stranger.token)).status).toBe(403);
    expect((await statement(eventId, buyer.token)).status).toBe(403);
    expect((await t.api('GET', `/api/events/${eventId}/ledger`)).status).toBe(401);
    expect((await statement(eventId, admin.token)).body).toMatchObject({ grossSales: 250, balance: 250 });
    expect((await statement('0123456789abcdef01234567', admin.token)).status).toBe(404);
  });
});

describe('the audit and the backfill', () => {
  /** The migration's backfill statements, run again as they ran when the ledger was made. */
  const backfill = readFileSync(new URL('../drizzle/0029_ledger.sql', import.meta.url), 'utf8')
    .split('--> statement-breakpoint')
    .filter((statement) => statement.includes("'backfill (0029)'"));

  it('posts payments and refunds recorded before the ledger, once, and the audit agrees with the books after', async () => {
    expect(backfill.length).toBeGreaterThanOrEqual(6);
    // A payment settled before the ledger existed (its row written without a posting), and a refund of half of it already paid.
    const eventId = await newEvent(800);
    const pending = await payFor(t, buyer.token, eventId, { phone: '254711000007', settle: false });
    await t.db.update(payments).set({ status: 'success', resultCode: 0, mpesaReceiptNumber: pending.receipt, providerConfirmedAt: new Date() }).where(eq(payments.checkoutRequestId, pending.checkoutRequestId));
    await t.db.update(orders).set({ status: 'refund_due' }).where(eq(orders.id, pending.orderId));
    const payment = await paymentOf(pending);
    const refundId = newId();
    await t.db.insert(refunds).values({
      id: refundId,
      orderId: payment.orderId,
      paymentId: payment.id,
      userId: payment.userId,
      eventId,
      amount: 400,
      phone: payment.phone,
      reason: 'admin',
      method: 'b2c',
      status: 'succeeded',
      receipt: receiptNo('B'),
    });
    expect(await postings({ paymentId: payment.id })).toEqual([]);

    // The audit sees what the ledger misses.
    const missing = await internal('POST', '/audit', await providerBooks());
    expect(missing.status).toBe(200);
    const kinds = ledgerFindings(missing.body).map((found) => found.kind);
    expect(kinds).toEqual(expect.arrayContaining(['ledger-clearing', 'ledger-money-in', 'ledger-payment', 'ledger-refund']));
    expect(kinds).not.toContain('ledger-unbalanced');

    const runBackfill = () =>
      t.db.transaction(async (tx) => {
        for (const statement of backfill) await tx.execute(sql.raw(statement));
      });
    await runBackfill();
    const expected = [{ kind: 'payment', entries: ['mpesa_clearing:800', 'organiser_payable:-800'], organisers: [organiser.user._id] }];
    expect(await postings({ paymentId: payment.id })).toEqual(expected);
    // Backfilled in one instant: in order of kind.
    expect((await postings({ refundId })).sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: 'refund', entries: ['organiser_payable:400', 'refunds_payable:-400'], organisers: [organiser.user._id] },
      { kind: 'refund_paid', entries: ['mpesa_clearing:-400', 'refunds_payable:400'], organisers: [] },
    ]);
    // Again: nothing more (what the code posted earlier is skipped by the unique keys too).
    const count = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(ledgerEntries))[0]!.n;
    const entriesBefore = await count();
    await runBackfill();
    expect(await count()).toBe(entriesBefore);
    expect(await postings({ paymentId: payment.id })).toEqual(expected);

    const audited = await internal('POST', '/audit', await providerBooks());
    expect(ledgerFindings(audited.body)).toEqual([]);
    expect((await statement(eventId, organiser.token)).body).toMatchObject({ grossSales: 800, refunds: 400, balance: 400 });

    // M-Pesa's books without one payment: the clearing account no longer matches them.
    const books = await providerBooks();
    const short = await internal('POST', '/audit', { ...books, payments: books.payments.slice(1) });
    expect(ledgerFindings(short.body).map((found) => found.kind)).toEqual(['ledger-clearing']);
  });
});
