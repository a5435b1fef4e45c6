import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEventRow } from './helpers/events.js';
import { payFor, settle } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * The payment dialog's push (docs/decisions/payments.md, "Payment results by push"): a socket on /payments follows a
 * push by its CheckoutRequestID, without a login, and hears `payment:settled` once its result is recorded; it
 * learns nothing else (confirmPayment still answers only the payment's owner).
 */
let t: TestServer;
let organiser: Awaited<ReturnType<TestServer['createUser']>>;
const sockets: Socket[] = [];
let phoneCounter = 0;
const freshPhone = () => `2547119${String(++phoneCounter).padStart(5, '0')}`;

const open = () =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect(`${t.url}/payments`, { transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
const follow = (socket: Socket, checkoutRequestId: unknown) =>
  socket.timeout(3000).emitWithAck('payment:follow', { checkoutRequestId }) as Promise<{ ok: boolean; settled?: boolean; msg?: string }>;
const heard = (socket: Socket) => {
  const list: unknown[] = [];
  socket.on('payment:settled', (message: unknown) => list.push(message));
  return list;
};
const paidEvent = () => insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price: 700, capacity: 50, title: 'Push night' });

beforeAll(async () => {
  t = await startTestServer();
  organiser = await t.createUser('pushorganiser');
}, 60_000);
afterAll(async () => {
  sockets.forEach((socket) => socket.close());
  await t?.close();
});

describe('payment results by push', () => {
  it("tells a guest's follower the moment the result is recorded, and only that follower", async () => {
    const eventId = await paidEvent();
    const pending = await payFor(t, undefined, eventId, { phone: freshPhone(), settle: false });
    const other = await payFor(t, undefined, eventId, { phone: freshPhone(), settle: false });
    const [mine, theirs] = [await open(), await open()];
    const toMine = heard(mine);
    const toTheirs = heard(theirs);
    expect(await follow(mine, pending.checkoutRequestId)).toEqual({ ok: true, settled: false });
    expect(await follow(theirs, other.checkoutRequestId)).toEqual({ ok: true, settled: false });
    const message = new Promise((resolve) => mine.once('payment:settled', resolve));
    expect((await settle(t, pending)).body.orderStatus).toBe('paid');
    // Only that something changed: the dialog asks confirmPayment for the rest.
    expect(await message).toEqual({ checkoutRequestId: pending.checkoutRequestId });
    // The other follower's round trip comes after anything sent to it before: nothing was.
    expect(await follow(theirs, other.checkoutRequestId)).toEqual({ ok: true, settled: false });
    expect(toTheirs).toEqual([]);
    expect(toMine).toHaveLength(1);
    // A duplicate callback records nothing new, and pushes nothing.
    await settle(t, pending);
    expect(await follow(mine, pending.checkoutRequestId)).toEqual({ ok: true, settled: true });
    expect(toMine).toHaveLength(1);
  });

  it("says in the acknowledgement that a member's result was recorded before the follow, and confirm still answers only the owner", async () => {
    const eventId = await paidEvent();
    const buyer = await t.createUser('pushbuyer');
    const paid = await payFor(t, buyer.token, eventId, { phone: freshPhone() });
    const late = await open();
    expect(await follow(late, paid.checkoutRequestId)).toEqual({ ok: true, settled: true });
    const stranger = await t.api('POST', '/pay/confirmPayment', { body: { CheckoutRequestID: paid.checkoutRequestId } });
    expect(stranger.status).toBe(401);
    const owner = await t.api('POST', '/pay/confirmPayment', { token: buyer.token, body: { CheckoutRequestID: paid.checkoutRequestId } });
    expect(owner.body).toMatchObject({ success: true, status: 'success' });
  });

  it('refuses a follow without a CheckoutRequestID, and more than ten on one connection', async () => {
    const socket = await open();
    expect(await follow(socket, '')).toMatchObject({ ok: false });
    expect(await follow(socket, { not: 'an id' })).toMatchObject({ ok: false });
    for (let i = 0; i < 10; i += 1) expect(await follow(socket, `ws_CO_unknown${i}`)).toEqual({ ok: true, settled: false });
    expect(await follow(socket, 'ws_CO_unknown10')).toMatchObject({ ok: false, msg: 'Too many payments followed on one connection.' });
  });

  it('needs no login on /payments while the chat namespace still refuses a socket without a token', async () => {
    const chat = connect(t.url, { transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(chat);
    const refused = await new Promise<string>((resolve) => chat.once('connect_error', (error) => resolve(error.message)));
    expect(refused).toBe('Authentication required');
    expect((await open()).connected).toBe(true);
  });
});
