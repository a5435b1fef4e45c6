import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orders, smsMessages, tickets, users } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders, payFor, settle } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Guest checkout (docs/decisions/guest-checkout.md): a phone buys without an account through its shadow
 * account; the SMS carries a signed link to the tickets; a signed-in buyer attaches a paid guest order with
 * POST /api/transactions; login and email verification claim guest orders of the verified email or of a
 * phone the account paid from. Shadow accounts never log in and are listed nowhere.
 */

let t: TestServer;
let organiser: Awaited<ReturnType<TestServer['createUser']>>;
let phoneCounter = 0;
const freshPhone = () => `2547${String(20_000_000 + phoneCounter++).slice(-8)}`;

function simulatorKey(): string {
  const gateway = t.config.sms.gateway;
  if (gateway.kind !== 'simulator') throw new Error('these tests run on the SMS simulator');
  return gateway.key;
}
async function smsTo(phone: string): Promise<Array<{ message: string }>> {
  const res = await t.api('GET', `/simulator/sms/messages?phone=${phone}`, { headers: { 'x-simulator-key': simulatorKey() } });
  return res.body;
}
const shadowOf = async (phone: string) => (await t.db.select().from(users).where(eq(users.guestPhone, phone)))[0];
const ownerOfOrder = async (orderId: string) => (await t.db.select({ userId: orders.userId }).from(orders).where(eq(orders.id, orderId)))[0]?.userId;
const paidEvent = (price = 800, title = 'Nyege Nyege Nairobi') => insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price, capacity: 50, title });
const attach = (token: string, userId: string, checkoutRequestId: string) =>
  t.api('POST', '/api/transactions', { token, body: { userId, transactionData: { checkoutRequestId, paymentStatus: 'Success' } } });

