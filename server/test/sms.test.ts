import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { events, orders, smsMessages } from '../src/db/schema.js';
import { createAfricasTalkingGateway } from '../src/modules/sms/index.js';
import { insertEventRow } from './helpers/events.js';
import { payFor } from './helpers/refunds.js';
import { createMigratedPostgresDatabase } from './helpers/test-database.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * The SMS channel over Africa's Talking's protocol, against the built-in simulator: the outbox sends,
 * retries what may pass, gives up on what will not, records delivery reports; a reminder goes once per
 * ticket holder 24 hours ahead even with two instances sweeping; waitlist offers go by SMS too.
 */

type Session = { token: string; user: { _id: string; email: string; username: string } };
type Received = { to: string; message: string; status: string; messageId: string };

const HOUR = 60 * 60 * 1000;

function simulatorKey(t: TestServer): string {
  const gateway = t.config.sms.gateway;
  if (gateway.kind !== 'simulator') throw new Error('these tests run on the SMS simulator');
  return gateway.key;
}
/** What one phone received, on one instance's simulator. */
async function inbox(t: TestServer, phone: string): Promise<Received[]> {
  const res = await t.api('GET', `/simulator/sms/messages?phone=${encodeURIComponent(phone)}`, { headers: { 'x-simulator-key': simulatorKey(t) } });
  expect(res.status).toBe(200);
  return res.body;
}
const rowByPhone = (t: TestServer, phone: string) => t.db.select().from(smsMessages).where(eq(smsMessages.phone, phone));

/** Orders paid a while ago (their ticket email is not news any more): reminders consider them. */
const agePaidOrders = (t: TestServer, eventId: string) => t.db.update(orders).set({ updatedAt: new Date(Date.now() - 2 * HOUR) }).where(eq(orders.eventId, eventId));

