import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/lib/logger.js';
import { createAdmissionControl, createMemorySharedRate, createRedisSharedRate } from '../src/modules/waiting-room/index.js';
import { percentile, voteFor, type AdmissionBounds, type PeriodSamples } from '../src/modules/waiting-room/admission-control.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * The waiting room's admission rate follows what the deployment sustains (docs/decisions/waiting-room.md):
 * slow seat holds or a late event loop lower it for every instance, fast holds with buyers waiting raise it.
 */

const bounds: AdmissionBounds = { initial: 50, min: 5, max: 200, step: 5, factor: 0.7, periodMs: 1000 };

describe('the vote of one period', () => {
  it('is down when holds, pushes or the event loop are slower than their targets, up when buyers wait and there is room', () => {
    const fast = Array.from({ length: 20 }, () => 20);
    const quickPushes = Array.from({ length: 20 }, () => 300);
    const targets = { targetMs: 250, pushTargetMs: 1500 };
    const vote = (period: Partial<PeriodSamples>) => voteFor({ holdsMs: fast, pushesMs: quickPushes, loopDelayMs: 5, queued: true, ...period }, targets);
    expect(vote({})).toBe('up');
    // Nobody waiting: nothing to gain from a higher rate.
    expect(vote({ queued: false })).toBe('hold');
    // One slow hold in twenty is under the 90th percentile; three are not.
    expect(vote({ holdsMs: [...fast.slice(1), 900] })).toBe('up');
    expect(vote({ holdsMs: [...fast.slice(3), 900, 900, 900] })).toBe('down');
    expect(vote({ loopDelayMs: 400 })).toBe('down');
    // Between half the target and the target: stay.
    expect(vote({ holdsMs: fast.map(() => 180) })).toBe('hold');
    // Quick holds, but whole pushes slow beyond the API (the payment service or M-Pesa): down; no pushes: holds decide.
    expect(vote({ pushesMs: [...quickPushes.slice(3), 4000, 5000, 6000] })).toBe('down');
    expect(vote({ pushesMs: quickPushes.map(() => 1000) })).toBe('hold');
    expect(vote({ pushesMs: [] })).toBe('up');
    expect(percentile([], 0.9)).toBe(0);
    expect(percentile([5, 1, 3], 0.5)).toBe(3);
  });
});

describe.each([
  ['in this process', async () => ({ rate: createMemorySharedRate(), close: async () => undefined })],
  [
    'in Redis, for every instance',
    async () => {
      const redis = createClient({ url: process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379' });
      await redis.connect();
      return { rate: createRedisSharedRate(redis, `tukio-test-${randomUUID()}:`), close: async () => void (await redis.quit()) };
    },
  ],
])('the shared rate %s', (_name, open) => {
  let shared: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    shared = await open();
  });
  afterAll(async () => {
    await shared.close();
  });

  it('falls by 0.7 once a period whoever votes, rises only after three quiet periods, within its bounds', async () => {
    const fastBounds = { ...bounds, periodMs: 200 };
    expect(await shared.rate.vote('hold', fastBounds)).toBe(50);
    expect(await shared.rate.vote('down', fastBounds)).toBeCloseTo(35);
    // A second instance's down vote in the same period changes nothing more.
    expect(await shared.rate.vote('down', fastBounds)).toBeCloseTo(35);
    // Right after a decrease an up vote waits for three periods.
    expect(await shared.rate.vote('up', fastBounds)).toBeCloseTo(35);
    await vi.waitFor(async () => expect(await shared.rate.vote('up', fastBounds)).toBeCloseTo(40), { timeout: 15_000, interval: 50 });
    // Many down periods end at the floor, not below.
    await vi.waitFor(async () => expect(await shared.rate.vote('down', fastBounds)).toBe(5), { timeout: 10_000, interval: 100 });
  });
});

describe('one instance under load', () => {
  it('lowers its rate when its event loop runs late and raises it back while buyers wait', async () => {
    const logger = createLogger('silent');
    const control = createAdmissionControl({ adaptive: true, initial: 20, min: 2, max: 100, targetMs: 100, pushTargetMs: 1000, periodMs: 100 }, createMemorySharedRate(), logger);
    control.start();
    try {
      // The loop blocked for longer than the target: the next period votes down.
      const blockLoop = () => {
        const until = performance.now() + 250;
        while (performance.now() < until);
      };
      blockLoop();
      await vi.waitFor(() => expect(control.perSecond).toBeLessThan(20), { timeout: 15_000, interval: 20 });
      const lowered = control.perSecond;
      // Buyers turned away to wait while holds are quick: it climbs again.
      await vi.waitFor(
        () => {
          control.observeQueued();
          control.observeHold(5);
          expect(control.perSecond).toBeGreaterThan(lowered);
        },
        { timeout: 10_000, interval: 20 },
      );
    } finally {
      control.stop();
    }
  });

  it('stays where it was configured with WAITING_ROOM_ADAPTIVE=false', async () => {
    const control = createAdmissionControl({ adaptive: false, initial: 20, min: 2, max: 100, targetMs: 100, pushTargetMs: 1000, periodMs: 50 }, createMemorySharedRate(), createLogger('silent'));
    control.start();
    control.observeHold(10_000);
    expect(control.perSecond).toBe(20);
    control.stop();
  });
});