beforeAll(async () => {
  t = await startTestServer({ SMS_POLL_MS: '100', SMS_REMINDER_SWEEP_MS: '0' });
  organiser = await t.createUser('guestorganiser');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('a guest purchase', () => {
  it('holds seats for the phone at the server price, through a shadow account that cannot log in and is listed nowhere', async () => {
    const eventId = await paidEvent(650);
    const phone = freshPhone();
    const order = await t.api('POST', '/api/internal/payments/guest-orders', { headers: internalHeaders(t), body: { eventId, quantity: 2, phone, guestEmail: 'Wanjiru@Example.com' } });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(order.body).toMatchObject({ amount: 1300, quantity: 2 });
    const shadow = await shadowOf(phone);
    expect(shadow).toMatchObject({ username: `guest-${phone}`, email: `${phone}@guest.invalid`, emailVerifiedAt: null });
    expect((await t.db.select().from(orders).where(eq(orders.id, order.body.orderId)))[0]).toMatchObject({ userId: shadow!.id, guestEmail: 'wanjiru@example.com', amount: 1300 });
    // The same phone buys through the same account again.
    const again = await t.api('POST', '/api/internal/payments/guest-orders', { headers: internalHeaders(t), body: { eventId, phone } });
    expect((await t.db.select().from(orders).where(eq(orders.id, again.body.orderId)))[0]?.userId).toBe(shadow!.id);
    // Only the payment service (the internal key) may start one; a bad email names its field.
    expect((await t.api('POST', '/api/internal/payments/guest-orders', { body: { eventId, phone } })).status).toBe(401);
    const badEmail = await t.api('POST', '/api/internal/payments/guest-orders', { headers: internalHeaders(t), body: { eventId, phone, guestEmail: 'not-an-email' } });
    expect(badEmail.status).toBe(400);

    for (const login of [shadow!.username, shadow!.email]) {
      for (const password of ['', '!guest-account', 'x']) {
        const res = await t.api('POST', '/api/auth/login', { body: { username: login, password } });
        expect(res.body?.token, `${login} / ${password}`).toBeUndefined();
      }
    }
    const searcher = await t.createUser('guestsearcher');
    const found = await t.api('GET', `/api/auth/users/search?q=guest-${phone.slice(0, 6)}`, { token: searcher.token });
    expect(JSON.stringify(found.body ?? '')).not.toContain(shadow!.id);
  });

  it('confirms without a token only for a guest checkout, and sends one SMS with a working ticket link', async () => {
    const eventId = await paidEvent(900, 'Koroga Festival');
    const phone = freshPhone();
    const paid = await payFor(t, undefined, eventId, { phone, quantity: 2 });
    const status = await t.api('GET', `/api/internal/payments/guest-status/${paid.checkoutRequestId}`, { headers: internalHeaders(t) });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ success: true, status: 'success', orderStatus: 'paid', amount: 1800, quantity: 2 });
    // A member's payment is not answered without its owner's token.
    const member = await t.createUser('guestmember');
    const memberPaid = await payFor(t, member.token, eventId, { phone: freshPhone() });
    expect((await t.api('GET', `/api/internal/payments/guest-status/${memberPaid.checkoutRequestId}`, { headers: internalHeaders(t) })).status).toBe(404);

    await vi.waitFor(async () => expect(await smsTo(phone)).toHaveLength(1), { timeout: 15_000, interval: 100 });
    const [sms] = await smsTo(phone);
    expect(sms!.message).toContain('Koroga Festival');
    const link = /(http\S+\/t\/(\S+))/.exec(sms!.message);
    expect(link?.[1]).toBe(`${t.config.publicUrl}/t/${link![2]}`);
    // The token-less confirm answer links to the same page (the buyer has no account to look in).
    expect(status.body.ticketToken).toBe(link![2]);
    const page = await t.api('GET', `/api/guest-tickets/${link![2]}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ orderStatus: 'paid', event: { _id: eventId, title: 'Koroga Festival' } });
    expect(page.body.tickets).toHaveLength(2);
    expect(page.body.tickets[0].holder).toBe(`Guest ${phone.slice(0, 4)}…${phone.slice(-3)}`);
    const codes = (await t.db.select({ code: tickets.code }).from(tickets).where(eq(tickets.orderId, paid.orderId))).map((row) => row.code).sort();
    expect(page.body.tickets.map((ticket: { code: string }) => ticket.code).sort()).toEqual(codes);
    // A forged or altered token shows nothing.
    expect((await t.api('GET', `/api/guest-tickets/${paid.orderId}.AAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
    expect((await t.api('GET', `/api/guest-tickets/${memberPaid.checkoutRequestId}`)).status).toBe(404);

    // Settling again (a duplicate callback) sends no second SMS: one per order.
    expect((await settle(t, paid)).status).toBeLessThan(500);
    await t.services.sms.sendDue();
    expect(await smsTo(phone)).toHaveLength(1);
    expect(await t.db.select().from(smsMessages).where(eq(smsMessages.dedupeKey, `guest-tickets:${paid.orderId}`))).toHaveLength(1);
  });

  it('mails the tickets to the email given at checkout, never to the placeholder', async () => {
    const eventId = await paidEvent(500, 'Blankets and Wine');
    const phone = freshPhone();
    await payFor(t, undefined, eventId, { phone, guestEmail: 'kamau.guest@example.com' });
    const mail = await t.smtp.waitFor('kamau.guest@example.com', /Blankets and Wine/);
    expect(mail.text).toContain('Blankets and Wine');
    // A guest has no profile: the mail greets nobody by the shadow account's name and points at their ticket page.
    expect(mail.text).toMatch(/^Hello,\n/);
    expect(mail.text).toMatch(/your ticket page shows it too: http:\/\/\S+\/t\/\S+\)/);
    expect(mail.text).not.toContain('profile');
    const silent = freshPhone();
    await payFor(t, undefined, eventId, { phone: silent });
    await vi.waitFor(async () => expect(await smsTo(silent)).toHaveLength(1), { timeout: 15_000, interval: 100 });
    expect(t.smtp.inbox.some((message) => message.to.endsWith('@guest.invalid'))).toBe(false);
  });
});

