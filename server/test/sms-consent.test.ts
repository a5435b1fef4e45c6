import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { smsOptOuts, users } from '../src/db/schema.js';
import { smsReceivedBy } from './helpers/sms.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * SMS consent (docs/decisions/sms.md, "Consent") over HTTP on a real database with the SMS simulator: a phone
 * replies STOP in the simulator, which notifies the server's opt-out callback as Africa's Talking does; from then
 * on promotional SMS to that number are dropped while transactional ones (tickets, codes) still go.
 */

let t: TestServer;
const STOPPED = '254711222333';
const OTHER = '254711222444';

beforeAll(async () => {
  t = await startTestServer();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const simulatorKey = () => {
  const gateway = t.config.sms.gateway;
  if (gateway.kind !== 'simulator') throw new Error('this test runs on the SMS simulator');
  return gateway.key;
};

/** Every message `phone` has received, once the sender has sent what is due. */
async function received(phone: string, count: number) {
  let messages: Array<{ message: string }> = [];
  await vi.waitFor(
    async () => {
      await t.services.sms.sendDue();
      messages = await smsReceivedBy(t, phone);
      expect(messages.length).toBeGreaterThanOrEqual(count);
    },
    { timeout: 15_000, interval: 50 },
  );
  return messages.map((sms) => sms.message);
}

describe('STOP replies', () => {
  it('are recorded from the simulator through the opt-out callback', async () => {
    const stop = await t.api('POST', '/simulator/sms/stop', { headers: { 'x-simulator-key': simulatorKey() }, body: { phone: `+${STOPPED}` } });
    expect(stop.status, JSON.stringify(stop.body)).toBe(200);
    expect(stop.body).toEqual({ notified: true, status: 200 });
    const rows = await t.db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, STOPPED));
    expect(rows).toMatchObject([{ phone: STOPPED, sender: 'TUKIO' }]);
    // Africa's Talking may notify twice: nothing changes.
    const again = await t.api('POST', `/api/sms/opt-outs/${t.config.sms.callbackSecret}`, { raw: new URLSearchParams({ phoneNumber: `+${STOPPED}`, senderId: 'TUKIO' }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(again.status).toBe(200);
    expect(await t.db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, STOPPED))).toHaveLength(1);
  });

  it('refuse a wrong secret without recording anything', async () => {
    const res = await t.api('POST', '/api/sms/opt-outs/not-the-secret-at-all', { body: { phoneNumber: `+${OTHER}` } });
    expect(res.status).toBe(404);
    expect(await t.db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, OTHER))).toEqual([]);
  });

  it('stop promotional SMS to that number; transactional ones still go, and other numbers still get promotions', async () => {
    const queued = await t.services.sms.enqueue([
      { purpose: 'promotion', promotional: true, phone: `0${STOPPED.slice(3)}`, message: 'Tukio: new events this weekend (promotion to a stopped number).' },
      { purpose: 'ticket', phone: STOPPED, message: 'Tukio: your ticket (transactional).' },
      { purpose: 'promotion', promotional: true, phone: OTHER, message: 'Tukio: new events this weekend (promotion).' },
    ]);
    expect(queued).toBe(2);
    expect(await received(STOPPED, 1)).toEqual(['Tukio: your ticket (transactional).']);
    expect(await received(OTHER, 1)).toEqual(['Tukio: new events this weekend (promotion).']);
  });
});

describe('the promotional SMS opt-in', () => {
  it('is off unless ticked on sign-up, and the account changes it on its profile (only its own)', async () => {
    const plain = await t.createUser('smsconsentplain');
    const other = await t.createUser('smsconsentother');
    const path = (id: string) => `/api/auth/user/${id}/sms-promotions`;
    expect((await t.api('GET', path(plain.user._id), { token: plain.token })).body).toEqual({ smsPromotions: false });

    const ticked = await t.api('POST', '/api/auth/register', { body: { username: 'smsconsentyes', email: 'smsconsentyes@example.com', password: 'secret123', smsPromotions: true } });
    expect(ticked.status, JSON.stringify(ticked.body)).toBe(200);
    const [row] = await t.db.select({ smsPromotions: users.smsPromotions }).from(users).where(eq(users.username, 'smsconsentyes'));
    expect(row).toEqual({ smsPromotions: true });

    const on = await t.api('PUT', path(plain.user._id), { token: plain.token, body: { smsPromotions: true } });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ smsPromotions: true });
    expect((await t.api('GET', path(plain.user._id), { token: plain.token })).body).toEqual({ smsPromotions: true });
    expect((await t.api('PUT', path(plain.user._id), { token: other.token, body: { smsPromotions: false } })).status).toBe(403);
    expect((await t.api('PUT', path(plain.user._id), { token: plain.token, body: { smsPromotions: 'yes' } })).status).toBe(400);
  });
});
