import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { createClient } from 'redis';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orders } from '../../server/src/db/schema.js';
import { emitWithAck, nextEvent, socketTracker } from '../../server/test/helpers/chat-sockets.js';
import { freePort } from '../../server/test/helpers/test-server.js';
import { startStack, type Stack } from './helpers/stack.js';

/**
 * Redis goes away under a running API server (its stkPush budgets, logins and chat count there), on a Redis of this
 * test's own (never the shared one): killed with SIGKILL, then alive but answering nothing (CLIENT PAUSE). Every request depending on it
 * answers within a few seconds: login and chat (over HTTP and over a socket) by counting in the instance's memory,
 * stkPush with a 503 "try again". Once Redis is back, nothing happens for the buyers who were told to try again:
 * no seat hold, no M-Pesa prompt on their phone (commands sent during the outage are never replayed).
 */

/** An answer within this, or the test fails: the command timeout is 1 s, so a request waits about 2 s at most. */
const PROMPT_ANSWER_MS = 6000;

let redisPort: number;
let redis: ChildProcess | undefined;
let s: Stack;
const sockets = socketTracker();

async function startRedis(): Promise<void> {
  redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  // Ready once it answers a PING.
  await vi.waitFor(
    async () => {
      const probe = createClient({ url: `redis://127.0.0.1:${redisPort}`, socket: { reconnectStrategy: false } });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        await probe.ping();
        await probe.quit();
      } catch (error) {
        if (probe.isOpen) probe.destroy();
        throw error;
      }
    },
    { timeout: 20_000, interval: 50 },
  );
}

async function killRedis(): Promise<void> {
  const dying = redis!;
  const exited = new Promise((resolve) => dying.once('exit', resolve));
  dying.kill('SIGKILL');
  await exited;
  redis = undefined;
}

/** Every client command is held by Redis for `ms` (the server is alive, its connections open, nothing answered). */
async function pauseRedis(ms: number): Promise<void> {
  const admin = createClient({ url: `redis://127.0.0.1:${redisPort}` });
  await admin.connect();
  await admin.sendCommand(['CLIENT', 'PAUSE', String(ms), 'ALL']);
  // Dropped, not quit: node-redis's quit() lifts the pause.
  admin.destroy();
}

beforeAll(async () => {
  redisPort = await freePort();
  await startRedis();
  const REDIS_URL = `redis://127.0.0.1:${redisPort}`;
  const REDIS_KEY_PREFIX = `tukio-outage-${randomUUID()}:`;
  s = await startStack({
    serverEnv: { REDIS_URL, REDIS_KEY_PREFIX, REDIS_COMMAND_TIMEOUT_MS: '1000' },
  });
}, 90_000);
afterAll(async () => {
  sockets.closeAll();
  await s?.close();
  if (redis) await killRedis();
});

/** Times a request; a request still unanswered after PROMPT_ANSWER_MS is cut (as the API's /pay proxy cuts one) and reported as such. */
async function timed<T>(request: (signal: AbortSignal) => Promise<T>): Promise<{ ms: number; answer: T | 'no answer' }> {
  const startedAt = Date.now();
  try {
    const answer = await request(AbortSignal.timeout(PROMPT_ANSWER_MS));
    return { ms: Date.now() - startedAt, answer };
  } catch (error) {
    if ((error as Error).name !== 'TimeoutError') throw error;
    return { ms: Date.now() - startedAt, answer: 'no answer' };
  }
}

async function stkPush(token: string, eventId: string, phone: string, signal?: AbortSignal) {
  const response = await fetch(`${s.pay.url}/api/stkPush`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ phone, amount: 1, Order_ID: `${eventId}_${phone}` }),
    ...(signal ? { signal } : {}),
  });
  return { status: response.status, body: (await response.json()) as { code?: string; msg?: string; CheckoutRequestID?: string } };
}

