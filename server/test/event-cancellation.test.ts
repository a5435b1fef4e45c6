import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, orders, tickets, ticketTypes } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { auditBooks, internalHeaders, payFor, providerView as providerBooks, receiptNo, refundsOf, settle } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Cancelling an event (POST /api/events/:id/cancel, and DELETE of an event that has orders): tickets
 * void, every successful payment refunded in full, pending holds released, holders emailed, sales
 * stopped, the event still readable; and the audit of the ledger against what M-Pesa reports.
 */

type Session = { token: string; user: { _id: string; email: string; username: string } };

let t: TestServer;
let admin: Session;
let organiser: Session;
let stranger: Session;
let amani: Session;
let baraka: Session;
let chebet: Session;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.loginAdmin();
  organiser = await t.createUser('cancelorganiser');
  stranger = await t.createUser('cancelstranger');
  amani = await t.createUser('amanibuyer');
  baraka = await t.createUser('barakabuyer');
  chebet = await t.createUser('chebetbuyer');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const title = (what: string) => `${what} ${Math.random().toString(36).slice(2, 8)}`;
const paidEvent = (what = 'Gala', options: { status?: 'approved' | 'pending'; ownerId?: string } = {}) =>
  insertEventRow(t.db, { ownerId: options.ownerId ?? organiser.user._id, days: 14, price: 500, capacity: 50, title: title(what), status: options.status ?? 'approved' });
const cancel = (eventId: string, as: Session | undefined, reason = 'Heavy rain warning for the whole weekend.') =>
  t.api('POST', `/api/events/${eventId}/cancel`, { token: as?.token, body: { reason } });
const ticketsOf = (eventId: string) => t.db.select().from(tickets).where(eq(tickets.eventId, eventId));
const orderRow = async (orderId: string) => (await t.db.select().from(orders).where(eq(orders.id, orderId)))[0]!;