describe('the outbox and the simulator', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ SMS_POLL_MS: '100', SMS_REMINDER_SWEEP_MS: '0' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('sends, and records the delivery report', async () => {
    expect(await t.services.sms.enqueue([{ purpose: 'test', phone: '0712 000 101', message: 'Habari! Your ticket is ready.' }])).toBe(1);
    await vi.waitFor(async () => expect((await rowByPhone(t, '254712000101'))[0]?.status).toBe('delivered'), { timeout: 15_000, interval: 100 });
    const [row] = await rowByPhone(t, '254712000101');
    expect(row).toMatchObject({ attempts: 1, providerStatus: 'Success', cost: 'KES 0.8000' });
    expect(row!.providerMessageId).toMatch(/^ATXid_/);
    expect(await inbox(t, '+254712000101')).toEqual([expect.objectContaining({ to: '+254712000101', message: 'Habari! Your ticket is ready.', messageId: row!.providerMessageId })]);
    // 01x Safaricom numbers are Kenyan mobiles too; a landline is skipped without failing the caller.
    expect(await t.services.sms.enqueue([{ purpose: 'test', phone: '0110 000 102', message: 'Karibu' }, { purpose: 'test', phone: '020 2222222', message: 'x' }])).toBe(1);
    await vi.waitFor(async () => expect(await inbox(t, '+254110000102')).toHaveLength(1), { timeout: 15_000, interval: 100 });
  });

  it('gives up on a refused number, retries a gateway error later, and marks an undelivered one', async () => {
    await t.services.sms.enqueue([
      { purpose: 'test', phone: '254700000403', message: 'refused' },
      { purpose: 'test', phone: '254700000500', message: 'gateway trouble' },
      { purpose: 'test', phone: '254700000408', message: 'phone off' },
    ]);
    await vi.waitFor(async () => expect((await rowByPhone(t, '254700000403'))[0]?.status).toBe('failed'), { timeout: 15_000, interval: 100 });
    expect((await rowByPhone(t, '254700000403'))[0]).toMatchObject({ attempts: 1, providerStatus: '403 InvalidPhoneNumber', providerMessageId: null });
    await vi.waitFor(async () => expect((await rowByPhone(t, '254700000500'))[0]).toMatchObject({ status: 'queued', attempts: 1, providerStatus: '500 InternalServerError' }), { timeout: 15_000, interval: 100 });
    // Tried again after a back-off (30 s for the first), not at once.
    expect((await rowByPhone(t, '254700000500'))[0]!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
    await vi.waitFor(async () => expect((await rowByPhone(t, '254700000408'))[0]).toMatchObject({ status: 'undelivered', providerStatus: 'AbsentSubscriber: UserIsInactive' }), { timeout: 15_000, interval: 100 });
  });

  it('keeps a key once, and refuses delivery reports without the secret', async () => {
    const message = { purpose: 'test', dedupeKey: `once-${Date.now()}`, phone: '254712000103', message: 'only once' };
    expect(await t.services.sms.enqueue([message])).toBe(1);
    expect(await t.services.sms.enqueue([message, message])).toBe(0);
    await vi.waitFor(async () => expect((await rowByPhone(t, '254712000103'))[0]?.status).toBe('delivered'), { timeout: 15_000, interval: 100 });
    const [row] = await rowByPhone(t, '254712000103');

    const form = (fields: Record<string, string>) => ({ raw: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const wrong = await t.api('POST', '/api/sms/delivery-reports/not-the-secret-at-all', form({ id: row!.providerMessageId!, status: 'Failed' }));
    expect(wrong.status).toBe(404);
    const missing = await t.api('POST', `/api/sms/delivery-reports/${t.config.sms.callbackSecret}`, form({ status: 'Failed' }));
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('id');
    const unknown = await t.api('POST', `/api/sms/delivery-reports/${t.config.sms.callbackSecret}`, form({ id: 'ATXid_unknown', status: 'Failed' }));
    expect(unknown).toMatchObject({ status: 200, body: { received: true } });
    // A late report for a message already delivered changes nothing.
    await t.api('POST', `/api/sms/delivery-reports/${t.config.sms.callbackSecret}`, form({ id: row!.providerMessageId!, status: 'Failed', failureReason: 'DeliveryFailure' }));
    expect((await rowByPhone(t, '254712000103'))[0]).toMatchObject({ status: 'delivered', providerStatus: 'Success' });
  });

  it("speaks Africa's Talking's protocol: a wrong API key is a whole-request refusal, not worth retrying", async () => {
    const gateway = createAfricasTalkingGateway({ baseUrl: `${t.url}/simulator/sms`, username: 'sandbox', apiKey: 'not-the-key' });
    expect(await gateway.send({ to: '+254712000104', message: 'x' })).toEqual({ kind: 'refused', retry: false, providerStatus: expect.stringContaining('The supplied authentication is invalid') });
    const page = await t.api('GET', '/simulator/sms');
    expect(page.status).toBe(401);
    const withKey = await t.api('GET', `/simulator/sms?key=${simulatorKey(t)}`);
    expect(withKey.status).toBe(200);
    expect(withKey.body).toContain('+254712000101');
    expect(withKey.body).toContain('Habari! Your ticket is ready.');
  });
});

describe('event reminders', () => {
  let database: Awaited<ReturnType<typeof createMigratedPostgresDatabase>>;
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    // Two instances on one PostgreSQL database, each with its own sender: sweeps and sends race for real.
    database = await createMigratedPostgresDatabase();
    const env = { SMS_POLL_MS: '100', SMS_REMINDER_SWEEP_MS: '0' };
    first = await startTestServer(env, { databaseUrl: database.url });
    second = await startTestServer(env, { databaseUrl: database.url });
  }, 90_000);
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.drop();
  });

  it('reminds each M-Pesa ticket holder once, about 24 hours ahead, however many instances sweep', async () => {
    const organiser: Session = await first.createUser('smsorganiser');
    const [amina, baraka, chebet, dawa] = [await first.createUser('smsamina'), await first.createUser('smsbaraka'), await first.createUser('smschebet'), await first.createUser('smsdawa')];
    const soon = await insertEventRow(first.db, { ownerId: organiser.user._id, days: 20 / 24, price: 500, capacity: 50, title: 'Sauti Sol Unplugged at the Carnivore' });
    await first.db.update(events).set({ refundPolicy: 'full', refundUntilHours: 1 }).where(eq(events.id, soon));
    const later = await insertEventRow(first.db, { ownerId: organiser.user._id, days: 3, price: 500, capacity: 50, title: 'Later Show' });
    await payFor(first, amina.token, soon, { phone: '254712000201' });
    await payFor(first, baraka.token, soon, { phone: '254712000202', quantity: 2 });
    await payFor(first, baraka.token, soon, { phone: '254712000203' });
    await payFor(first, chebet.token, later, { phone: '254712000204' });
    // Dawa paid, then cancelled her ticket: nothing to remind her of.
    await payFor(first, dawa.token, soon, { phone: '254712000205' });
    const dawaTickets = ((await first.api('GET', '/api/tickets/mine', { token: dawa.token })).body as Array<{ _id: string }>).map((ticket) => ticket._id);
    expect((await first.api('POST', '/api/tickets/cancel', { token: dawa.token, body: { ticketIds: dawaTickets } })).status).toBe(200);
    await agePaidOrders(first, soon);
    await agePaidOrders(first, later);

    for (let round = 0; round < 3; round += 1) {
      await Promise.all([first.services.reminders.sweep(), second.services.reminders.sweep()]);
    }
    const reminders = await first.db.select().from(smsMessages).where(like(smsMessages.dedupeKey, `reminder:${soon}:%`));
    // Baraka bought twice: one reminder, to the number he paid with last.
    expect(reminders.map((row) => row.phone).sort()).toEqual(['254712000201', '254712000203']);
    expect(await first.db.select().from(smsMessages).where(like(smsMessages.dedupeKey, `reminder:${later}:%`))).toEqual([]);

    await vi.waitFor(
      async () => expect((await first.db.select().from(smsMessages).where(like(smsMessages.dedupeKey, `reminder:${soon}:%`))).map((row) => row.status)).toEqual(['delivered', 'delivered']),
      { timeout: 15_000, interval: 100 },
    );
    for (const phone of ['+254712000201', '+254712000203']) {
      const received = [...(await inbox(first, phone)), ...(await inbox(second, phone))];
      expect(received).toHaveLength(1);
      expect(received[0]!.message).toMatch(/^Tukio reminder: Sauti Sol Unplugged at the Carnivore is on \w{3} \d{1,2} \w{3}, \d\d:\d\d at KICC, Nairobi\. Your ticket: http:\/\/127\.0\.0\.1:\d+\/profile$/);
    }
    for (const phone of ['+254712000202', '+254712000205']) expect([...(await inbox(first, phone)), ...(await inbox(second, phone))]).toEqual([]);
  });
});