async function login(username: string, signal: AbortSignal) {
  const response = await fetch(`${s.server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'secret123' }),
    signal,
  });
  return { status: response.status, body: (await response.json()) as { status?: boolean } };
}

async function sendOverHttp(from: { token: string; user: { _id: string } }, to: string, message: string, signal: AbortSignal) {
  const response = await fetch(`${s.server.url}/api/messages/addmsg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${from.token}` },
    body: JSON.stringify({ from: from.user._id, to, message }),
    signal,
  });
  return { status: response.status };
}

/** Waits until a push goes through again (Redis back and the payment service reconnected): anything an outage left queued would have run by then. */
async function waitUntilPushesWork(eventId: string, phone: string) {
  const buyer = await s.quickUser(`recovery${randomUUID().slice(0, 8)}`);
  return vi.waitFor(
    async () => {
      const push = await stkPush(buyer.token, eventId, phone);
      // Only "unavailable" may pass by waiting; any other answer fails at once.
      if (push.status === 503) throw new Error('pushes still refused after Redis came back');
      expect(push.status).toBe(200);
      return push;
    },
    { timeout: 30_000, interval: 100 },
  );
}

/** Holds (orders) and simulator prompts for these buyers and phones, after everything queued has had its chance. */
async function holdsAndPrompts(userIds: string[], phones: string[]) {
  const held = await s.server.db.select({ id: orders.id }).from(orders).where(inArray(orders.userId, userIds));
  const prompts = (await s.simApi('GET', '/simulator/prompts', { headers: s.simulatorKey })).body as Array<{ phone: string }>;
  return { holds: held.length, prompts: prompts.filter((prompt) => phones.includes(prompt.phone)).length };
}

/**
 * The requests of a checkout during the outage: two logins, a chat message over HTTP and one over a socket
 * (delivered to the recipient's socket on this instance), and stkPushes from buyers who are all answered 503.
 */
async function duringOutage(label: string, people: { a: Awaited<ReturnType<Stack['server']['createUser']>>; b: Awaited<ReturnType<Stack['server']['createUser']>>; aSocket: Socket; bSocket: Socket }, eventId: string, phones: string[]) {
  const buyers = await Promise.all(phones.map((_, i) => s.quickUser(`${label}buyer${i}`)));
  const received = nextEvent<string>(people.bSocket, 'msg-recieve', PROMPT_ANSWER_MS).catch((error: unknown) => String(error));
  const [loginA, loginB, http, socketAck, ...pushes] = await Promise.all([
    timed((signal) => login(people.a.user.username, signal)),
    timed((signal) => login(people.b.user.username, signal)),
    timed((signal) => sendOverHttp(people.a, people.b.user._id, `${label} over http`, signal)),
    timed(() => emitWithAck(people.aSocket, 'send-msg', { from: people.a.user._id, to: people.b.user._id, message: `${label} over the socket` }, PROMPT_ANSWER_MS).catch(() => 'no answer' as const)),
    ...buyers.map((buyer, i) => timed((signal) => stkPush(buyer.token, eventId, phones[i]!, signal))),
  ]);
  return { buyers, loginA, loginB, http, socketAck, pushes, received };
}

describe('Redis outage', () => {
  let people: Parameters<typeof duringOutage>[1];
  let eventId: string;

  beforeAll(async () => {
    const a = await s.server.createUser('outagealice');
    const b = await s.server.createUser('outagebob');
    const [aSocket, bSocket] = await Promise.all([sockets.open(s.server.url, a.token), sockets.open(s.server.url, b.token)]);
    people = { a, b, aSocket, bSocket };
    const organiser = await s.quickUser('outageorganiser');
    eventId = await s.createEvent({ ownerId: organiser.user._id, price: 50, capacity: 500 });
    // Everything works while Redis does.
    const before = await s.quickUser('outagebefore');
    expect((await stkPush(before.token, eventId, '254733200001')).status).toBe(200);
  }, 60_000);

  for (const outage of ['killed', 'paused'] as const) {
    it(`${outage}: login and chat answer at once, stkPush answers 503, and no hold or prompt follows once Redis is back`, async () => {
      const phones = Array.from({ length: 6 }, (_, i) => `2547332${outage === 'killed' ? '1' : '2'}00${String(i + 10)}`);
      // Paused for longer than any request may wait: an answer that came, came from the fallback or the refusal.
      const pauseMs = 3 * PROMPT_ANSWER_MS;
      if (outage === 'killed') await killRedis();
      else await pauseRedis(pauseMs);
      const pausedAt = Date.now();

      const during = await duringOutage(outage, people, eventId, phones);

      if (outage === 'killed') await startRedis();
      else await new Promise((resolve) => setTimeout(resolve, Math.max(0, pausedAt + pauseMs - Date.now())));
      await waitUntilPushesWork(eventId, `2547332${outage === 'killed' ? '1' : '2'}0099`);
      const after = await holdsAndPrompts(
        during.buyers.map((buyer) => buyer.user._id),
        phones,
      );

      // The buyers told to try again got no seat hold and no prompt, not even once Redis answered again.
      expect(after).toEqual({ holds: 0, prompts: 0 });
      // Logins count failures in this instance's memory meanwhile; chat budgets too.
      expect(during.loginA.answer).toMatchObject({ status: 200, body: { status: true } });
      expect(during.loginB.answer).toMatchObject({ status: 200, body: { status: true } });
      expect(during.http.answer).toMatchObject({ status: 200 });
      expect(during.socketAck.answer).toMatchObject({ ok: true });
      // Delivered to the recipient's socket on this instance, the Redis adapter's publish failing.
      expect(await during.received).toBe(`${outage} over the socket`);
      // stkPush fails closed: the limits cannot count it, so no prompt is sent.
      for (const push of during.pushes) {
        expect(push.answer).toMatchObject({ status: 503, body: { code: 'service_unavailable', msg: 'Failed to initiate payment: Tukio is temporarily unavailable. Please try again in a moment.' } });
      }
      for (const answered of [during.loginA, during.loginB, during.http, during.socketAck, ...during.pushes]) expect(answered.ms).toBeLessThan(PROMPT_ANSWER_MS);
    }, 90_000);
  }
});