describe('POST /api/events/:id/cancel', () => {
  it("by the organiser: the event is cancelled, its tickets void, every paid order refunded in full, pending holds released, holders emailed", async () => {
    const eventId = await paidEvent('Riverside gala');
    const amaniPaid = await payFor(t, amani.token, eventId, { quantity: 2, phone: '254711000001' });
    const barakaPaid = await payFor(t, baraka.token, eventId, { phone: '254711000002' });
    const chebetPending = await payFor(t, chebet.token, eventId, { phone: '254711000003', settle: false });
    const [amaniCode] = (await t.api('GET', '/api/tickets/mine', { token: amani.token })).body.filter((ticket: { event: { _id: string } }) => ticket.event._id === eventId);

    const res = await cancel(eventId, organiser);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cancelled: true, ticketsVoided: 3, ordersReleased: 1, refunds: 2 });
    expect(res.body.msg).toMatch(/^Event cancelled\. 2 ticket holders are being told, and 2 refunds are on the way\.$/);

    // The event answers cancelled, to everyone who could see it.
    const page = await t.api('GET', `/api/events/${eventId}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ status: 'cancelled', cancelReason: 'Heavy rain warning for the whole weekend.' });
    expect(Date.parse(page.body.cancelledAt)).toBeGreaterThan(Date.now() - 60_000);

    // Every ticket void, none deleted.
    const held = await ticketsOf(eventId);
    expect(held).toHaveLength(3);
    for (const ticket of held) expect(ticket).toMatchObject({ voidReason: 'event_cancelled', voidedAt: expect.any(Date) });

    // Every successful payment has a full refund, due now, by reversal of its receipt; paid orders are refund_due.
    const rows = await refundsOf(t, eventId);
    expect(rows.map((row) => ({ orderId: row.orderId, amount: row.amount, phone: row.phone, reason: row.reason, method: row.method, status: row.status })).sort((x, y) => x.amount - y.amount)).toEqual([
      { orderId: barakaPaid.orderId, amount: 500, phone: '254711000002', reason: 'event_cancelled', method: 'reversal', status: 'due' },
      { orderId: amaniPaid.orderId, amount: 1000, phone: '254711000001', reason: 'event_cancelled', method: 'reversal', status: 'due' },
    ]);
    expect((await orderRow(amaniPaid.orderId)).status).toBe('refund_due');
    expect((await orderRow(barakaPaid.orderId)).status).toBe('refund_due');
    expect((await orderRow(chebetPending.orderId)).status).toBe('cancelled');

    // Each holder is told why, and that the money is on its way; the buyer with a released hold held no ticket.
    const toAmani = await t.smtp.waitFor(amani.user.email, /^Cancelled: Riverside gala/);
    expect(toAmani.text).toContain('Reason given: Heavy rain warning for the whole weekend.');
    expect(toAmani.text).toContain('Your 2 tickets are no longer valid.');
    expect(toAmani.text).toMatch(/refund of Ksh.1,000 is on its way back to M-Pesa 254711000001/);
    const toBaraka = await t.smtp.waitFor(baraka.user.email, /^Cancelled: Riverside gala/);
    expect(toBaraka.text).toMatch(/refund of Ksh.500 is on its way/);
    expect(t.smtp.inbox.filter((mail) => mail.to === chebet.user.email && /^Cancelled/.test(mail.subject))).toEqual([]);

    // The door refuses the void ticket, saying why.
    const checkIn = await t.api('POST', `/api/events/${eventId}/checkin`, { token: organiser.token, body: { code: amaniCode.code } });
    expect(checkIn.status).toBe(409);
    expect(checkIn.body.msg).toMatch(/cancelled/);
    expect(checkIn.body).toMatchObject({ voidReason: 'event_cancelled' });

    // The buyer sees it: the ticket void, the refund due.
    const mine = (await t.api('GET', '/api/tickets/mine', { token: amani.token })).body.filter((ticket: { event: { _id: string } }) => ticket.event._id === eventId);
    expect(mine).toHaveLength(2);
    for (const ticket of mine) expect(ticket).toMatchObject({ voidReason: 'event_cancelled', voidedAt: expect.any(String) });
    const history = await t.api('GET', `/api/transactions/${amani.user._id}`, { token: amani.token });
    expect(history.body.find((row: { checkoutRequestId: string }) => row.checkoutRequestId === amaniPaid.checkoutRequestId)).toMatchObject({
      paymentStatus: 'success',
      orderStatus: 'refund_due',
      refundStatus: 'due',
      refundAmount: 1000,
      refundReceipt: null,
    });
    // A payment without a refund says so with nulls.
    const other = await paidEvent('Other gala');
    const kept = await payFor(t, amani.token, other);
    const keptRow = (await t.api('GET', `/api/transactions/${amani.user._id}`, { token: amani.token })).body.find((row: { checkoutRequestId: string }) => row.checkoutRequestId === kept.checkoutRequestId);
    expect(keptRow).toMatchObject({ orderStatus: 'paid', refundStatus: null, refundAmount: null, refundReceipt: null });
  });

  it('a ticket received by transfer: its holder is told, on the ticket and by email alike, that they paid nothing; the buyer is refunded', async () => {
    const eventId = await paidEvent('Passed-on gala');
    const paid = await payFor(t, amani.token, eventId, { quantity: 2, phone: '254711000041' });
    const [given] = (await t.api('GET', '/api/tickets/mine', { token: amani.token })).body.filter((ticket: { event: { _id: string } }) => ticket.event._id === eventId);
    expect((await t.api('POST', `/api/tickets/${given._id}/transfer`, { token: amani.token, body: { to: chebet.user.username } })).status).toBe(200);
    expect((await cancel(eventId, organiser)).status).toBe(200);

    type Held = { _id: string; voidReason: string; pricePaid: number; paidByHolder: boolean; transferredFrom: string | null; event: { _id: string } };
    const heldBy = async (who: Session) => ((await t.api('GET', '/api/tickets/mine', { token: who.token })).body as Held[]).filter((ticket) => ticket.event._id === eventId);
    // The recipient's ticket still carries what it cost, but they did not pay it: nothing comes back to them.
    expect(await heldBy(chebet)).toEqual([expect.objectContaining({ voidReason: 'event_cancelled', transferredFrom: given._id, pricePaid: 500, paidByHolder: false })]);
    const toChebet = await t.smtp.waitFor(chebet.user.email, /^Cancelled: Passed-on gala/);
    expect(toChebet.text).toContain('You paid nothing for it, so there is nothing to refund.');
    // The buyer paid: their kept ticket says so, and the whole payment comes back to their number.
    const buyer = await heldBy(amani);
    expect(buyer.find((ticket) => ticket.voidReason === 'event_cancelled')).toMatchObject({ pricePaid: 500, paidByHolder: true });
    expect((await refundsOf(t, eventId)).map((row) => ({ orderId: row.orderId, userId: row.userId, amount: row.amount }))).toEqual([{ orderId: paid.orderId, userId: amani.user._id, amount: 1000 }]);
    const toAmani = await t.smtp.waitFor(amani.user.email, /^Cancelled: Passed-on gala/);
    expect(toAmani.text).toMatch(/refund of Ksh.1,000 is on its way back to M-Pesa 254711000041/);
  });

  it('by an admin, for any event; a stranger is refused (403), a visitor must log in, a pending event is hidden from strangers', async () => {
    const eventId = await paidEvent('Admin gala');
    await payFor(t, amani.token, eventId);
    expect((await cancel(eventId, stranger)).status).toBe(403);
    expect((await cancel(eventId, amani)).status).toBe(403);
    expect((await cancel(eventId, undefined)).status).toBe(401);
    expect(await refundsOf(t, eventId)).toEqual([]);
    const byAdmin = await cancel(eventId, admin, 'The organiser could not be reached.');
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toMatchObject({ refunds: 1, ticketsVoided: 1 });

    const pending = await paidEvent('Pending gala', { status: 'pending' });
    expect((await cancel(pending, stranger)).status).toBe(404);
    expect((await cancel(pending, organiser)).status).toBe(200);
    // Cancelled while unpublished: still hidden from everyone but its organiser and admins.
    expect((await t.api('GET', `/api/events/${pending}`)).status).toBe(404);
    expect((await t.api('GET', `/api/events/${pending}`, { token: organiser.token })).body.status).toBe('cancelled');
  });

  it('twice: 409 "already cancelled", and nothing changes', async () => {
    const eventId = await paidEvent('Twice gala');
    await payFor(t, baraka.token, eventId);
    expect((await cancel(eventId, organiser, 'First reason, the real one.')).status).toBe(200);
    const before = { refunds: await refundsOf(t, eventId), tickets: await ticketsOf(eventId) };
    const again = await cancel(eventId, admin, 'Second reason.');
    expect(again.status).toBe(409);
    expect(again.body.msg).toMatch(/already cancelled/);
    expect(await refundsOf(t, eventId)).toEqual(before.refunds);
    expect(await ticketsOf(eventId)).toEqual(before.tickets);
    expect((await t.api('GET', `/api/events/${eventId}`)).body.cancelReason).toBe('First reason, the real one.');
  });

  it('needs a reason of 3 to 500 characters', async () => {
    const eventId = await paidEvent('Reasonless gala');
    for (const reason of ['', 'no', 'x'.repeat(501)]) {
      const res = await cancel(eventId, organiser, reason);
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('reason');
    }
    expect((await t.api('GET', `/api/events/${eventId}`)).body.status).toBe('approved');
  });

  it('is final: no edit or moderation brings the event back', async () => {
    const eventId = await paidEvent('Final gala');
    expect((await cancel(eventId, organiser)).status).toBe(200);
    const edit = await t.api('PUT', `/api/events/${eventId}`, { token: organiser.token, body: { title: 'Back again' } });
    expect(edit.status).toBe(409);
    expect(edit.body.msg).toMatch(/cancelled/);
    expect((await t.api('PUT', `/api/events/admin/approve/${eventId}`, { token: admin.token, body: {} })).status).toBe(409);
    expect((await t.api('PUT', `/api/events/admin/disapprove/${eventId}`, { token: admin.token, body: {} })).status).toBe(409);
    expect((await t.api('PUT', `/api/events/${eventId}`, { token: admin.token, body: { status: 'approved' } })).status).toBe(409);
    expect((await t.api('GET', `/api/events/${eventId}`)).body).toMatchObject({ status: 'cancelled' });
  });
});

describe('an event that has started', () => {
  /** Bought while upcoming, then the clock passes its start (an hour ago on the Nairobi wall clock). */
  const startedEvent = async (what: string) => {
    const eventId = await paidEvent(what);
    await payFor(t, amani.token, eventId, { phone: '254711000009' });
    const started = new Date(Date.now() + 3 * 60 * 60 * 1000 - 60 * 60 * 1000);
    await t.db.update(events).set({ startsAt: started }).where(eq(events.id, eventId));
    return eventId;
  };

  it('cannot be cancelled (or deleted) by its organiser: 409 saying why, and nothing changes', async () => {
    const eventId = await startedEvent('Past gala');
    const before = { refunds: await refundsOf(t, eventId), tickets: await ticketsOf(eventId) };
    const res = await cancel(eventId, organiser);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'event_cancel_started', msg: expect.stringMatching(/already started.*ask an administrator/) });
    const deleted = await t.api('DELETE', `/api/events/${eventId}`, { token: organiser.token });
    expect(deleted.status).toBe(409);
    expect(deleted.body.code).toBe('event_cancel_started');
    expect((await t.api('GET', `/api/events/${eventId}`)).body.status).toBe('approved');
    expect(await refundsOf(t, eventId)).toEqual(before.refunds);
    expect(await ticketsOf(eventId)).toEqual(before.tickets);
  });

  it('can still be cancelled by an admin, with the reason (the event never took place): buyers refunded', async () => {
    const eventId = await startedEvent('Never-happened gala');
    const res = await cancel(eventId, admin, 'The venue was closed on the day; the event never took place.');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cancelled: true, refunds: 1, ticketsVoided: 1 });
    expect((await t.api('GET', `/api/events/${eventId}`)).body).toMatchObject({ status: 'cancelled', cancelReason: 'The venue was closed on the day; the event never took place.' });
  });
});

describe('DELETE /api/events/:id', () => {
  it('cancels an event that has orders instead of deleting it', async () => {
    const eventId = await paidEvent('Deleted gala');
    await payFor(t, chebet.token, eventId);
    const res = await t.api('DELETE', `/api/events/${eventId}`, { token: organiser.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cancelled: true, msg: expect.stringMatching(/^Event cancelled/) });
    expect((await t.api('GET', `/api/events/${eventId}`)).body).toMatchObject({ status: 'cancelled', cancelReason: 'Deleted by the organiser' });
    expect(await refundsOf(t, eventId)).toHaveLength(1);
    await t.smtp.waitFor(chebet.user.email, /^Cancelled: Deleted gala/);
    // Once cancelled, deleting it again is "already cancelled".
    expect((await t.api('DELETE', `/api/events/${eventId}`, { token: organiser.token })).status).toBe(409);
  });

  it('still deletes an event without orders', async () => {
    const eventId = await paidEvent('Empty gala');
    const res = await t.api('DELETE', `/api/events/${eventId}`, { token: organiser.token });
    expect(res.status).toBe(200);
    expect(res.body.cancelled).toBeUndefined();
    expect((await t.api('GET', `/api/events/${eventId}`)).status).toBe(404);
  });
});

describe('after cancellation', () => {
  it('refunds a payment that arrives afterwards (late_payment) and issues no tickets', async () => {
    const eventId = await paidEvent('Late gala');
    const late = await payFor(t, baraka.token, eventId, { quantity: 2, phone: '254711000009', settle: false });
    expect((await cancel(eventId, organiser)).status).toBe(200);
    expect((await orderRow(late.orderId)).status).toBe('cancelled');

    const settled = await settle(t, late);
    expect(settled.status).toBe(200);
    expect(settled.body).toMatchObject({ status: 'success', orderStatus: 'refund_due', ticketsIssued: 0 });
    expect(settled.body.view.resultDesc).toMatch(/will be refunded/);
    expect(await ticketsOf(eventId)).toEqual([]);
    const [refund] = await refundsOf(t, eventId);
    expect(refund).toMatchObject({ orderId: late.orderId, amount: 1000, reason: 'late_payment', method: 'reversal', status: 'due', phone: '254711000009' });
    // The same callback again changes nothing.
    expect((await settle(t, late)).body).toMatchObject({ changed: false });
    expect(await refundsOf(t, eventId)).toHaveLength(1);
  });

  it('races settlements safely: payments settling while the event is cancelled all end refunded, none keeps a ticket', async () => {
    const eventId = await paidEvent('Racing gala');
    const pushes = [];
    for (let i = 0; i < 8; i++) pushes.push(await payFor(t, [amani, baraka, chebet][i % 3]!.token, eventId, { phone: `2547120000${String(i).padStart(2, '0')}`, settle: false }));
    // Half the holds nearly run out, so their settlement takes the event lock too (the path that could deadlock).
    for (const push of pushes.slice(0, 4)) await t.db.update(orders).set({ holdExpiresAt: new Date(Date.now() + 5_000) }).where(eq(orders.id, push.orderId));
    const results = await Promise.all([...pushes.map((push) => settle(t, push)), cancel(eventId, organiser, 'Cancelled while people were paying.')]);
    for (const res of results) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const byOrder = new Map((await refundsOf(t, eventId)).map((refund) => [refund.orderId, refund]));
    for (const push of pushes) {
      expect((await orderRow(push.orderId)).status).toBe('refund_due');
      expect(byOrder.get(push.orderId)).toMatchObject({ amount: 500, status: 'due' });
    }
    expect((await ticketsOf(eventId)).filter((ticket) => !ticket.voidedAt)).toEqual([]);
  });

  it('stops sales: no purchase, no free registration', async () => {
    const eventId = await paidEvent('Closed gala');
    expect((await cancel(eventId, organiser)).status).toBe(200);
    const order = await t.api('POST', '/api/internal/payments/orders', { token: amani.token, headers: internalHeaders(t), body: { eventId, quantity: 1, phone: '254711000010' } });
    expect(order.status).toBe(409);
    expect(order.body.msg).toMatch(/cancelled/);

    const free = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 5, title: title('Free meetup') });
    expect((await t.api('POST', `/api/events/register/${free}`, { token: chebet.token, body: { tickets: 1 } })).status).toBe(200);
    const cancelled = await cancel(free, organiser, 'The speaker fell ill.');
    expect(cancelled.body).toMatchObject({ ticketsVoided: 1, refunds: 0 });
    const notice = await t.smtp.waitFor(chebet.user.email, /^Cancelled: Free meetup/);
    expect(notice.text).toContain('there is nothing to refund');
    const register = await t.api('POST', `/api/events/register/${free}`, { token: amani.token, body: { tickets: 1 } });
    expect(register.status).toBe(409);
    expect(register.body.msg).toMatch(/cancelled/);
  });

  it('leaves the lists of upcoming, popular and searched events, while its page, comments, reviews and forums stay readable', async () => {
    const name = title('Lakeside concert');
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 3, title: name });
    await t.api('POST', `/api/events/register/${eventId}`, { token: amani.token, body: { tickets: 1 } });
    const comment = await t.api('POST', '/api/comments/add', { token: amani.token, body: { content: 'Cannot wait!', eventId } });
    expect(comment.status).toBe(201);
    const thread = await t.api('POST', '/api/forums/add-thread', { token: amani.token, body: { title: 'Carpool?', eventId } });
    expect(thread.status).toBe(201);
    const listed = async () => ({
      upcoming: (await t.api('GET', '/api/events/upcoming?limit=50')).body.some((event: { _id: string }) => event._id === eventId),
      popular: (await t.api('GET', '/api/events/popular?limit=50')).body.some((event: { _id: string }) => event._id === eventId),
      search: (await t.api('GET', `/api/events?q=${encodeURIComponent(name)}`)).body.items.some((event: { _id: string }) => event._id === eventId),
      all: (await t.api('GET', '/api/events/getevnt')).body.some((event: { _id: string }) => event._id === eventId),
      approved: (await t.api('GET', '/api/events/admin/approved')).body.some((event: { _id: string }) => event._id === eventId),
    });
    expect(await listed()).toEqual({ upcoming: true, popular: true, search: true, all: true, approved: true });

    expect((await cancel(eventId, organiser, 'The lake flooded the stage.')).status).toBe(200);
    expect(await listed()).toEqual({ upcoming: false, popular: false, search: false, all: false, approved: false });
    // The organiser still finds it among their own events.
    expect((await t.api('GET', `/api/events/user/${organiser.user._id}`, { token: organiser.token })).body.find((event: { _id: string }) => event._id === eventId)).toMatchObject({
      status: 'cancelled',
    });

    const page = await t.api('GET', `/api/events/${eventId}`);
    expect(page).toMatchObject({ status: 200, body: { status: 'cancelled', cancelReason: 'The lake flooded the stage.', title: name } });
    const comments = await t.api('GET', `/api/comments/event/${eventId}`);
    expect(comments.status).toBe(200);
    expect(JSON.stringify(comments.body)).toContain('Cannot wait!');
    expect((await t.api('GET', `/api/reviews/event/${eventId}`)).status).toBe(200);
    expect((await t.api('GET', `/api/forums/summary/${eventId}`)).status).toBe(200);
    expect((await t.api('GET', `/api/forums/threads/${eventId}`, { token: stranger.token })).status).toBe(200);
  });
});

describe('POST /api/internal/audit', () => {
  const providerView = () => providerBooks(t);
  const audit = (body: unknown) => auditBooks(t, body);

  it('finds nothing after holders cancelled paid tickets (full and partial refunds, one paid out) or transferred them', async () => {
    const full = await paidEvent('Self-cancelled gala');
    const partial = await paidEvent('Half-refund gala');
    await t.db.update(events).set({ refundPolicy: 'full' }).where(eq(events.id, full));
    await t.db.update(events).set({ refundPolicy: 'partial', refundPercent: 30 }).where(eq(events.id, partial));
    await payFor(t, chebet.token, full, { quantity: 3 });
    await payFor(t, chebet.token, partial, { quantity: 2 });
    const held = (await t.api('GET', '/api/tickets/mine', { token: chebet.token })).body as Array<{ _id: string; event: { _id: string } }>;
    const of = (eventId: string) => held.filter((ticket) => ticket.event._id === eventId).map((ticket) => ticket._id);
    const [one, two] = of(full);
    // Full: one ticket cancelled (refunded, and the refund paid out), one transferred, the third kept.
    expect((await t.api('POST', '/api/tickets/cancel', { token: chebet.token, body: { ticketIds: [one] } })).body.refundAmount).toBe(500);
    expect((await t.api('POST', `/api/tickets/${two}/transfer`, { token: chebet.token, body: { to: amani.user.username } })).status).toBe(200);
    // Partial: both tickets cancelled, 30% back, the rest kept by the organiser.
    expect((await t.api('POST', '/api/tickets/cancel', { token: chebet.token, body: { ticketIds: of(partial) } })).body.refundAmount).toBe(300);
    const claimed = await t.services.refunds.claim(50);
    const [selfRefund] = await refundsOf(t, full);
    const attempt = claimed.find((item) => item.refundId === selfRefund!.id)!;
    const result = { originatorConversationId: attempt.originatorConversationId, resultCode: '0', resultDesc: 'ok', transactionId: receiptNo('S'), amount: 500, source: 'callback' };
    expect((await t.api('POST', '/api/internal/refunds/result', { headers: internalHeaders(t), body: result })).body).toMatchObject({ status: 'succeeded' });

    const view = await providerView();
    const found = await audit(view);
    expect(found.body).toEqual({ discrepancies: [], notices: [], checked: { payments: view.payments.length, refunds: view.refunds.length, payouts: 0 } });
  });

  it('finds nothing on a clean history, and each planted discrepancy', async () => {
    // A refund that went all the way through, beside the due ones the tests above left.
    const eventId = await paidEvent('Audited gala');
    await payFor(t, amani.token, eventId);
    expect((await cancel(eventId, organiser)).status).toBe(200);
    const claimed = await t.services.refunds.claim(50);
    const [ours] = await refundsOf(t, eventId);
    const attempt = claimed.find((item) => item.refundId === ours!.id)!;
    const transactionId = receiptNo('A');
    expect((await t.api('POST', '/api/internal/refunds/result', { headers: internalHeaders(t), body: { originatorConversationId: attempt.originatorConversationId, resultCode: '0', resultDesc: 'ok', transactionId, amount: 500, source: 'callback' } })).body).toMatchObject({ status: 'succeeded' });

    const clean = await providerView();
    expect(clean.refunds.map((refund) => refund.transactionId)).toContain(transactionId);
    const fine = await audit(clean);
    expect(fine.status).toBe(200);
    expect(fine.body).toEqual({ discrepancies: [], notices: [], checked: { payments: clean.payments.length, refunds: clean.refunds.length, payouts: 0 } });

    // Planted: M-Pesa paid one refund twice, took another amount for a payment, lost a refund we think succeeded,
    // and a payment we never recorded.
    const [first, ...rest] = clean.payments;
    const planted = await audit({
      payments: [{ ...first!, amount: first!.amount + 1 }, ...rest, { receipt: receiptNo('Z'), amount: 700, phone: '254799999999' }],
      refunds: [{ transactionId: receiptNo('D'), originatorConversationId: attempt.originatorConversationId, amount: 500, kind: 'reversal' }, ...clean.refunds.filter((refund) => refund.transactionId !== transactionId)],
    });
    expect(planted.status).toBe(200);
    // The ledger's clearing account no longer matches those books either (701 more in payments than it holds).
    expect(planted.body.discrepancies.map((found: { kind: string }) => found.kind).sort()).toEqual(['ledger-clearing', 'payment-amount', 'payment-unknown', 'refund-missing-at-provider', 'refund-unknown']);
    expect(planted.body.discrepancies.find((found: { kind: string }) => found.kind === 'refund-missing-at-provider').detail).toContain(transactionId);

    // Planted in the database: a paid order's ticket voided with no refund for it.
    const keptEvent = await paidEvent('Voided gala');
    const kept = await payFor(t, baraka.token, keptEvent);
    await t.db.update(tickets).set({ voidedAt: new Date(), voidReason: 'event_cancelled' }).where(eq(tickets.orderId, kept.orderId));
    const voided = await audit(await providerView());
    expect(voided.body.discrepancies).toEqual([{ kind: 'payment-not-refunded', detail: expect.stringContaining(kept.receipt) }]);
  });

  it('finds a ticket type over its capacity, self-cancel refunds beyond what the cancelled tickets cost, and a transfer that changed its ticket', async () => {
    const eventId = await paidEvent('Typed audit gala');
    await t.db.update(events).set({ refundPolicy: 'full' }).where(eq(events.id, eventId));
    const [general] = (await t.api('GET', `/api/events/${eventId}/ticket-types`)).body.ticketTypes as Array<{ _id: string }>;
    const set = await t.api('PUT', `/api/events/${eventId}/ticket-types`, {
      token: organiser.token,
      body: { ticketTypes: [{ _id: general!._id, name: 'GA', price: 100 }, { name: 'VIP', price: 1000, capacity: 2 }] },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const [ga, vip] = set.body.ticketTypes as Array<{ _id: string }>;
    const paid = await payFor(t, chebet.token, eventId, { items: [{ typeId: vip!._id, quantity: 2 }, { typeId: ga!._id, quantity: 1 }] });
    // M-Pesa's side: this payment (a discrepancy planted above is about another); the checks below look at every ticket.
    const thisPayment = async () => {
      const view = await providerView();
      return { ...view, payments: view.payments.filter((payment) => payment.receipt === paid.receipt) };
    };
    // The other tests' payments, left out of M-Pesa's side above, are reported as not taken, and the shortcode's
    // clearing account as holding more than this one payment: not what this test checks.
    const auditOfThisPayment = async () => {
      const answer = await audit(await thisPayment());
      const about = (answer.body.discrepancies as Array<{ kind: string; detail: string }>).filter(
        (found) => found.kind !== 'ledger-clearing' && (found.kind !== 'payment-not-taken' || found.detail.includes(paid.receipt)),
      );
      return { ...(answer.body as { notices: unknown[]; checked: unknown }), discrepancies: about };
    };
    type Held = { _id: string; ticketType: { _id: string } | null; event: { _id: string } };
    const bought = ((await t.api('GET', '/api/tickets/mine', { token: chebet.token })).body as Held[]).filter((ticket) => ticket.event._id === eventId);
    const gaTicket = bought.find((ticket) => ticket.ticketType?._id === ga!._id)!;
    const vipTicket = bought.find((ticket) => ticket.ticketType?._id === vip!._id)!;
    // One VIP and the GA are given to Amani, who cancels the GA: 100 comes back to Chebet, what that ticket cost.
    for (const ticket of [vipTicket, gaTicket]) expect((await t.api('POST', `/api/tickets/${ticket._id}/transfer`, { token: chebet.token, body: { to: amani.user.username } })).status).toBe(200);
    const received = await t.db.select().from(tickets).where(and(eq(tickets.eventId, eventId), isNotNull(tickets.transferredFrom)));
    const receivedGa = received.find((row) => row.transferredFrom === gaTicket._id)!;
    const receivedVip = received.find((row) => row.transferredFrom === vipTicket._id)!;
    const cancelled = await t.api('POST', '/api/tickets/cancel', { token: amani.token, body: { ticketIds: [receivedGa.id] } });
    expect(cancelled.body.refundAmount).toBe(100);
    expect(await auditOfThisPayment()).toEqual({ discrepancies: [], notices: [], checked: { payments: 1, refunds: expect.any(Number), payouts: 0 } });

    // Planted: the VIP type cut to one seat under its two valid tickets, the cancelled GA marked as costing 40
    // (refunded 100), and the received VIP marked as costing less than the VIP it replaced.
    const vipTypeRow = eq(ticketTypes.id, vip!._id);
    await t.db.update(ticketTypes).set({ capacity: 1 }).where(vipTypeRow);
    await t.db.update(tickets).set({ pricePaid: 40 }).where(eq(tickets.id, receivedGa.id));
    await t.db.update(tickets).set({ pricePaid: 999 }).where(eq(tickets.id, receivedVip.id));
    const found = (await auditOfThisPayment()).discrepancies;
    expect(found.map((item) => item.kind).sort()).toEqual(['refund-exceeds-tickets', 'transfer-changed-ticket', 'transfer-changed-ticket', 'type-over-capacity']);
    expect(found.find((item) => item.kind === 'type-over-capacity')!.detail).toContain('has 2 valid tickets for 1 seats');
    expect(found.find((item) => item.kind === 'refund-exceeds-tickets')!.detail).toContain('paid 40 but were refunded 100');
    expect(found.filter((item) => item.kind === 'transfer-changed-ticket').map((item) => item.detail).join(' ')).toContain(receivedVip.id);

    // Put back as it was: the books are clean again.
    await t.db.update(ticketTypes).set({ capacity: 2 }).where(vipTypeRow);
    await t.db.update(tickets).set({ pricePaid: 100 }).where(eq(tickets.id, receivedGa.id));
    await t.db.update(tickets).set({ pricePaid: 1000 }).where(eq(tickets.id, receivedVip.id));
    expect((await auditOfThisPayment()).discrepancies).toEqual([]);
  });
});

describe('GET /api/events/:id/refunds', () => {
  const summary = (eventId: string, as: Session | undefined) => t.api('GET', `/api/events/${eventId}/refunds`, { token: as?.token });

  it('shows the organiser (and admins) the cancelled, voided and transferred tickets and every refund by status, without phones or emails; strangers are refused', async () => {
    const eventId = await paidEvent('Refund summary gala');
    await t.db.update(events).set({ refundPolicy: 'full' }).where(eq(events.id, eventId));
    await payFor(t, amani.token, eventId, { quantity: 2, phone: '254711000021' });
    await payFor(t, baraka.token, eventId, { phone: '254711000022' });
    await payFor(t, chebet.token, eventId, { phone: '254711000023' });
    const mine = async (who: Session) =>
      ((await t.api('GET', '/api/tickets/mine', { token: who.token })).body as Array<{ _id: string; event: { _id: string } }>).filter((ticket) => ticket.event._id === eventId);

    const empty = await summary(eventId, organiser);
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ eventId, tickets: { cancelledByHolders: 0, voidedByCancellation: 0, transferred: 0 }, total: { count: 0, amount: 0 }, refunds: [] });

    // Amani cancels one ticket (refunded in full, then paid out); Chebet hands hers to Baraka.
    const [amaniTicket] = await mine(amani);
    expect((await t.api('POST', '/api/tickets/cancel', { token: amani.token, body: { ticketIds: [amaniTicket!._id] } })).body.refundAmount).toBe(500);
    const [chebetTicket] = await mine(chebet);
    expect((await t.api('POST', `/api/tickets/${chebetTicket!._id}/transfer`, { token: chebet.token, body: { to: baraka.user.username } })).status).toBe(200);
    const [selfRefund] = await refundsOf(t, eventId);
    const claimed = await t.services.refunds.claim(50);
    const attempt = claimed.find((item) => item.refundId === selfRefund!.id)!;
    const transactionId = receiptNo('S');
    const result = { originatorConversationId: attempt.originatorConversationId, resultCode: '0', resultDesc: 'ok', transactionId, amount: 500, source: 'callback' };
    expect((await t.api('POST', '/api/internal/refunds/result', { headers: internalHeaders(t), body: result })).body).toMatchObject({ status: 'succeeded' });

    // Strangers, buyers and visitors see nothing; a pending event is missing to strangers.
    expect((await summary(eventId, stranger)).status).toBe(403);
    expect((await summary(eventId, amani)).status).toBe(403);
    expect((await summary(eventId, undefined)).status).toBe(401);
    expect((await summary(await paidEvent('Pending summary gala', { status: 'pending' }), stranger)).status).toBe(404);

    expect((await cancel(eventId, organiser)).status).toBe(200);
    const res = await summary(eventId, organiser);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      eventId,
      tickets: { cancelledByHolders: 1, voidedByCancellation: 3, transferred: 1 },
      total: { count: 4, amount: 2000 },
      byStatus: { due: { count: 3, amount: 1500 }, sent: { count: 0, amount: 0 }, succeeded: { count: 1, amount: 500 }, failed: { count: 0, amount: 0 } },
    });
    const listed = res.body.refunds as Array<{ username: string; amount: number; reason: string; status: string; receipt: string | null; createdAt: string; updatedAt: string }>;
    expect(listed.map(({ username, amount, reason, status, receipt }) => ({ username, amount, reason, status, receipt })).sort((x, y) => `${x.reason}${x.username}`.localeCompare(`${y.reason}${y.username}`))).toEqual([
      { username: amani.user.username, amount: 500, reason: 'event_cancelled', status: 'due', receipt: null },
      { username: baraka.user.username, amount: 500, reason: 'event_cancelled', status: 'due', receipt: null },
      { username: chebet.user.username, amount: 500, reason: 'event_cancelled', status: 'due', receipt: null },
      { username: amani.user.username, amount: 500, reason: 'self_cancel', status: 'succeeded', receipt: transactionId },
    ]);
    for (const row of listed) expect(Date.parse(row.createdAt)).toBeGreaterThan(Date.now() - 120_000);
    // Buyers by username only: no phone number or email leaves through this list.
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/2547110000/);
    for (const buyer of [amani, baraka, chebet]) expect(text).not.toContain(buyer.user.email);

    expect((await summary(eventId, admin)).body).toEqual(res.body);
  });
});
