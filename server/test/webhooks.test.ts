import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders, payFor, receiptNo, refundsOf, sendRefunds, startRefundDesk, type RefundDesk } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Organisers' webhooks over HTTP (docs/decisions/webhooks.md): a receiver inside the test checks each
 * Standard Webhooks signature by recomputing the HMAC, fails the first delivery with 500 and takes the retry;
 * the delivery log shows both attempts, and "send again" sends once more.
 */

interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  status: number;
}

let t: TestServer;
let desk: RefundDesk;
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      // The very first delivery fails: the sender must retry it.
      const status = received.length === 0 ? 500 : 200;
      received.push({ id: String(req.headers['webhook-id']), timestamp: String(req.headers['webhook-timestamp']), signature: String(req.headers['webhook-signature']), body: Buffer.concat(chunks).toString('utf8'), status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  // A stand-in payment service takes the refunds an event cancellation sends.
  desk = await startRefundDesk();
  t = await startTestServer({ WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_POLL_MS: '100', WEBHOOKS_RETRY_BASE_MS: '200', PAYMENT_PORT: String(desk.port), REFUND_RESULT_WAIT_MS: '3600000' });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => receiver.close(resolve));
  await desk?.close();
});

/** The signature as a receiver computes it: HMAC-SHA256 of `id.timestamp.body` with the base64 key after `whsec_`. */
const expectedSignature = (secret: string, delivery: Received) =>
  `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(`${delivery.id}.${delivery.timestamp}.${delivery.body}`).digest('base64')}`;

