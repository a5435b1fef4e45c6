import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryWaitingRoomStore, createRedisWaitingRoomStore, createWaitingRoomService } from '../src/modules/waiting-room/index.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders } from './helpers/refunds.js';
import { startTestServer, startTwoInstancesOnRedis, type TestServer } from './helpers/test-server.js';

/**
 * The waiting room of a busy sale (docs/decisions/waiting-room.md): seat holds are admitted in arrival
 * order at WAITING_ROOM_RATE per second once WAITING_ROOM_BURST buyers came at once; a buyer not admitted
 * gets 429 `waiting_room_queued` with their kept place, and GET /api/events/:id/queue tells when it is
 * their turn. With Redis every instance shares one line.
 */

const hold = (t: TestServer, eventId: string, buyer: { token?: string; phone?: string }) =>
  t.api('POST', buyer.token ? '/api/internal/payments/orders' : '/api/internal/payments/guest-orders', {
    token: buyer.token,
    headers: internalHeaders(t),
    body: { eventId, quantity: 1, phone: buyer.phone ?? '254712345678' },
  });

describe('a busy sale on one instance (the embedded default)', () => {
  let t: TestServer;
  let organiser: Awaited<ReturnType<TestServer['createUser']>>;
  beforeAll(async () => {
    // Two buyers at once, then one every 1.5 s: slow enough to see the line, quick enough to wait for.
    // A fixed rate: this test counts the seconds (test/admission-rate.test.ts has the rate that follows the load).
    t = await startTestServer({ WAITING_ROOM_RATE: '0.66', WAITING_ROOM_BURST: '2', WAITING_ROOM_ADAPTIVE: 'false' });
    organiser = await t.createUser('lineorganiser');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('admits the first burst, queues the rest in arrival order with their place kept, and lets each in at their turn', async () => {
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price: 500, capacity: 100, title: 'Sauti Sol Reunion' });
    const buyers = await Promise.all(['akoth', 'baraka', 'chebet', 'dalmas'].map((name) => t.createUser(`line${name}`)));
    const [akoth, baraka, chebet, dalmas] = buyers as [(typeof buyers)[number], (typeof buyers)[number], (typeof buyers)[number], (typeof buyers)[number]];

    expect((await hold(t, eventId, akoth)).status).toBe(201);
    expect((await hold(t, eventId, baraka)).status).toBe(201);
    const third = await hold(t, eventId, chebet);
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ code: 'waiting_room_queued', params: { position: 1 }, waitingRoom: { position: 1 } });
    expect(third.body.msg).toMatch(/number 1 in the line/);
    const fourth = await hold(t, eventId, dalmas);
    expect(fourth.status).toBe(429);
    expect(fourth.body.params.position).toBe(2);
    // Asking again keeps the place (no new number at the back).
    expect((await hold(t, eventId, dalmas)).body.params.position).toBeLessThanOrEqual(2);

    const place = await t.api('GET', `/api/events/${eventId}/queue`, { token: dalmas.token });
    expect(place.status).toBe(200);
    expect(place.body).toMatchObject({ eventId, inLine: true, admitted: false, soldOut: false, turnEndsAt: null });
    expect(place.body.position).toBeGreaterThanOrEqual(1);
    expect(place.body.pollAfterMs).toBeGreaterThanOrEqual(800);

    // Chebet came first, so Chebet is let in first.
    await vi.waitFor(
      async () => {
        const mine = await t.api('GET', `/api/events/${eventId}/queue`, { token: chebet.token });
        expect(mine.body).toMatchObject({ admitted: true, position: 0 });
      },
      { timeout: 15_000, interval: 200 },
    );
    const theirs = await t.api('GET', `/api/events/${eventId}/queue`, { token: dalmas.token });
    // Dalmas came after Chebet: admitted with Chebet at the earliest, never before.
    expect([0, 1]).toContain(theirs.body.position);
    const admitted = await t.api('GET', `/api/events/${eventId}/queue`, { token: chebet.token });
    expect(Date.parse(admitted.body.turnEndsAt) - Date.now()).toBeGreaterThan(500_000);
    expect((await hold(t, eventId, chebet)).status).toBe(201);
    // A retry within the turn (a failed payment, say) is still admitted.
    expect((await hold(t, eventId, chebet)).status).toBe(201);
    await vi.waitFor(async () => expect((await hold(t, eventId, dalmas)).status).toBe(201), { timeout: 15_000, interval: 300 });
  });

  it('answers a guest by phone, a buyer never in line, and a bad phone with a 400 naming it', async () => {
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price: 500, capacity: 100, title: 'Blankets and Wine' });
    const noPhone = await t.api('GET', `/api/events/${eventId}/queue`);
    expect(noPhone.status).toBe(400);
    expect(noPhone.body).toMatchObject({ field: 'phone' });
    const badPhone = await t.api('GET', `/api/events/${eventId}/queue?phone=0712`);
    expect(badPhone.status).toBe(400);
    expect(badPhone.body).toMatchObject({ field: 'phone' });
    const stranger = await t.api('GET', `/api/events/${eventId}/queue?phone=254711000111`);
    expect(stranger.body).toMatchObject({ inLine: false, admitted: false, position: null });

    // Two guests take the burst; the third phone waits, by phone.
    expect((await hold(t, eventId, { phone: '254711000001' })).status).toBe(201);
    expect((await hold(t, eventId, { phone: '254711000002' })).status).toBe(201);
    const guest = await hold(t, eventId, { phone: '254711000003' });
    expect(guest.status).toBe(429);
    expect((await t.api('GET', `/api/events/${eventId}/queue?phone=254711000003`)).body).toMatchObject({ inLine: true });
  });

  it('lets a buyer take a place before buying (one request), admitted at once while nobody waits', async () => {
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price: 500, capacity: 100, title: 'Kilifi New Year' });
    const buyers = await Promise.all(['h', 'i', 'j'].map((name) => t.createUser(`joinline${name}`)));
    const join = (buyer: { token: string }) => t.api('POST', `/api/events/${eventId}/queue`, { token: buyer.token, body: {} });
    expect((await join(buyers[0]!)).body).toMatchObject({ inLine: true, admitted: true, position: 0 });
    expect((await join(buyers[1]!)).body).toMatchObject({ admitted: true });
    const third = await join(buyers[2]!);
    expect(third.status).toBe(200);
    expect(third.body).toMatchObject({ inLine: true, admitted: false, position: 1 });
    // Joining again keeps the number; the hold of an admitted buyer takes no further turn.
    expect((await join(buyers[2]!)).body.position).toBe(1);
    expect((await hold(t, eventId, buyers[0]!)).status).toBe(201);
    expect((await hold(t, eventId, buyers[2]!)).status).toBe(429);
    const guest = await t.api('POST', `/api/events/${eventId}/queue`, { body: { phone: '254711000009' } });
    expect(guest.body).toMatchObject({ inLine: true, admitted: false, position: 2 });
    expect((await t.api('POST', `/api/events/${eventId}/queue`, { body: {} })).body).toMatchObject({ field: 'phone' });
  });

  it('tells the line when no seat is left to wait for', async () => {
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price: 500, capacity: 2, title: 'Rift Valley Festival' });
    const buyers = await Promise.all(['e', 'f', 'g'].map((name) => t.createUser(`soldline${name}`)));
    expect((await hold(t, eventId, buyers[0]!)).status).toBe(201);
    expect((await hold(t, eventId, buyers[1]!)).status).toBe(201);
    expect((await hold(t, eventId, buyers[2]!)).status).toBe(429);
    await vi.waitFor(async () => expect((await t.api('GET', `/api/events/${eventId}/queue`, { token: buyers[2]!.token })).body).toMatchObject({ soldOut: true }), {
      timeout: 15_000,
      interval: 200,
    });
  });
});