describe('waitlist offers by SMS', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ SMS_POLL_MS: '100', SMS_REMINDER_SWEEP_MS: '0', WAITLIST_SWEEP_MS: '200' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('texts the offer to the number the person last paid with', async () => {
    const organiser = await t.createUser('smswlorganiser');
    const [holder, waiter] = [await t.createUser('smswlholder'), await t.createUser('smswlwaiter')];
    const earlier = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 5, price: 200, capacity: 10 });
    await payFor(t, waiter.token, earlier, { phone: '254712000301' });
    const full = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 9, price: 800, capacity: 1, title: 'Blankets and Wine' });
    await t.db.update(events).set({ refundPolicy: 'full', refundUntilHours: 1 }).where(eq(events.id, full));
    await payFor(t, holder.token, full, { phone: '254712000302' });
    expect((await t.api('POST', `/api/events/${full}/waitlist`, { token: waiter.token, body: { quantity: 1 } })).status).toBe(201);
    const ticketIds = ((await t.api('GET', '/api/tickets/mine', { token: holder.token })).body as Array<{ _id: string }>).map((ticket) => ticket._id);
    expect((await t.api('POST', '/api/tickets/cancel', { token: holder.token, body: { ticketIds } })).status).toBe(200);

    await vi.waitFor(async () => expect(await inbox(t, '+254712000301')).toHaveLength(1), { timeout: 15_000, interval: 100 });
    const [sms] = await inbox(t, '+254712000301');
    expect(sms!.message).toMatch(new RegExp(`^Tukio: A seat for Blankets and Wine is held for you until .+\\. Get it: http://127\\.0\\.0\\.1:\\d+/events/${full}$`));
  });
});