describe('attaching a guest order to the signed-in buyer', () => {
  it('moves a paid guest order with POST /api/transactions; then register answers as for a holder', async () => {
    const eventId = await paidEvent(1200, 'Sauti Sol Live');
    const buyer = await t.createUser('guestattacher');
    const phone = freshPhone();
    const paid = await payFor(t, undefined, eventId, { phone, quantity: 2 });
    const attached = await attach(buyer.token, buyer.user._id, paid.checkoutRequestId);
    expect(attached.status, JSON.stringify(attached.body)).toBe(200);
    expect(attached.body).toMatchObject({ checkoutRequestId: paid.checkoutRequestId, paymentStatus: 'success', orderStatus: 'paid', amount: 2400 });
    expect(await ownerOfOrder(paid.orderId)).toBe(buyer.user._id);
    const mine = await t.api('GET', '/api/tickets/mine', { token: buyer.token });
    expect(mine.body.filter((ticket: { orderId: string }) => ticket.orderId === paid.orderId)).toHaveLength(2);
    const registered = await t.api('POST', `/api/events/register/${eventId}`, { token: buyer.token, body: { userId: buyer.user._id } });
    expect(registered.status).toBe(200);
    expect(registered.body).toEqual({ message: 'Registered successfully' });
    // Now it is a member's: nobody else can take it, and the guest link no longer shows it.
    const other = await t.createUser('guestthief');
    expect((await attach(other.token, other.user._id, paid.checkoutRequestId)).status).toBe(403);
    expect(await ownerOfOrder(paid.orderId)).toBe(buyer.user._id);
    expect((await t.api('GET', `/api/transactions/${buyer.user._id}`, { token: buyer.token })).body.map((row: { checkoutRequestId: string }) => row.checkoutRequestId)).toContain(paid.checkoutRequestId);
  });

  it("moves only the tickets the guest still holds: one of the order held by someone else stays theirs", async () => {
    const eventId = await paidEvent(500, 'Blankets and Wine');
    const buyer = await t.createUser('guestmover');
    const holder = await t.createUser('guestgiftee');
    const paid = await payFor(t, undefined, eventId, { phone: freshPhone(), quantity: 2 });
    // One seat of the order already belongs to someone else (as a transferred ticket keeps its order).
    const [given] = await t.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.orderId, paid.orderId)).limit(1);
    await t.db.update(tickets).set({ userId: holder.user._id }).where(eq(tickets.id, given!.id));

    expect((await attach(buyer.token, buyer.user._id, paid.checkoutRequestId)).status).toBe(200);
    const owners = await t.db.select({ id: tickets.id, userId: tickets.userId }).from(tickets).where(eq(tickets.orderId, paid.orderId));
    expect(owners.find((row) => row.id === given!.id)?.userId).toBe(holder.user._id);
    expect(owners.filter((row) => row.userId === buyer.user._id)).toHaveLength(1);
  });

  it('attaches nothing for an unpaid guest checkout', async () => {
    const eventId = await paidEvent(300);
    const buyer = await t.createUser('guestimpatient');
    const pending = await payFor(t, undefined, eventId, { phone: freshPhone(), settle: false });
    const res = await attach(buyer.token, buyer.user._id, pending.checkoutRequestId);
    expect(res.status).toBe(403);
    const shadowId = await ownerOfOrder(pending.orderId);
    expect(shadowId).not.toBe(buyer.user._id);
    expect((await t.api('GET', '/api/tickets/mine', { token: buyer.token })).body).toEqual([]);
  });
});