describe('the turn of an admitted buyer', () => {
  it('lasts WAITING_ROOM_TURN_SECONDS; after it the buyer joins again at the back', async () => {
    let now = 1_000_000;
    const rate = { perSecond: 1, burst: 1, observeHold: () => undefined, observePush: () => undefined, observeQueued: () => undefined };
    const room = createWaitingRoomService({ store: createMemoryWaitingRoomStore(rate, () => now), rate, turnSeconds: 60, seats: { seatsLeft: async () => 10 } });
    await room.admit('event', { userId: 'first' });
    await expect(room.admit('event', { userId: 'second' })).rejects.toMatchObject({ status: 429, code: 'waiting_room_queued', details: { params: { position: 1 } } });
    now += 30_000;
    // Within the turn: admitted again (a retry after a failed payment).
    await expect(room.admit('event', { userId: 'first' })).resolves.toBeUndefined();
    now += 31_000;
    const second = await room.place('event', { userId: 'second' });
    expect(second).toMatchObject({ admitted: true, position: 0, turnEndsAt: new Date(now + 60_000).toISOString() });
    // First's turn (from 1,000,000) is over: their place is given up, and their next try joins at the back.
    expect(await room.place('event', { userId: 'first' })).toMatchObject({ inLine: false, admitted: false, position: null });
    await expect(room.admit('event', { userId: 'third' })).resolves.toBeUndefined();
    await expect(room.admit('event', { userId: 'first' })).rejects.toMatchObject({ status: 429, details: { params: { position: 1 } } });
    now += 1000;
    expect(await room.place('event', { userId: 'first' })).toMatchObject({ admitted: true, turnEndsAt: new Date(now + 60_000).toISOString() });
  });
});

