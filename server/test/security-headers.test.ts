import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import express from 'express';
import jwt from 'jsonwebtoken';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../src/db/ids.js';
import { users } from '../src/db/schema.js';
import { AppError } from '../src/lib/app-error.js';
import { createErrorHandler } from '../src/lib/error-handler.js';
import { createLogger } from '../src/lib/logger.js';
import { captureLogs } from './helpers/log-capture.js';
import { errorBodyProblems, jsonRequest, multipart, quiesce, rawRequest, tinyGif, type RawResponse } from './helpers/security.js';
import { linkIn } from './helpers/smtp.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';
import { loadPaymentService, type PaymentService, type Simulator } from './helpers/payment-service.js';

/**
 * Headers and hygiene: helmet headers, CORS only for configured origins, JWT expiry and tokens of
 * deleted users, rate limits (API and the payment service's stkPush), body size limits, no
 * internals in error bodies, and no secret in anything either service logs.
 */

const ALLOWED_ORIGIN = 'https://tukio.example';
const CALLBACK_SECRET = 'headers-test-callback-secret-01';


// Everything both services print during this file (their JSON log lines and any console output), for the "secrets never logged" check.
let logged: ReturnType<typeof captureLogs>;

let main: TestServer;
/** A user deleted outside the app (no route does it) is refused once the token lookup cache lets go of it. */
const AUTH_CACHE_MS = 1000;
let limited: TestServer;
let pay: PaymentService;
let simulator: Simulator;
const clientDist = mkdtempSync(path.join(os.tmpdir(), 'tukio-headers-client-'));
const payDataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-headers-pay-'));
/** Every secret value seen during the run: none may appear in the captured logs. */
const secrets = new Map<string, string>();

beforeAll(async () => {
  logged = captureLogs();
  writeFileSync(path.join(clientDist, 'index.html'), '<!doctype html><html><head><title>Tukio</title></head><body><div id="root"></div></body></html>');
  main = await startTestServer({
    CLIENT_DIST: clientDist,
    CORS_ORIGINS: ALLOWED_ORIGIN,
    LOG_LEVEL: 'info',
    JWT_SECRET: 'headers-test-jwt-secret-long-enough-123',
    INTERNAL_API_KEY: 'headers-test-internal-key-456',
    AUTH_CACHE_MS: String(AUTH_CACHE_MS),
  });
  // Small limits, and X-Forwarded-For honoured so each test can speak from its own address.
  limited = await startTestServer({
    RATE_LIMIT_MAX: '3',
    RATE_LIMIT_ACCOUNT_MAX: '3',
    RATE_LIMIT_IP_MAX: '3',
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'info',
    CORS_ORIGINS: ALLOWED_ORIGIN,
    // The stkPush budgets are the API server's (the payment service's section-7 /api/stkPush forwards to its /pay).
    STK_RATE_LIMIT_PER_IP: '5',
    STK_RATE_LIMIT_PER_USER: '2',
  });
  const modules = await loadPaymentService();
  simulator = await modules.simulator.startTestSimulator(payDataDir);
  const started = await modules.start.startPaymentService(
    modules.config.loadPaymentConfig({
      NODE_ENV: 'test',
      PAYMENT_PORT: '0',
      DATA_DIR: payDataDir,
      API_URL: limited.url,
      INTERNAL_API_KEY: limited.config.internalApiKey,
      CALLBACK_SECRET,
      CORS_ORIGINS: ALLOWED_ORIGIN,
      ...simulator.paymentEnv,
      RECONCILE_INTERVAL_MS: '0',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'info',
    }),
  );
  simulator.allowCallbacksTo(started.callbackUrl);
  pay = started;
  for (const [name, value] of [
    ['main JWT secret', main.config.jwtSecret],
    ['main internal key', main.config.internalApiKey],
    ['limited JWT secret', limited.config.jwtSecret],
    ['limited internal key', limited.config.internalApiKey],
    ['callback secret', CALLBACK_SECRET],
  ] as const) {
    secrets.set(name, value);
  }
}, 180_000);

afterAll(async () => {
  logged?.restore();
  vi.restoreAllMocks();
  await pay?.close();
  await simulator?.close();
  for (const server of [main, limited]) {
    if (!server) continue;
    await quiesce(server);
    await server.close();
  }
  rmSync(clientDist, { recursive: true, force: true });
  rmSync(payDataDir, { recursive: true, force: true });
});

