import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, users } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { payFor } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/** Organisers' API keys over HTTP (docs/decisions/webhooks.md, "API keys"): shown once, hashed, scoped, revocable. */

let t: TestServer;
type Person = Awaited<ReturnType<TestServer['createUser']>>;
let organiser: Person;
let other: Person;
let eventId: string;
let othersEvent: string;

const createKey = (person: Person, scopes: string[], name = 'Door scanner') => t.api('POST', '/api/api-keys', { token: person.token, body: { name, scopes } });
const withKey = (key: string, method: string, path: string, body?: unknown) => t.api(method, path, { headers: { authorization: `Bearer ${key}` }, body });

beforeAll(async () => {
  t = await startTestServer();
  organiser = await t.createUser('keyholder');
  other = await t.createUser('otherorg');
  eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 5, title: 'Key Night' });
  othersEvent = await insertEventRow(t.db, { ownerId: other.user._id, days: 5 });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('API keys', () => {
  it('shows the key once, stores only its hash, and opens /api/v1 for the key’s own events', async () => {
    const created = await createKey(organiser, ['events:read', 'attendees:read']);
    expect(created.status).toBe(201);
    const key = created.body.key as string;
    expect(key).toMatch(/^tk_live_[A-Za-z0-9_-]{43}$/);
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, created.body.apiKey._id));
    expect(row!.keyHash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(key);
    const listed = await t.api('GET', '/api/api-keys', { token: organiser.token });
    expect(listed.body.apiKeys).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(key);
    expect(listed.body.apiKeys[0]).toMatchObject({ name: 'Door scanner', prefix: key.slice(0, 12), revokedAt: null });

    const mine = await withKey(key, 'GET', '/api/v1/events');
    expect(mine.status).toBe(200);
    expect(mine.body.map((event: { _id: string }) => event._id)).toEqual([eventId]);
    const attendees = await t.api('GET', `/api/v1/events/${eventId}/attendees`, { headers: { 'x-api-key': key } });
    expect(attendees.status).toBe(200);
    expect(attendees.body).toEqual([]);
    // Another organiser's event does not exist for this key.
    expect((await withKey(key, 'GET', `/api/v1/events/${othersEvent}/attendees`)).status).toBe(404);
  });

  it('reads the event’s orders and checks a ticket in with the right scopes', async () => {
    const paidEvent = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 6, price: 400, capacity: 10 });
    const buyer = await t.createUser('keybuyer');
    const paid = await payFor(t, buyer.token, paidEvent);
    const key = (await createKey(organiser, ['orders:read', 'checkins:write'], 'Gate')).body.key as string;
    const orders = await withKey(key, 'GET', `/api/v1/events/${paidEvent}/orders`);
    expect(orders.status).toBe(200);
    expect(orders.body).toEqual([expect.objectContaining({ orderId: paid.orderId, userId: buyer.user._id, quantity: 1, amount: paid.amount, status: 'paid' })]);
    expect(JSON.stringify(orders.body)).not.toContain(paid.phone);
    expect((await withKey(key, 'GET', `/api/v1/events/${othersEvent}/orders`)).status).toBe(404);
    const [ticket] = (await t.api('GET', '/api/tickets/mine', { token: buyer.token })).body;
    const checked = await withKey(key, 'POST', `/api/v1/events/${paidEvent}/check-ins`, { code: ticket.code });
    expect(checked.status).toBe(200);
    expect(checked.body.ticket._id).toBe(ticket._id);
    expect((await withKey(key, 'POST', `/api/v1/events/${paidEvent}/check-ins`, { code: ticket.code })).status).toBe(409);
  });

  it('enforces scopes, refuses sessions and bad keys, and a revoked key gets 401', async () => {
    const created = await createKey(organiser, ['events:read'], 'Read only');
    const key = created.body.key as string;
    const refused = await withKey(key, 'POST', `/api/v1/events/${eventId}/check-ins`, { code: 'TK1.x.y' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('api_key_scope');
    expect((await withKey(key, 'GET', `/api/v1/events/${eventId}/attendees`)).status).toBe(403);
    // A session token is not a key.
    expect((await t.api('GET', '/api/v1/events', { token: organiser.token })).status).toBe(401);
    expect((await withKey(`${key}x`, 'GET', '/api/v1/events')).status).toBe(401);
    // Someone else cannot revoke it.
    expect((await t.api('DELETE', `/api/api-keys/${created.body.apiKey._id}`, { token: other.token })).status).toBe(404);
    const revoked = await t.api('DELETE', `/api/api-keys/${created.body.apiKey._id}`, { token: organiser.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.apiKey.revokedAt).toEqual(expect.any(String));
    const after = await withKey(key, 'GET', '/api/v1/events');
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('api_key_invalid');
  });

  it("stops working while its organiser is suspended or banned, as their sessions do", async () => {
    const restricted = await t.createUser('keybanned');
    const own = await insertEventRow(t.db, { ownerId: restricted.user._id, days: 5 });
    const key = (await createKey(restricted, ['events:read'], 'Until banned')).body.key as string;
    expect((await withKey(key, 'GET', '/api/v1/events')).status).toBe(200);
    await t.db.update(users).set({ suspendedUntil: new Date(Date.now() + 24 * 60 * 60 * 1000) }).where(eq(users.id, restricted.user._id));
    const suspended = await withKey(key, 'GET', '/api/v1/events');
    expect(suspended.status).toBe(403);
    expect(suspended.body.code).toBe('account_suspended');
    await t.db.update(users).set({ suspendedUntil: null, bannedAt: new Date() }).where(eq(users.id, restricted.user._id));
    const banned = await withKey(key, 'GET', `/api/v1/events/${own}/attendees`);
    expect(banned.status).toBe(403);
    expect(banned.body.code).toBe('account_banned');
    // Lifted: the key works again (it was never revoked).
    await t.db.update(users).set({ bannedAt: null }).where(eq(users.id, restricted.user._id));
    expect((await withKey(key, 'GET', '/api/v1/events')).status).toBe(200);
  });

  it('is in the OpenAPI document with the key scheme', async () => {
    const doc = await t.api('GET', '/api/docs/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.components.securitySchemes.apiKeyBearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.body.components.securitySchemes.apiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
    expect(doc.body.paths['/api/v1/events/{id}/check-ins'].post.security).toEqual([{ apiKeyBearer: [] }, { apiKeyHeader: [] }]);
  });
});