describe('one line for every instance (Redis)', () => {
  it('numbers concurrent arrivals on two stores once each, in one line', async () => {
    const redis = createClient({ url: process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379' });
    await redis.connect();
    try {
      const prefix = `tukio-test-${randomUUID()}:`;
      const rate = { perSecond: 1, burst: 5 };
      const one = createRedisWaitingRoomStore(redis, prefix, rate);
      const two = createRedisWaitingRoomStore(redis, prefix, rate);
      const visits = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? one : two).visit('event', `buyer-${i}`, true)));
      expect(visits.map((visit) => visit.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      // Only the burst got in at once.
      expect(visits.filter((visit) => visit.admittedAt !== null)).toHaveLength(5);
      // A look without joining gives no number; a second visit keeps the first number.
      expect((await one.visit('event', 'someone-else', false)).number).toBe(0);
      const again = await two.visit('event', 'buyer-7', true);
      expect(again.number).toBe(visits[7]!.number);
    } finally {
      await redis.quit();
    }
  });

  it('admits a buyer queued on one instance when the other is asked', async () => {
    const pair = await startTwoInstancesOnRedis({ WAITING_ROOM_RATE: '1', WAITING_ROOM_BURST: '1', WAITING_ROOM_ADAPTIVE: 'false' });
    try {
      const organiser = await pair.one.createUser('twolineorganiser');
      const eventId = await insertEventRow(pair.one.db, { ownerId: organiser.user._id, days: 10, price: 500, capacity: 100, title: 'Koroga Festival' });
      const first = await pair.one.createUser('twolinefirst');
      const second = await pair.two.createUser('twolinesecond');
      expect((await hold(pair.one, eventId, first)).status).toBe(201);
      const queued = await hold(pair.two, eventId, second);
      expect(queued.status).toBe(429);
      await vi.waitFor(async () => expect((await pair.one.api('GET', `/api/events/${eventId}/queue`, { token: second.token })).body).toMatchObject({ admitted: true }), {
        timeout: 10_000,
        interval: 200,
      });
      expect((await hold(pair.one, eventId, second)).status).toBe(201);
    } finally {
      await pair.close();
    }
  }, 60_000);
});