const send = (server: { url: string }, method: string, route: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
  rawRequest(server.url, jsonRequest(method, route, options));

let ipCounter = 0;
/** A client address of its own (both servers behind the rate limits trust X-Forwarded-For here). */
const freshIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

/**
 * A verified user on the rate-limited server, inserted directly with a token signed like the
 * server's: registering and logging in would spend the very limits under test.
 */
async function quickUser(name: string) {
  const id = newId();
  await limited.db.insert(users).values({ id, username: name, email: `${name}@example.com`, passwordHash: 'x', emailVerifiedAt: new Date() });
  return { token: jwt.sign({ tv: 0 }, limited.config.jwtSecret, { subject: id, expiresIn: '1h' }), id };
}

describe('helmet headers', () => {
  it('HTML answers carry a strict CSP (frame-ancestors none, no inline script) and nosniff', async () => {
    for (const route of ['/', '/events', '/profile']) {
      const res = await rawRequest(main.url, { method: 'GET', path: route });
      expect(res.status).toBe(200);
      expect(String(res.headers['content-type'])).toMatch(/text\/html/);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toMatch(/^(DENY|SAMEORIGIN)$/);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('API answers carry nosniff and no x-powered-by; uploads are served sandboxed and never sniffed', async () => {
    const res = await send(main, 'GET', '/api/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-powered-by']).toBeUndefined();

    const user = await main.createUser('uploader');
    const form = multipart([{ name: 'file', filename: 'x.html', type: 'text/html', content: tinyGif() }]);
    const uploaded = await rawRequest(main.url, { method: 'POST', path: '/api/uploads', headers: { authorization: `Bearer ${user.token}`, 'content-type': form.contentType }, body: form.body });
    expect(uploaded.status).toBe(201);
    const file = await rawRequest(main.url, { method: 'GET', path: uploaded.body.path });
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/gif');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-security-policy']).toContain('sandbox');
  });

  it('the payment service sends nosniff and frame protection too', async () => {
    const res = await rawRequest(pay.url, { method: 'GET', path: '/api/health' });
    expect(res.status).toBe(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('CORS only for configured origins', () => {
  const preflight = (base: string, route: string, origin: string) =>
    rawRequest(base, {
      method: 'OPTIONS',
      path: route,
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,authorization' },
    });

  it('answers a preflight from the configured origin, and nobody else (API and payment service)', async () => {
    for (const [base, route] of [
      [main.url, '/api/auth/login'],
      [main.url, '/api/events/addevnt'],
      [pay.url, '/api/stkPush'],
    ] as const) {
      const good = await preflight(base, route, ALLOWED_ORIGIN);
      expect(good.status).toBeLessThan(300);
      expect(good.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
      expect(good.headers['access-control-allow-credentials']).toBe('true');
      for (const evil of ['https://evil.example', 'null', 'https://tukio.example.evil.example', 'http://tukio.example', `${ALLOWED_ORIGIN}:8443`]) {
        const bad = await preflight(base, route, evil);
        expect(bad.headers['access-control-allow-origin'], `${base}${route} from ${evil}`).toBeUndefined();
        expect(bad.headers['access-control-allow-credentials']).toBeUndefined();
      }
    }
  });

  it('gives a simple cross-origin read no Access-Control-Allow-Origin for an unknown origin', async () => {
    const evil = await send(main, 'GET', '/api/events/getevnt', { headers: { origin: 'https://evil.example' } });
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    const good = await send(main, 'GET', '/api/events/getevnt', { headers: { origin: ALLOWED_ORIGIN } });
    expect(good.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
  });
});

describe('tokens', () => {
  it('login tokens are HS256 and expire after JWT_EXPIRES_IN (7 days)', async () => {
    const user = await main.createUser('expiring');
    const header = JSON.parse(Buffer.from(user.token.split('.')[0]!, 'base64url').toString()) as { alg: string };
    expect(header.alg).toBe('HS256');
    const claims = jwt.decode(user.token) as { exp: number; iat: number; sub: string };
    expect(claims.sub).toBe(user.user._id);
    expect(claims.exp - claims.iat).toBe(7 * 24 * 60 * 60);
  });

  it('refuses an expired token, including one that expires while in use', async () => {
    const user = await main.createUser('shortlived');
    const [row] = await main.db.select().from(users).where(eq(users.id, user.user._id));
    const sign = (expiresIn: number) => jwt.sign({ tv: row!.tokenVersion }, main.config.jwtSecret, { subject: user.user._id, expiresIn });
    const expired = await send(main, 'GET', '/api/tickets/mine', { token: sign(-10) });
    expect(expired.status).toBe(401);
    expect(expired.body.msg).toBe('Please log in to continue.');

    // Long enough to be used once on a busy machine (exp counts from the whole second of issue).
    const short = sign(4);
    expect((await send(main, 'GET', '/api/tickets/mine', { token: short })).status).toBe(200);
    await expect.poll(async () => (await send(main, 'GET', '/api/tickets/mine', { token: short })).status, { timeout: 10_000, interval: 250 }).toBe(401);
  });

  it('refuses tokens of a user deleted by hand within AUTH_CACHE_MS (HTTP and socket), and tokens from before a logout at once', async () => {
    const user = await main.createUser('shortstay');
    expect((await send(main, 'GET', `/api/auth/user/${user.user._id}`, { token: user.token })).status).toBe(200);
    await main.db.delete(users).where(eq(users.id, user.user._id));
    // No route deletes a user: a row removed in SQL is noticed when the cached lookup expires.
    await expect.poll(async () => (await send(main, 'GET', '/api/tickets/mine', { token: user.token })).status, { timeout: AUTH_CACHE_MS + 1500, interval: 100 }).toBe(401);
    const res = await send(main, 'GET', '/api/tickets/mine', { token: user.token });
    expect(res.status).toBe(401);
    expect(res.body.msg).toBe('Please log in to continue.');
    const socketError = await new Promise<string>((resolve) => {
      const socket = connect(main.url, { auth: { token: user.token }, transports: ['websocket'], reconnection: false, forceNew: true });
      socket.once('connect', () => {
        socket.close();
        resolve('connected');
      });
      socket.once('connect_error', (error) => {
        socket.close();
        resolve(error.message);
      });
    });
    expect(socketError).toBe('Authentication required');

    const other = await main.createUser('loggedout');
    expect((await send(main, 'POST', '/api/auth/logout', { token: other.token })).status).toBe(200);
    expect((await send(main, 'GET', '/api/tickets/mine', { token: other.token })).status).toBe(401);
  });

  it('refuses forged tokens: another key, alg none, HS512, a swapped subject, a role claim', async () => {
    const user = await main.createUser('forger');
    const admin = await main.loginAdmin();
    const [header, payload, signature] = user.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const swapped = Buffer.from(JSON.stringify({ ...claims, sub: admin.user._id })).toString('base64url');
    const forged = [
      jwt.sign({ tv: 0 }, 'some-other-secret-that-is-long-enough', { subject: user.user._id }),
      `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`,
      jwt.sign({ tv: 0 }, main.config.jwtSecret, { subject: user.user._id, algorithm: 'HS512' }),
      `${header}.${swapped}.${signature}`,
      jwt.sign({ tv: 0 }, main.config.jwtSecret, { subject: newId() }),
    ];
    for (const token of forged) expect((await send(main, 'GET', '/api/tickets/mine', { token })).status).toBe(401);
    // A role claim in the token means nothing: the role is read from the database.
    const withRole = jwt.sign({ tv: 0, role: 'admin' }, main.config.jwtSecret, { subject: user.user._id });
    expect((await send(main, 'GET', '/api/admin/refunds', { token: withRole })).status).toBe(403);
  });
});

describe('logs', () => {
  it('runs register, verify, login, reset, email change, logout and payment flows with both services logging', async () => {
    const firstPassword = 'first-Passw0rd-njeri';
    const secondPassword = 'second-Passw0rd-njeri';
    secrets.set('first password', firstPassword);
    secrets.set('second password', secondPassword);

    const register = await send(main, 'POST', '/api/auth/register', { body: { username: 'njeri', email: 'njeri@example.com', password: firstPassword } });
    expect(register.body.status).toBe(true);
    const verifyToken = linkIn(await main.smtp.waitFor('njeri@example.com', /Verify/), 'verify');
    secrets.set('verification token', verifyToken);
    expect((await send(main, 'GET', `/api/auth/verify-email/${verifyToken}`)).status).toBe(200);
    const login = await send(main, 'POST', '/api/auth/login', { body: { username: 'njeri', password: firstPassword } });
    secrets.set('first login token', login.body.token);
    await send(main, 'POST', '/api/auth/login', { body: { username: 'njeri', password: 'wrong-Passw0rd-guess' } });
    secrets.set('wrong password', 'wrong-Passw0rd-guess');

    await send(main, 'POST', '/api/auth/forgot-password', { body: { email: 'njeri@example.com' } });
    const resetToken = linkIn(await main.smtp.waitFor('njeri@example.com', /Reset/), 'reset-password');
    secrets.set('reset token', resetToken);
    expect((await send(main, 'POST', `/api/auth/reset-password/${resetToken}`, { body: { password: secondPassword } })).body.status).toBe(true);
    // The reset link works once; the old session ended with it.
    expect((await send(main, 'POST', `/api/auth/reset-password/${resetToken}`, { body: { password: 'third-password' } })).body.status).toBe(false);
    expect((await send(main, 'GET', '/api/tickets/mine', { token: login.body.token })).status).toBe(401);
    const again = await send(main, 'POST', '/api/auth/login', { body: { username: 'njeri', password: secondPassword } });
    secrets.set('second login token', again.body.token);
    await send(main, 'PUT', `/api/auth/user/${again.body.user._id}`, { token: again.body.token, body: { email: 'njeri.new@example.com' } });
    const emailToken = linkIn(await main.smtp.waitFor('njeri.new@example.com', /Verify/), 'verify');
    secrets.set('email change token', emailToken);
    await send(main, 'POST', '/api/internal/payments/orders', { token: again.body.token, body: { eventId: 'x' }, headers: { 'x-internal-key': 'a-wrong-internal-key' } });
    await send(main, 'POST', '/api/internal/payments/orders', { token: again.body.token, body: { eventId: 'x' }, headers: { 'x-internal-key': main.config.internalApiKey } });
    await send(main, 'POST', '/api/auth/logout', { token: again.body.token });

    // Through the payment service: a buyer's token is forwarded to the API server, never printed.
    const buyer = await quickUser('logbuyer');
    secrets.set('buyer token', buyer.token);
    const ip = { 'x-forwarded-for': freshIp() };
    await send(pay, 'POST', '/api/stkPush', { token: buyer.token, body: { phone: '254712345678', amount: 1, Order_ID: `${newId()}_254712345678` }, headers: ip });
    await send(pay, 'POST', '/api/confirmPayment', { token: buyer.token, body: { CheckoutRequestID: 'ws_CO_unknown' }, headers: ip });
    await send(pay, 'POST', '/api/mpesa/callback/wrong-secret-segment', { body: { Body: {} } });
  });
});

describe('rate limits (RATE_LIMIT_MAX=3)', () => {
  const tooMany = 'Too many attempts. Please wait a few minutes and try again.';

  async function hammer(route: string, body: () => unknown, options: { ip?: string; expectStatusFalse?: boolean } = {}) {
    const ip = options.ip ?? freshIp();
    const answers: RawResponse[] = [];
    for (let i = 0; i < 4; i++) answers.push(await send(limited, 'POST', route, { body: body(), headers: { 'x-forwarded-for': ip } }));
    for (const answer of answers.slice(0, 3)) expect(answer.status, `${route}: ${answer.text}`).toBe(200);
    const last = answers[3]!;
    expect(last.status, route).toBe(429);
    expect(last.body).toMatchObject({ msg: tooMany, message: tooMany });
    if (options.expectStatusFalse) expect(last.body.status).toBe(false);
    expect(last.headers['ratelimit-policy'] ?? last.headers['ratelimit']).toBeTruthy();
    expect(errorBodyProblems(last)).toEqual([]);
    // Another address is not affected.
    expect((await send(limited, 'POST', route, { body: body(), headers: { 'x-forwarded-for': freshIp() } })).status).toBe(200);
  }

  it('login, register and forgot-password answer 429 {status:false, msg} after 3 attempts per address', async () => {
    let n = 0;
    await hammer('/api/auth/login', () => ({ username: `nobody${n++}`, password: 'wrong-password' }), { expectStatusFalse: true });
    await hammer('/api/auth/register', () => ({ username: `ratelimited${n++}`, email: `rl${n}@example.com`, password: 'long-enough' }), { expectStatusFalse: true });
    await hammer('/api/auth/forgot-password', () => ({ email: `someone${n++}@example.com` }), { expectStatusFalse: true });
  });

  it('login is also limited per account across addresses: those that already failed wait, a new one is still heard', async () => {
    const ips = [freshIp(), freshIp(), freshIp()];
    const guess = (ip: string, i: number) => send(limited, 'POST', '/api/auth/login', { body: { username: 'victim', password: `guess-${i}` }, headers: { 'x-forwarded-for': ip } });
    const answers: RawResponse[] = [];
    for (const [i, ip] of ips.entries()) answers.push(await guess(ip, i));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const again = await guess(ips[0]!, 3);
    expect(again.status).toBe(429);
    expect(again.body.msg).toBe(tooMany);
    expect((await guess(freshIp(), 4)).status).toBe(200);
  });

  it('the contact form (POST /api/auth/sendMessage) answers 429 after 3 messages per address', async () => {
    await hammer('/api/auth/sendMessage', () => ({ name: 'Akinyi', email: 'akinyi@example.com', subject: 'Hi', message: 'Hello Tukio' }));
  });

  it("the payment service's stkPush answers 429 per account (2) and per address (5)", async () => {
    const ip = freshIp();
    const a = await quickUser('stkbuyer1');
    const b = await quickUser('stkbuyer2');
    const push = (token: string) => send(pay, 'POST', '/api/stkPush', { token, body: { phone: 'not-a-phone', amount: 1, Order_ID: 'x_y' }, headers: { 'x-forwarded-for': ip } });
    const first = await push(a.token);
    expect(first.status).toBe(400);
    expect((await push(a.token)).status).toBe(400);
    const third = await push(a.token);
    expect(third.status).toBe(429);
    expect(third.body.msg).toBe('Failed to initiate payment: too many payment attempts. Please wait a few minutes and try again.');
    // B has its own account budget, but the address runs out at 5.
    expect((await push(b.token)).status).toBe(400);
    expect((await push(b.token)).status).toBe(400);
    expect((await push(b.token)).status).toBe(429);
  });
});

describe('body size limits', () => {
  it('answers 413 with a clear message for JSON bodies over 1 MB and images over 5 MB', async () => {
    const user = await main.createUser('bigsender');
    const big = { username: 'x', password: 'y'.repeat(1_500_000) };
    const login = await send(main, 'POST', '/api/auth/login', { body: big });
    expect(login.status).toBe(413);
    expect(login.body.msg).toBe('The request body is too large.');
    const event = await send(main, 'POST', '/api/events/addevnt', { token: user.token, body: { title: 't', description: 'd'.repeat(1_100_000) } });
    expect(event.status).toBe(413);
    expect(event.body.msg).toBe('The request body is too large.');

    const form = multipart([{ name: 'file', filename: 'big.gif', type: 'image/gif', content: Buffer.concat([tinyGif(), Buffer.alloc(5 * 1024 * 1024)]) }]);
    const upload = await rawRequest(main.url, { method: 'POST', path: '/api/uploads', headers: { authorization: `Bearer ${user.token}`, 'content-type': form.contentType }, body: form.body });
    expect(upload.status).toBe(413);
    expect(upload.body.msg).toBe('The image must be at most 5 MB.');

    const stk = await send(pay, 'POST', '/api/stkPush', { token: user.token, body: { phone: '254712345678', pad: 'x'.repeat(20_000) } });
    expect(stk.status).toBe(413);
    expect(stk.body.msg).toBe('The request body is too large.');
  });
});

describe('error bodies', () => {
  it('never carry stack traces, SQL or error internals, on either service', async () => {
    const user = await main.createUser('errorprobe');
    const probes: Array<[{ url: string }, { method: string; path: string; headers?: Record<string, string>; body?: string }]> = [
      [main, { method: 'POST', path: '/api/auth/login', headers: { 'content-type': 'application/json' }, body: '{"username":' }],
      [main, { method: 'POST', path: '/api/events/addevnt', headers: { 'content-type': 'application/json; charset=latin1', authorization: `Bearer ${user.token}` }, body: '{}' }],
      [main, { method: 'GET', path: '/api/events/%E0%A4%A' }],
      [main, { method: 'GET', path: '/api/nope' }],
      [main, { method: 'DELETE', path: '/api/health' }],
      [main, { method: 'GET', path: "/api/events/1'%20OR%20'1'='1" }],
      [main, { method: 'GET', path: '/api/events?limit=999' }],
      [main, { method: 'GET', path: '/api/transactions/not-an-id', headers: { authorization: `Bearer ${user.token}` } }],
      [main, { method: 'POST', path: '/api/comments/add', headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` }, body: '{"content":"x","eventId":"ffffffffffffffffffffffff"}' }],
      [main, { method: 'POST', path: '/api/internal/payments/settle', headers: { 'content-type': 'application/json' }, body: '{}' }],
      [pay, { method: 'POST', path: '/api/stkPush', headers: { 'content-type': 'application/json' }, body: '{"phone":' }],
      [pay, { method: 'POST', path: '/api/stkPush', headers: { 'content-type': 'application/json; charset=latin1', authorization: `Bearer ${user.token}` }, body: '{}' }],
      [pay, { method: 'POST', path: '/api/confirmPayment', headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` }, body: '{"CheckoutRequestID":"nope"}' }],
      [pay, { method: 'POST', path: `/api/mpesa/callback/${CALLBACK_SECRET}`, headers: { 'content-type': 'application/json' }, body: '{"Body":' }],
      [pay, { method: 'GET', path: '/api/nope' }],
    ];
    for (const [server, request] of probes) {
      const res = await rawRequest(server.url, request);
      const where = `${request.method} ${request.path} → ${res.status} ${res.text.slice(0, 200)}`;
      expect(res.status, where).toBeGreaterThanOrEqual(400);
      expect(res.status, where).toBeLessThan(500);
      expect(errorBodyProblems(res), where).toEqual([]);
    }
  });

  it('turn unexpected failures into a generic 500 and outages into 503, whatever the error says', async () => {
    const quiet = createLogger('silent');
    const app = express();
    app.get('/sql', () => {
      const error = new Error('Failed query: select "password_hash" from "users" where "email" = $1\nparams: admin@example.com');
      (error as { cause?: unknown }).cause = new Error('syntax error at or near "from"');
      throw error;
    });
    app.get('/type', () => {
      throw new TypeError("Cannot read properties of undefined (reading 'id')");
    });
    app.get('/down', () => {
      throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
    });
    app.get('/app', () => {
      throw new AppError(409, 'review_duplicate', 'You have already reviewed this event.');
    });
    app.use(createErrorHandler(quiet));
    const server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      for (const route of ['/sql', '/type']) {
        const res = await rawRequest(url, { method: 'GET', path: route });
        expect(res.status).toBe(500);
        expect(res.body).toEqual({ msg: 'Something went wrong on our side. Please try again.', message: 'Something went wrong on our side. Please try again.', code: 'internal_error' });
      }
      const down = await rawRequest(url, { method: 'GET', path: '/down' });
      expect(down.status).toBe(503);
      expect(down.body.msg).toBe('Tukio is temporarily unavailable. Please try again in a moment.');
      expect(down.text).not.toContain('10.0.0.5');
      const known = await rawRequest(url, { method: 'GET', path: '/app' });
      expect(known.status).toBe(409);
      expect(known.body.msg).toBe('You have already reviewed this event.');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('logs over the whole run', () => {
  it('carry no secret, password or token of any of the flows above', async () => {
    await quiesce(main);
    const text = logged.text();
    // The capture works: both services printed something.
    expect(text).toContain('"name":"tukio"');
    expect(text).toContain('"name":"payments"');
    const leaked = [...secrets.entries()].filter(([, value]) => value && text.includes(value)).map(([name]) => name);
    expect(leaked).toEqual([]);
    // No password hash or JWT-looking string either.
    expect(text).not.toMatch(/\$2[aby]\$\d{2}\$/);
    expect(text).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/);
  });
});
