import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent } from './helpers/events.js';
import { startTestServer, startTwoInstancesOnRedis, type TestServer } from './helpers/test-server.js';

// Published events and search rankings are served from memory. A time to live far longer than any
// test makes sure that what these tests see fresh was dropped by the change feed, not by expiry.
const longCache = { EVENTS_CACHE_MS: '600000', EVENTS_SEARCH_CACHE_MS: '600000' };

type User = { token: string; user: { _id: string } };

describe('cached event bodies on one instance', () => {
  let t: TestServer;
  let owner: User;
  let buyer: User;
  let admin: User;

  beforeAll(async () => {
    t = await startTestServer(longCache);
    owner = await t.createUser('cacheowner');
    buyer = await t.createUser('cachebuyer');
    admin = await t.loginAdmin();
  });
  afterAll(async () => {
    await t?.close();
  });

  const visit = (id: string) => t.api('GET', `/api/events/${id}`);
  const search = (q: string) => t.api('GET', `/api/events?q=${encodeURIComponent(q)}`);

  it('shows an edit, at once, to a visitor who had the old body cached', async () => {
    const event = await createEvent(t, owner.token, { title: 'Kisumu Sunset Cruise' }, { approveWith: admin.token });
    expect((await visit(event._id)).body.title).toBe('Kisumu Sunset Cruise');
    expect((await search('sunset cruise')).body.items.map((item: { _id: string }) => item._id)).toContain(event._id);

    // An admin's edit: an organiser's would send the event back to review (security-data-loss.test.ts).
    const edited = await t.api('PUT', `/api/events/${event._id}`, { token: admin.token, body: { title: 'Kisumu Lakeside Cruise' } });
    expect(edited.status).toBe(200);
    expect((await visit(event._id)).body.title).toBe('Kisumu Lakeside Cruise');
    expect((await search('lakeside cruise')).body.items.map((item: { _id: string }) => item._id)).toContain(event._id);
    expect((await search('sunset cruise')).body.items.map((item: { _id: string }) => item._id)).not.toContain(event._id);
  });

  it('hides an event from visitors as soon as an admin disapproves or the owner deletes it', async () => {
    const event = await createEvent(t, owner.token, { title: 'Nakuru Flamingo Walk' }, { approveWith: admin.token });
    expect((await visit(event._id)).status).toBe(200);
    expect((await search('flamingo walk')).body.total).toBe(1);

    expect((await t.api('PUT', `/api/events/admin/disapprove/${event._id}`, { token: admin.token, body: {} })).status).toBe(200);
    expect((await visit(event._id)).status).toBe(404);
    expect((await search('flamingo walk')).body.total).toBe(0);

    expect((await t.api('PUT', `/api/events/admin/approve/${event._id}`, { token: admin.token, body: {} })).status).toBe(200);
    expect((await visit(event._id)).status).toBe(200);
    expect((await t.api('DELETE', `/api/events/${event._id}`, { token: owner.token })).status).toBe(200);
    expect((await visit(event._id)).status).toBe(404);
    expect((await search('flamingo walk')).body.items).toEqual([]);
  });

  it('shows a new ticket holder and the seats left right after a registration', async () => {
    const event = await createEvent(t, owner.token, { title: 'Eldoret Morning Run', capacity: 10 }, { approveWith: admin.token });
    const before = await visit(event._id);
    expect(before.body).toMatchObject({ registeredUsers: [], ticketsSold: 0, seatsLeft: 10 });

    const registered = await t.api('POST', `/api/events/register/${event._id}`, { token: buyer.token, body: {} });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    expect((await visit(event._id)).body).toMatchObject({ registeredUsers: [buyer.user._id], ticketsSold: 1, seatsLeft: 9 });
    const [item] = (await search('eldoret morning run')).body.items;
    expect(item).toMatchObject({ _id: event._id, registeredUsers: [buyer.user._id], seatsLeft: 9 });
  });

  it('counts opens on the cached body', async () => {
    const event = await createEvent(t, owner.token, { title: 'Mombasa Dhow Race' }, { approveWith: admin.token });
    expect((await visit(event._id)).body.openedCount).toBe(0);
    for (let i = 0; i < 3; i++) expect((await t.api('POST', `/api/events/incrementOpenedCount/${event._id}`)).status).toBe(204);
    expect((await visit(event._id)).body.openedCount).toBe(3);
  });

  it('answers a conditional GET of an unchanged event or search with 304, and a changed one with its new body', async () => {
    const event = await createEvent(t, owner.token, { title: 'Machakos Kite Festival' }, { approveWith: admin.token });
    for (const path of [`/api/events/${event._id}`, '/api/events?q=kite%20festival']) {
      const first = await t.api('GET', path);
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^W\/"[0-9a-f]+-/);
      expect(first.headers.get('content-type')).toMatch(/^application\/json/);
      // fetch adds `Cache-Control: no-cache` to a conditional request unless one is given; browsers revalidating send max-age=0.
      const again = await t.api('GET', path, { headers: { 'if-none-match': etag!, 'cache-control': 'max-age=0' } });
      expect(again.status, `${path}: ${etag} then ${again.headers.get('etag')}`).toBe(304);
    }
    const before = (await t.api('GET', `/api/events/${event._id}`)).headers.get('etag')!;
    expect((await t.api('PUT', `/api/events/${event._id}`, { token: admin.token, body: { title: 'Machakos Kite Day' } })).status).toBe(200);
    const after = await t.api('GET', `/api/events/${event._id}`, { headers: { 'if-none-match': before, 'cache-control': 'max-age=0' } });
    expect(after.status).toBe(200);
    expect(after.body.title).toBe('Machakos Kite Day');
    const [found] = (await search('kite day')).body.items;
    expect(found).toMatchObject({ _id: event._id, title: 'Machakos Kite Day' });
  });

  it('never serves a pending event from the cache to a visitor, while its owner still sees it', async () => {
    const event = await createEvent(t, owner.token, { title: 'Nyeri Coffee Tasting' });
    expect((await t.api('GET', `/api/events/${event._id}`, { token: owner.token })).body.status).toBe('pending');
    expect((await visit(event._id)).status).toBe(404);
  });
});

