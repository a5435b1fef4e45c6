/**
 * The topology `npm run cluster` and docker-compose.yml run: two API instances and two payment-service
 * instances behind HAProxy, PostgreSQL, Redis and the Daraja simulator, each in its own process, exercised
 * through the balancer as browsers and M-Pesa reach it.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../src/cluster.js';
import { startTestCluster, type TestCluster } from './helpers/test-cluster.js';

let started: TestCluster;
let cluster: Cluster;
let db: pg.Client;
const sockets: Socket[] = [];

beforeAll(async () => {
  started = await startTestCluster({
    apis: 2,
    payments: 2,
    simulatorDelayMs: 300,
    env: { RATE_LIMIT_MAX: '100000' },
    paymentEnv: { RECONCILE_INTERVAL_MS: '2000' },
  });
  ({ cluster, db } = started);
});

afterAll(async () => {
  sockets.forEach((socket) => socket.close());
  await started?.close();
});

/** A request through the balancer, pinned to one API instance when `instance` is given (HAProxy's cookie). */
async function call(method: string, route: string, options: { token?: string; body?: unknown; instance?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.instance) headers.cookie = `TUKIO_SERVER=${options.instance}`;
  const response = await fetch(`${cluster.url}${route}`, { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, body: body as Record<string, unknown>, servedBy: response.headers.get('x-served-by'), setCookie: response.headers.get('set-cookie') };
}

/** A verified account made through the balancer (its email confirmed in the database, as the mailed link would). */
async function account(username: string) {
  const email = `${username}@example.com`;
  const registered = await call('POST', '/api/auth/register', { body: { username, email, password: 'secret123' } });
  expect(registered.body.status, JSON.stringify(registered.body)).toBe(true);
  await db.query('UPDATE users SET email_verified_at = now() WHERE email = $1', [email]);
  const login = await call('POST', '/api/auth/login', { body: { username, password: 'secret123' } });
  expect(login.body.status, JSON.stringify(login.body)).toBe(true);
  return { token: login.body.token as string, id: (login.body.user as { _id: string })._id };
}

/** A chat socket as a browser opens one (long-polling first, then the upgrade), kept on one API instance. */
function openSocket(token: string, instance: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(cluster.url, { auth: { token }, extraHeaders: { cookie: `TUKIO_SERVER=${instance}` }, reconnection: false, forceNew: true });
    sockets.push(socket);
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

describe('several instances behind HAProxy', () => {
  it('spreads new visitors over the API instances and keeps each on the one its cookie names', async () => {
    const served = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const res = await call('GET', '/api/health');
      expect(res.status).toBe(200);
      served.add(res.servedBy ?? 'none');
      expect(res.setCookie).toMatch(/^TUKIO_SERVER=api[12];.*HttpOnly/i);
    }
    expect([...served].sort()).toEqual(['api1', 'api2']);
    for (const instance of ['api1', 'api2']) {
      for (let i = 0; i < 3; i++) expect((await call('GET', '/api/health', { instance })).servedBy).toBe(instance);
    }
    // The client itself comes through the balancer too (the history fallback's shell, or the API's answer without a build).
    expect((await call('GET', '/api/events/admin/approved')).status).toBe(200);
  });

  it('delivers a chat message between users whose sockets are on different instances (Redis)', async () => {
    const amina = await account('amina');
    const baraka = await account('baraka');
    const aminaSocket = await openSocket(amina.token, 'api1');
    const barakaSocket = await openSocket(baraka.token, 'api2');
    // Both upgrade from long-polling to a websocket through the balancer.
    await expect.poll(() => aminaSocket.io.engine.transport.name).toBe('websocket');
    await expect.poll(() => barakaSocket.io.engine.transport.name).toBe('websocket');
    const arrival = new Promise<string>((resolve) => barakaSocket.once('msg-recieve', resolve));
    const ack = await aminaSocket.timeout(5000).emitWithAck('send-msg', { to: baraka.id, from: amina.id, message: 'Habari kutoka api1' });
    expect(ack).toMatchObject({ ok: true });
    expect(await arrival).toBe('Habari kutoka api1');
  });

  it('sells a ticket through the balancer: the prompt from one payment instance, the callback and polls through any', async () => {
    const organiser = await account('organiser');
    const buyer = await account('wanjiru');
    const eventId = randomUUID().replaceAll('-', '').slice(0, 24);
    await db.query(
      `INSERT INTO events (id, title, description, starts_at, location, status, is_paid, ticket_price, capacity, user_id)
       VALUES ($1, 'Nairobi Jazz Night', 'Live jazz', now() + interval '20 days', 'Nairobi', 'approved', true, 500, 50, $2)`,
      [eventId, organiser.id],
    );
    const phone = '254712345678';
    const push = await call('POST', '/pay/stkPush', { token: buyer.token, body: { phone, amount: 1, Order_ID: `${eventId}_${phone}`, quantity: 2 } });
    expect(push.status, JSON.stringify(push.body)).toBe(200);
    const checkoutRequestId = push.body.CheckoutRequestID as string;
    expect(checkoutRequestId).toBeTruthy();
    // Polled as the client does, each poll through the balancer to either payment instance.
    await expect
      .poll(async () => (await call('POST', '/pay/confirmPayment', { token: buyer.token, body: { CheckoutRequestID: checkoutRequestId } })).body.success, {
        timeout: 30_000,
        interval: 500,
      })
      .toBe(true);
    const { rows } = await db.query('SELECT count(*)::int AS n FROM tickets WHERE event_id = $1 AND user_id = $2', [eventId, buyer.id]);
    expect(rows[0].n).toBe(2);
    // The server's price, not the body's amount of 1.
    const paid = await db.query('SELECT amount FROM payments WHERE checkout_request_id = $1', [checkoutRequestId]);
    expect(paid.rows).toEqual([{ amount: 1000 }]);
  });

  it('keeps serving when an API instance is killed: its visitors move to the other one', async () => {
    const [first, second] = cluster.apis;
    await first!.kill();
    // No request fails: connections the dead instance refuses are sent to the live one, and the health
    // check takes it out of the rotation.
    for (let i = 0; i < 10; i++) {
      const res = await call('GET', '/api/health', { instance: first!.name });
      expect(res.status).toBe(200);
      expect(res.servedBy).toBe(second!.name);
    }
    const reader = await account('kamau');
    const mine = await call('GET', '/api/tickets/mine', { token: reader.token, instance: first!.name });
    expect(mine.status).toBe(200);
    expect(mine.servedBy).toBe(second!.name);
  });
});
