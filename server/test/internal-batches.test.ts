import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payments, tickets } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders, receiptNo } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * The payment service records pushes and settles payments in batches during a burst (POST /pushes/batch,
 * /settle/batch): each item is answered with the status and body its own request would have had, so one
 * refused item neither fails nor changes the others.
 */

let t: TestServer;
let buyer: { token: string; user: { _id: string } };
let organiser: { token: string; user: { _id: string } };

beforeAll(async () => {
  t = await startTestServer();
  organiser = await t.createUser('batchorganiser');
  buyer = await t.createUser('batchbuyer');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

interface BatchAnswer {
  results: Array<{ status: number; body: Record<string, any> }>;
}

const internal = <T = any>(path: string, body: unknown) => t.api<T>('POST', `/api/internal/payments${path}`, { headers: internalHeaders(t), body });
const checkoutId = () => `ws_CO_${randomBytes(8).toString('hex')}`;

async function holdOrders(eventId: string, count: number) {
  const held = [];
  for (let i = 0; i < count; i++) {
    const order = await t.api('POST', '/api/internal/payments/orders', { token: buyer.token, headers: internalHeaders(t), body: { eventId, quantity: 1, phone: '254712345678' } });
    expect(order.status).toBe(201);
    held.push({ orderId: order.body.orderId as string, amount: order.body.amount as number });
  }
  return held;
}

describe('internal batches', () => {
  it('records each push of a batch as POST /pushes would, a refused one beside the others', async () => {
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 9, price: 300, title: 'Batch Night' });
    const [first, second, third] = await holdOrders(eventId, 3);
    const taken = checkoutId();
    expect((await internal('/pushes', { orderId: first!.orderId, checkoutRequestId: taken, merchantRequestId: 'mr-1' })).status).toBe(201);

    const secondPush = checkoutId();
    const answer = await internal<BatchAnswer>('/pushes/batch', {
      items: [
        { orderId: second!.orderId, checkoutRequestId: secondPush, merchantRequestId: 'mr-2' },
        { orderId: 'f'.repeat(24), checkoutRequestId: checkoutId(), merchantRequestId: 'mr-x' },
        { orderId: third!.orderId, checkoutRequestId: taken, merchantRequestId: 'mr-3' },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.results.map((result) => result.status)).toEqual([201, 404, 409]);
    expect(answer.body.results[0]!.body).toMatchObject({ checkoutRequestId: secondPush });
    expect(answer.body.results[1]!.body.message).toEqual(expect.any(String));
    expect(answer.body.results[2]!.body.message).toEqual(expect.any(String));
    // The same push again is still answered as recorded (idempotent), and the refused ones recorded nothing.
    const again = await internal<BatchAnswer>('/pushes/batch', { items: [{ orderId: second!.orderId, checkoutRequestId: secondPush, merchantRequestId: 'mr-2' }] });
    expect(again.body.results[0]!.status).toBe(201);
    const rows = await t.db.select({ orderId: payments.orderId, checkoutRequestId: payments.checkoutRequestId }).from(payments).where(inArray(payments.orderId, [first!.orderId, second!.orderId, third!.orderId]));
    expect(rows.sort((a, b) => a.orderId.localeCompare(b.orderId))).toEqual(
      [
        { orderId: first!.orderId, checkoutRequestId: taken },
        { orderId: second!.orderId, checkoutRequestId: secondPush },
      ].sort((a, b) => a.orderId.localeCompare(b.orderId)),
    );
  });

  it('settles each payment of a batch as POST /settle would: paid, cancelled, unknown and doubtful side by side', async () => {
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 9, price: 450, title: 'Batch Gala' });
    const held = await holdOrders(eventId, 3);
    const pushes = held.map((order) => ({ ...order, checkoutRequestId: checkoutId() }));
    const recorded = await internal<BatchAnswer>('/pushes/batch', {
      items: pushes.map((push) => ({ orderId: push.orderId, checkoutRequestId: push.checkoutRequestId, merchantRequestId: `mr-${push.checkoutRequestId}` })),
    });
    expect(recorded.body.results.map((result) => result.status)).toEqual([201, 201, 201]);

    const [paid, cancelled, doubtful] = pushes;
    const success = (push: typeof paid, amount: number) => ({
      checkoutRequestId: push!.checkoutRequestId,
      merchantRequestId: `mr-${push!.checkoutRequestId}`,
      resultCode: 0,
      resultDesc: 'The service request is processed successfully.',
      amount,
      mpesaReceiptNumber: receiptNo('B'),
      phone: '254712345678',
      source: 'callback',
    });
    const answer = await internal<BatchAnswer>('/settle/batch', {
      items: [
        success(paid, paid!.amount),
        { checkoutRequestId: cancelled!.checkoutRequestId, merchantRequestId: `mr-${cancelled!.checkoutRequestId}`, resultCode: 1032, resultDesc: 'Request cancelled by user', source: 'callback' },
        { checkoutRequestId: checkoutId(), resultCode: 1032, resultDesc: 'Request cancelled by user', source: 'callback' },
        success(doubtful, doubtful!.amount - 1),
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.results.map((result) => result.status)).toEqual([200, 200, 404, 409]);
    expect(answer.body.results[0]!.body).toMatchObject({ status: 'success', orderStatus: 'paid', ticketsIssued: 1, changed: true });
    expect(answer.body.results[1]!.body).toMatchObject({ status: 'cancelled', changed: true });
    expect(answer.body.results[3]!.body).toMatchObject({ doubtful: true });

    const orderStatus = async (orderId: string) => (await t.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)))[0]?.status;
    expect(await orderStatus(paid!.orderId)).toBe('paid');
    expect(await orderStatus(cancelled!.orderId)).toBe('cancelled');
    expect(await orderStatus(doubtful!.orderId)).toBe('pending');
    expect(await t.db.select().from(tickets).where(eq(tickets.eventId, eventId))).toHaveLength(1);

    // A repeated callback in a later batch changes nothing.
    const repeated = await internal<BatchAnswer>('/settle/batch', { items: [success(paid, paid!.amount)] });
    expect(repeated.body.results[0]).toMatchObject({ status: 200, body: { changed: false } });
    expect(await t.db.select().from(tickets).where(eq(tickets.eventId, eventId))).toHaveLength(1);
  });

  it('refuses an empty or oversized batch, naming the field, and changes nothing', async () => {
    const empty = await internal('/settle/batch', { items: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.field).toBe('items');
    const item = { checkoutRequestId: checkoutId(), resultCode: 1032, resultDesc: 'x', source: 'callback' };
    const oversized = await internal('/settle/batch', { items: Array.from({ length: 101 }, () => item) });
    expect(oversized.status).toBe(400);
    expect(oversized.body.field).toBe('items');
  });
});