describe('a sale through the API', () => {
  let t: TestServer;
  const metricsToken = 'admission-metrics-token';
  beforeAll(async () => {
    // One buyer a second; a target a busy test machine does not miss by itself (a second of lateness).
    t = await startTestServer({ WAITING_ROOM_ADAPTIVE: 'true', WAITING_ROOM_RATE: '1', WAITING_ROOM_BURST: '1', WAITING_ROOM_RATE_MIN: '0.1', WAITING_ROOM_TARGET_MS: '1000', METRICS_TOKEN: metricsToken });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const admissionRate = async () => {
    const text = await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
    const line = text.split('\n').find((row) => /^waiting_room_admission_rate /.test(row));
    if (!line) throw new Error('no admission rate among the metrics');
    return Number(line.split(' ')[1]);
  };

  it('admits fewer buyers a second while the server is overloaded, and the line keeps moving', async () => {
    const organiser = await t.createUser('rateorganiser');
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price: 500, capacity: 1000, title: 'Blankets and Wine' });
    const buyers = await Promise.all(['amani', 'bahati'].map((name) => t.createUser(`rate${name}`)));
    const hold = (token: string) => t.api('POST', '/api/internal/payments/orders', { token, headers: internalHeaders(t), body: { eventId, quantity: 1, phone: '254712345678' } });
    expect(await admissionRate()).toBe(1);
    const first = await hold(buyers[0]!.token);
    expect(first.status).toBe(201);
    expect((await hold(buyers[1]!.token)).status).toBe(429);

    // The server's loop stalls (this test runs in the server's process): the next period votes the rate down.
    const until = performance.now() + 1500;
    while (performance.now() < until);
    await vi.waitFor(async () => expect(await admissionRate()).toBeLessThan(1), { timeout: 10_000, interval: 100 });
    // The line still moves, at the lower rate: the buyer who waited is let in.
    await vi.waitFor(async () => expect((await t.api('GET', `/api/events/${eventId}/queue`, { token: buyers[1]!.token })).body).toMatchObject({ admitted: true }), {
      timeout: 10_000,
      interval: 200,
    });
    const held = await hold(buyers[1]!.token);
    expect(held.status).toBe(201);
    // Both pushes end (as when M-Pesa refuses them): holds left without a push would count as stuck pushes below.
    for (const orderId of [first.body.orderId, held.body.orderId]) {
      expect((await t.api('POST', `/api/internal/payments/orders/${orderId}/abandon`, { headers: internalHeaders(t), body: { reason: 'push refused' } })).status).toBe(200);
    }
  });

  it('raises the rate while buyers wait in the line and holds are quick', async () => {
    const organiser = await t.createUser('raiseorganiser');
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price: 500, capacity: 1000, title: 'Lamu Cultural Festival' });
    const buyers = await Promise.all(['juma', 'kendi', 'lulu', 'makena', 'nuru', 'otieno', 'pendo', 'rehema'].map((name) => t.createUser(`raise${name}`)));
    const before = await admissionRate();
    // Our client takes a place first and asks when its turn comes (no refused pushes): that is waiting too.
    for (const buyer of buyers) expect((await t.api('POST', `/api/events/${eventId}/queue`, { token: buyer.token })).status).toBe(200);
    await vi.waitFor(
      async () => {
        await t.api('GET', `/api/events/${eventId}/queue`, { token: buyers.at(-1)!.token });
        expect(await admissionRate()).toBeGreaterThan(before);
      },
      { timeout: 20_000, interval: 300 },
    );
  });

  /** A new buyer of a new event takes a place, is admitted and holds a seat; answers the held order. */
  async function admittedHold(name: string, title: string) {
    const organiser = await t.createUser(`${name}organiser`);
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price: 500, capacity: 1000, title });
    const buyer = await t.createUser(`${name}buyer`);
    await vi.waitFor(async () => expect((await t.api('POST', `/api/events/${eventId}/queue`, { token: buyer.token })).body).toMatchObject({ admitted: true }), { timeout: 20_000, interval: 300 });
    const order = await t.api('POST', '/api/internal/payments/orders', { token: buyer.token, headers: internalHeaders(t), body: { eventId, quantity: 1, phone: '254712345678' } });
    expect(order.status).toBe(201);
    return order;
  }

  it('admits fewer buyers a second when whole pushes are slow beyond the API, though its holds are quick', async () => {
    const order = await admittedHold('push', 'Koroga Festival');
    const before = await admissionRate();
    // The payment service reports each push's whole time with its record: M-Pesa answering in 8 s is past what the sale sustains.
    const slowPush = { orderId: order.body.orderId, checkoutRequestId: `ws_CO_slow${randomUUID().slice(0, 8)}`, merchantRequestId: 'mr-slow', pushMs: 8000 };
    await vi.waitFor(
      async () => {
        const recorded = await t.api('POST', '/api/internal/payments/pushes/batch', { headers: internalHeaders(t), body: { items: [slowPush] } });
        expect(recorded.body.results[0].status).toBe(201);
        expect(await admissionRate()).toBeLessThan(before);
      },
      { timeout: 20_000, interval: 300 },
    );
  });

  it('admits fewer buyers a second while seat holds wait for their push beyond the push target', async () => {
    const before = await admissionRate();
    // Held, and its push never recorded (the payment service or M-Pesa saturated): no push time ever comes back.
    const order = await admittedHold('stuck', 'Safari Sevens');
    await vi.waitFor(async () => expect(await admissionRate()).toBeLessThan(before), { timeout: 20_000, interval: 300 });
    expect((await t.api('POST', `/api/internal/payments/orders/${order.body.orderId}/abandon`, { headers: internalHeaders(t), body: { reason: 'push refused' } })).status).toBe(200);
  });
});