describe('cached event bodies across instances', () => {
  it('drops another instance’s copy through Redis when an event changes or sells tickets', async () => {
    const cluster = await startTwoInstancesOnRedis(longCache);
    const { one, two } = cluster;
    try {
      const owner = await one.createUser('farowner');
      const buyer = await one.createUser('farbuyer');
      const admin = await one.loginAdmin();
      const event = await createEvent(one, owner.token, { title: 'Lamu Cultural Festival', capacity: 5 }, { approveWith: admin.token });
      const seenOnTwo = async () => (await two.api('GET', `/api/events/${event._id}`)).body;
      expect(await seenOnTwo()).toMatchObject({ title: 'Lamu Cultural Festival', seatsLeft: 5 });

      expect((await one.api('PUT', `/api/events/${event._id}`, { token: admin.token, body: { title: 'Lamu Maulidi Festival' } })).status).toBe(200);
      await expect.poll(async () => (await seenOnTwo()).title, { timeout: 15_000 }).toBe('Lamu Maulidi Festival');

      expect((await one.api('POST', `/api/events/register/${event._id}`, { token: buyer.token, body: {} })).status).toBe(200);
      await expect.poll(async () => (await seenOnTwo()).seatsLeft, { timeout: 15_000 }).toBe(4);
      expect((await seenOnTwo()).registeredUsers).toEqual([buyer.user._id]);

      expect((await one.api('PUT', `/api/events/admin/disapprove/${event._id}`, { token: admin.token, body: {} })).status).toBe(200);
      await expect.poll(async () => (await two.api('GET', `/api/events/${event._id}`)).status, { timeout: 15_000 }).toBe(404);
    } finally {
      await cluster.close();
    }
  }, 120_000);
});