describe('claiming guest tickets at sign-in', () => {
  it('by the verified email given at checkout (on verification, and on login)', async () => {
    const eventId = await paidEvent(400, 'Email claim night');
    const paid = await payFor(t, undefined, eventId, { phone: freshPhone(), guestEmail: 'claimer@example.com' });
    // createUser registers, verifies the email (the claim happens there) and logs in.
    const claimer = await t.createUser('claimer');
    expect(await ownerOfOrder(paid.orderId)).toBe(claimer.user._id);
    // A later guest purchase with the same email is claimed at the next login.
    const later = await payFor(t, undefined, eventId, { phone: freshPhone(), guestEmail: 'CLAIMER@example.com' });
    expect(await ownerOfOrder(later.orderId)).not.toBe(claimer.user._id);
    await t.login('claimer', 'secret123');
    expect(await ownerOfOrder(later.orderId)).toBe(claimer.user._id);
    const mine = await t.api('GET', '/api/tickets/mine', { token: claimer.token });
    expect(mine.body.map((ticket: { orderId: string }) => ticket.orderId).sort()).toEqual([paid.orderId, later.orderId].sort());
  });

  it('by a phone the account has paid from itself; an unverified phone or email claims nothing', async () => {
    const eventId = await paidEvent(450, 'Phone claim night');
    const phone = freshPhone();
    const guestOrder = await payFor(t, undefined, eventId, { phone });
    const stranger = await payFor(t, undefined, eventId, { phone: freshPhone(), guestEmail: 'someone-else@example.com' });
    const member = await t.createUser('phoneclaimer');
    // Logged in, but not paid from that phone yet: nothing moves.
    expect(await ownerOfOrder(guestOrder.orderId)).not.toBe(member.user._id);
    await payFor(t, member.token, eventId, { phone });
    await t.login('phoneclaimer', 'secret123');
    expect(await ownerOfOrder(guestOrder.orderId)).toBe(member.user._id);
    expect(await ownerOfOrder(stranger.orderId)).not.toBe(member.user._id);
  });
});

describe('a guest buyer as organisers see them', () => {
  it('is "Guest 0722 ••• 111" with the email they gave on the attendee list and its CSV, and on the refunds panel; never the placeholder account', async () => {
    const eventId = await paidEvent(700, 'Sondeka Festival');
    const [withEmail, withoutEmail] = [freshPhone(), freshPhone()];
    await payFor(t, undefined, eventId, { phone: withEmail, guestEmail: 'Akinyi@Example.com' });
    await payFor(t, undefined, eventId, { phone: withoutEmail });
    const masked = (phone: string) => `0${phone.slice(3, 6)} ••• ${phone.slice(-3)}`;

    const list = await t.api('GET', `/api/events/${eventId}/attendees`, { token: organiser.token });
    expect(list.status).toBe(200);
    expect(list.body.map((row: { username: string; email: string; guest: unknown }) => ({ username: row.username, email: row.email, guest: row.guest })).sort((a: { email: string }, b: { email: string }) => b.email.localeCompare(a.email))).toEqual([
      { username: `Guest ${masked(withEmail)}`, email: 'akinyi@example.com', guest: { phone: masked(withEmail), email: 'akinyi@example.com' } },
      { username: `Guest ${masked(withoutEmail)}`, email: '', guest: { phone: masked(withoutEmail), email: null } },
    ]);
    const paged = await t.api('GET', `/api/events/${eventId}/attendees/paged`, { token: organiser.token });
    expect(paged.body.items.map((row: { username: string }) => row.username).sort()).toEqual([`Guest ${masked(withEmail)}`, `Guest ${masked(withoutEmail)}`].sort());
    const csv = await t.api('GET', `/api/events/${eventId}/attendees?format=csv`, { token: organiser.token });
    expect(csv.body).toContain(`"Guest ${masked(withEmail)}","akinyi@example.com"`);

    expect((await t.api('POST', `/api/events/${eventId}/cancel`, { token: organiser.token, body: { reason: 'The venue was double-booked.' } })).status).toBe(200);
    const refunds = await t.api('GET', `/api/events/${eventId}/refunds`, { token: organiser.token });
    expect(refunds.body.refunds.map((row: { username: string; guest: boolean }) => [row.username, row.guest]).sort()).toEqual(
      [[`Guest ${masked(withEmail)}`, true], [`Guest ${masked(withoutEmail)}`, true]].sort(),
    );
    // Nowhere the whole number or the placeholder address.
    for (const body of [JSON.stringify(list.body), JSON.stringify(paged.body), String(csv.body), JSON.stringify(refunds.body)]) {
      for (const phone of [withEmail, withoutEmail]) {
        expect(body).not.toContain(phone);
        expect(body).not.toContain(`0${phone.slice(3)}`);
      }
      expect(body).not.toContain('guest.invalid');
    }
  });
});