describe('webhooks', () => {
  it('signs order.paid and ticket.checked_in, retries a 500, logs both attempts and sends again', async () => {
    const organiser = await t.createUser('hookorg');
    const buyer = await t.createUser('hookbuyer');
    const added = await t.api('POST', '/api/webhooks', { token: organiser.token, body: { url: receiverUrl, events: ['order.paid', 'ticket.checked_in'] } });
    expect(added.status).toBe(201);
    const secret = added.body.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const listed = await t.api('GET', '/api/webhooks', { token: organiser.token });
    expect(listed.body.endpoints).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 5, price: 500, capacity: 20 });
    const paid = await payFor(t, buyer.token, eventId);

    // The first attempt got 500; the retry came with the same id and both are in the log.
    await vi.waitFor(() => expect(received.filter((delivery) => delivery.status === 200)).toHaveLength(1), { timeout: 15_000, interval: 50 });
    const [first, retry] = received;
    expect(retry!.id).toBe(first!.id);
    for (const delivery of received) expect(delivery.signature).toBe(expectedSignature(secret, delivery));
    const orderPaid = JSON.parse(retry!.body);
    expect(orderPaid).toMatchObject({ id: first!.id, type: 'order.paid', data: { orderId: paid.orderId, eventId, quantity: 1, amount: paid.amount } });
    const log = await t.api('GET', '/api/webhooks/deliveries', { token: organiser.token });
    expect(log.body.deliveries).toHaveLength(1);
    expect(log.body.deliveries[0]).toMatchObject({ _id: first!.id, eventType: 'order.paid', status: 'delivered', lastStatusCode: 200 });
    expect(log.body.deliveries[0].attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([500, 200]);

    // Checking the ticket in at the door is a fact too.
    const [ticket] = (await t.api('GET', '/api/tickets/mine', { token: buyer.token })).body;
    expect((await t.api('POST', `/api/events/${eventId}/checkin`, { token: organiser.token, body: { code: ticket.code } })).status).toBe(200);
    await vi.waitFor(() => expect(received).toHaveLength(3), { timeout: 15_000, interval: 50 });
    expect(JSON.parse(received[2]!.body)).toMatchObject({ type: 'ticket.checked_in', data: { eventId, ticketId: ticket._id, orderId: paid.orderId } });
    expect(received[2]!.signature).toBe(expectedSignature(secret, received[2]!));

    // Send again: the same delivery (same id), a new attempt in the log.
    expect((await t.api('POST', `/api/webhooks/deliveries/${first!.id}/send-again`, { token: organiser.token })).status).toBe(202);
    await vi.waitFor(() => expect(received).toHaveLength(4), { timeout: 15_000, interval: 50 });
    expect(received[3]!.id).toBe(first!.id);
    await vi.waitFor(
      async () => {
        const again = await t.api('GET', '/api/webhooks/deliveries', { token: organiser.token });
        const delivery = again.body.deliveries.find((entry: { _id: string }) => entry._id === first!.id);
        expect(delivery.attempts).toHaveLength(3);
        expect(delivery.status).toBe('delivered');
      },
      { timeout: 10_000, interval: 50 },
    );
    // Another organiser cannot send it again.
    const stranger = await t.createUser('hookstranger');
    expect((await t.api('POST', `/api/webhooks/deliveries/${first!.id}/send-again`, { token: stranger.token })).status).toBe(404);
  });

  it('a cancelled event tells ticket.cancelled with its void tickets', async () => {
    const organiser = await t.createUser('hookcanceller');
    await t.api('POST', '/api/webhooks', { token: organiser.token, body: { url: receiverUrl, events: ['ticket.cancelled'] } });
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 5, price: 250, capacity: 5 });
    const buyer = await t.createUser('hookbuyer3');
    await payFor(t, buyer.token, eventId);
    const [ticket] = (await t.api('GET', '/api/tickets/mine', { token: buyer.token })).body;
    expect((await t.api('POST', `/api/events/${eventId}/cancel`, { token: organiser.token, body: { reason: 'Venue flooded' } })).status).toBe(200);
    await vi.waitFor(() => expect(received.some((delivery) => JSON.parse(delivery.body).type === 'ticket.cancelled')).toBe(true), { timeout: 15_000, interval: 50 });
    const cancelled = JSON.parse(received.find((delivery) => JSON.parse(delivery.body).type === 'ticket.cancelled')!.body);
    expect(cancelled.data).toMatchObject({ eventId, ticketIds: [ticket._id], reason: 'event_cancelled' });
  });

  it('tells ticket.transferred when a holder gives a ticket away, and refund.succeeded when M-Pesa pays a refund back', async () => {
    const organiser = await t.createUser('hookgiver');
    const added = await t.api('POST', '/api/webhooks', { token: organiser.token, body: { url: receiverUrl, events: ['ticket.transferred', 'refund.succeeded'] } });
    const secret = added.body.secret as string;
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 5, price: 400, capacity: 5 });
    const holder = await t.createUser('hookholder');
    const friend = await t.createUser('hookfriend');
    const paid = await payFor(t, holder.token, eventId);
    const [ticket] = (await t.api('GET', '/api/tickets/mine', { token: holder.token })).body;
    expect((await t.api('POST', `/api/tickets/${ticket._id}/transfer`, { token: holder.token, body: { to: friend.user.username } })).status).toBe(200);
    const [given] = (await t.api('GET', '/api/tickets/mine', { token: friend.token })).body;
    const ofType = (type: string) => received.filter((delivery) => JSON.parse(delivery.body).type === type && delivery.status === 200);
    await vi.waitFor(() => expect(ofType('ticket.transferred')).toHaveLength(1), { timeout: 15_000, interval: 50 });
    const [transferred] = ofType('ticket.transferred');
    expect(transferred!.signature).toBe(expectedSignature(secret, transferred!));
    expect(JSON.parse(transferred!.body).data).toEqual({ eventId, ticketId: ticket._id, newTicketId: given._id, orderId: paid.orderId });

    // The organiser cancels: the order's refund goes to M-Pesa, and its result says it was paid.
    expect((await t.api('POST', `/api/events/${eventId}/cancel`, { token: organiser.token, body: { reason: 'Rain' } })).status).toBe(200);
    const [refund] = await sendRefunds(t, desk, (await refundsOf(t, eventId)).map((row) => row.id));
    const transactionId = receiptNo('R');
    const result = await t.api('POST', '/api/internal/refunds/result', {
      headers: internalHeaders(t),
      body: { originatorConversationId: refund!.originatorConversationId, resultCode: 0, resultDesc: 'The service request is processed successfully.', transactionId, amount: paid.amount, source: 'callback' },
    });
    expect(result.body).toMatchObject({ refundId: refund!.refundId, status: 'succeeded' });
    await vi.waitFor(() => expect(ofType('refund.succeeded')).toHaveLength(1), { timeout: 15_000, interval: 50 });
    const [succeeded] = ofType('refund.succeeded');
    expect(succeeded!.signature).toBe(expectedSignature(secret, succeeded!));
    expect(JSON.parse(succeeded!.body).data).toMatchObject({ refundId: refund!.refundId, orderId: paid.orderId, eventId, amount: paid.amount, receipt: transactionId });
  });

  it('removing an endpoint stops new deliveries', async () => {
    const organiser = await t.createUser('hookremover');
    const added = await t.api('POST', '/api/webhooks', { token: organiser.token, body: { url: receiverUrl, events: ['order.paid'] } });
    expect((await t.api('DELETE', `/api/webhooks/${added.body.endpoint._id}`, { token: organiser.token })).status).toBe(200);
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 5, price: 300, capacity: 5 });
    await payFor(t, (await t.createUser('hookbuyer2')).token, eventId);
    const log = await t.api('GET', '/api/webhooks/deliveries', { token: organiser.token });
    expect(log.body.deliveries).toEqual([]);
  });
});

describe('webhook addresses without WEBHOOKS_ALLOW_PRIVATE', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startTestServer();
  }, 60_000);
  afterAll(async () => {
    await strict?.close();
  });

  it('refuses http, loopback, private and link-local addresses', async () => {
    const organiser = await strict.createUser('strictorg');
    for (const url of [receiverUrl, 'https://127.0.0.1/hooks', 'https://localhost/hooks', 'https://10.1.2.3/hooks', 'https://192.168.0.10/hooks', 'https://169.254.169.254/latest', 'https://[::1]/hooks', 'ftp://example.com/x']) {
      const res = await strict.api('POST', '/api/webhooks', { token: organiser.token, body: { url, events: ['order.paid'] } });
      expect(res.status, url).toBe(400);
      expect(res.body.code, url).toBe('webhook_url_refused');
    }
    expect((await strict.api('POST', '/api/webhooks', { token: organiser.token, body: { url: 'https://example.com/hooks', events: ['payout.paid'] } })).status).toBe(201);
  });
});
