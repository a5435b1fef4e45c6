import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { events } from '../src/db/schema.js';
import { recordActivity } from '../src/modules/events/events.repository.js';
import { createTtlCache } from '../src/lib/ttl-cache.js';
import { createEvent, dayFromNow } from './helpers/events.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

let t: TestServer;
let owner: { token: string };
let admin: { token: string };

beforeAll(async () => {
  t = await startTestServer();
  owner = await t.createUser('searcher');
  admin = await t.loginAdmin();
});
afterAll(async () => {
  await t?.close();
});

const approvedEvent = (overrides: Record<string, unknown>) => createEvent(t, owner.token, overrides, { approveWith: admin.token });
const ids = (list: { _id: string }[]) => list.map((event) => event._id);
const utcDayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('GET /api/events (search)', () => {
  it('ranks a title match above a description match, whatever the dates', async () => {
    const inDescription = await approvedEvent({ title: 'Sunday brunch', description: 'Followed by a flamenco lesson.', date: dayFromNow(2) });
    const inTitle = await approvedEvent({ title: 'Flamenco Night', description: 'Dance until late.', date: dayFromNow(30) });
    await createEvent(t, owner.token, { title: 'Flamenco pending', description: 'Not approved yet.' });

    const res = await t.api('GET', '/api/events?q=flamenco');
    expect(res.status).toBe(200);
    expect(ids(res.body.items)).toEqual([inTitle._id, inDescription._id]);
    expect(res.body).toMatchObject({ total: 2, page: 1, limit: 12, pages: 1 });
  });

  it('matches part of a word, case-insensitively, with every word required', async () => {
    const event = await approvedEvent({ title: 'Kisumu Lakeside Marathon', location: 'Dunga Beach, Kisumu' });
    for (const q of ['MARA', 'marath', 'lakes kisu', 'Kisumu, marathon!']) {
      const res = await t.api('GET', `/api/events?q=${encodeURIComponent(q)}`);
      expect(ids(res.body.items), q).toContain(event._id);
    }
    expect((await t.api('GET', '/api/events?q=marathon%20zzzz')).body.total).toBe(0);
    // Query syntax is not passed through.
    const odd = await t.api('GET', `/api/events?q=${encodeURIComponent("mara:* | ! & '")}`);
    expect(odd.status).toBe(200);
    expect(ids(odd.body.items)).toContain(event._id);
  });

  it('pages results with total, pages and page', async () => {
    const created = [];
    for (let i = 0; i < 5; i += 1) created.push(await approvedEvent({ title: `Zebra walk ${i}`, date: dayFromNow(5 + i) }));
    const page1 = await t.api('GET', '/api/events?q=zebra&limit=2');
    expect(page1.body).toMatchObject({ total: 5, pages: 3, page: 1, limit: 2 });
    expect(page1.body.items).toHaveLength(2);
    const page2 = await t.api('GET', '/api/events?q=zebra&limit=2&page=2');
    expect(page2.body).toMatchObject({ total: 5, pages: 3, page: 2 });
    expect(ids(page2.body.items)).toEqual([created[2]._id, created[3]._id]);
    const page3 = await t.api('GET', '/api/events?q=zebra&limit=2&page=3');
    expect(page3.body.items).toHaveLength(1);
    const beyond = await t.api('GET', '/api/events?q=zebra&limit=2&page=9');
    expect(beyond.body).toMatchObject({ items: [], total: 5, pages: 3, page: 9 });

    const all = await t.api('GET', '/api/events?limit=50');
    expect(all.body.total).toBeGreaterThanOrEqual(5);
    const dates = all.body.items.map((event: { date: string }) => event.date);
    expect(dates).toEqual([...dates].sort());
  });

  it('filters by location, price and dates; from defaults to today (UTC midnight)', async () => {
    const free = await approvedEvent({ title: 'Okapi free day', location: 'Nakuru Town', date: dayFromNow(3) });
    const paid = await approvedEvent({ title: 'Okapi paid day', location: 'Kisii', date: dayFromNow(40), isPaid: true, ticketPrice: 200 });
    const past = await approvedEvent({ title: 'Okapi past day', location: 'Nakuru Town' });
    await t.db.update(events).set({ startsAt: new Date(Date.now() - 3 * 86_400_000) }).where(eq(events.id, past._id));

    const search = async (query: string) => ids((await t.api('GET', `/api/events?q=okapi&${query}`)).body.items);
    expect(await search('')).toEqual([free._id, paid._id]);
    expect(await search('location=nakuru')).toEqual([free._id]);
    expect(await search('free=true')).toEqual([free._id]);
    expect(await search('free=false')).toEqual([paid._id]);
    expect(await search(`from=${utcDayOffset(-5)}`)).toEqual([past._id, free._id, paid._id]);
    expect(await search(`to=${utcDayOffset(3)}`)).toEqual([free._id]);
    expect(await search(`from=${utcDayOffset(10)}&to=${utcDayOffset(60)}`)).toEqual([paid._id]);
  });

  it.each([
    ['limit=51', 'limit must be at most 50.', 'limit'],
    ['limit=0', 'limit must be at least 1.', 'limit'],
    ['page=abc', 'page must be a whole number.', 'page'],
    ['from=yesterday', 'from must be a date (YYYY-MM-DD) or date and time (YYYY-MM-DDTHH:mm).', 'from'],
    ['free=perhaps', 'free must be true or false.', 'free'],
    [`q=${'x'.repeat(201)}`, 'q must be at most 200 characters.', 'q'],
  ])('refuses %s with a 400 naming the parameter', async (query, msg, field) => {
    const res = await t.api('GET', `/api/events?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ msg, field });
  });
});

describe('search result cache', () => {
  it('shows an approval, an edit and a deletion on this instance at once', async () => {
    const search = async () => ids((await t.api('GET', '/api/events?q=quokka')).body.items);
    expect(await search()).toEqual([]);
    const event = await approvedEvent({ title: 'Quokka parade' });
    expect(await search()).toEqual([event._id]);
    // An admin's edit: an organiser's would send the event back to review (security-data-loss.test.ts).
    await t.api('PUT', `/api/events/${event._id}`, { token: admin.token, body: { title: 'Wombat parade' } });
    expect(await search()).toEqual([]);
    await t.api('PUT', `/api/events/${event._id}`, { token: admin.token, body: { title: 'Quokka parade again' } });
    expect(await search()).toEqual([event._id]);
    await t.api('PUT', `/api/events/admin/disapprove/${event._id}`, { token: admin.token, body: {} });
    expect(await search()).toEqual([]);
    await t.api('PUT', `/api/events/admin/approve/${event._id}`, { token: admin.token, body: {} });
    await t.api('DELETE', `/api/events/${event._id}`, { token: owner.token });
    expect(await search()).toEqual([]);
  });

  it('answers identical searches arriving together with the same result', async () => {
    await approvedEvent({ title: 'Capybara choir' });
    const answers = await Promise.all(Array.from({ length: 8 }, () => t.api('GET', '/api/events?q=capybara')));
    expect(new Set(answers.map((res) => JSON.stringify(res.body))).size).toBe(1);
    expect(answers[0]!.body.total).toBe(1);
  });

  it('expires entries after the time to live and keeps at most max entries', () => {
    let clock = 0;
    const cache = createTtlCache<number>({ ttlMs: 100, max: 2, now: () => clock });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')).toBe(3);
    clock = 100;
    expect(cache.get('c')).toBeUndefined();
    // Kept for another time to live as stale, for a background refresh.
    expect(cache.lookup('c')).toEqual({ value: 3, fresh: false });
    clock = 200;
    expect(cache.lookup('c')).toBeUndefined();
    clock = 300;
    cache.set('x', 1);
    cache.set('y', 2);
    cache.update('x', (value) => value + 10);
    expect(cache.get('x')).toBe(11);
    cache.forget('x');
    expect([cache.get('x'), cache.get('y')]).toEqual([undefined, 2]);
    cache.forget(null);
    expect(cache.get('y')).toBeUndefined();
    const off = createTtlCache<number>({ ttlMs: 0, max: 2 });
    off.set('a', 1);
    expect(off.get('a')).toBeUndefined();
  });
});

describe('upcoming, popular (trending) and related', () => {
  it('lists upcoming approved events soonest first, from now', async () => {
    const later = await approvedEvent({ title: 'Later', date: dayFromNow(50) });
    const sooner = await approvedEvent({ title: 'Sooner', date: dayFromNow(1) });
    const res = await t.api('GET', '/api/events/upcoming?limit=50');
    const list = ids(res.body);
    expect(list.indexOf(sooner._id)).toBeLessThan(list.indexOf(later._id));
    expect(res.body.every((event: { date: string; status: string }) => event.status === 'approved' && event.date >= new Date(Date.now() - 1000).toISOString())).toBe(true);
  });

  it('ranks trending by decayed opens, shares and registrations', async () => {
    const quiet = await approvedEvent({ title: 'Quiet', date: dayFromNow(1) });
    const opened = await approvedEvent({ title: 'Opened', date: dayFromNow(20) });
    const shared = await approvedEvent({ title: 'Shared', date: dayFromNow(21) });
    const registered = await approvedEvent({ title: 'Registered', date: dayFromNow(22) });
    const old = await approvedEvent({ title: 'Old buzz', date: dayFromNow(23) });
    const hidden = await createEvent(t, owner.token, { title: 'Pending buzz' });

    for (let i = 0; i < 4; i += 1) await t.api('POST', `/api/events/incrementOpenedCount/${opened._id}`);
    for (const platform of ['whatsapp', 'twitter']) await t.api('POST', `/api/events/share-track/${shared._id}`, { body: { platform } });
    // Tickets count in through the exported helper the tickets module calls.
    await recordActivity(t.db, registered._id, 'registrations', 2);
    // 20 opens nine days ago decay to 20 * 0.5^3 = 2.5.
    await recordActivity(t.db, old._id, 'opens', 20, utcDayOffset(-9));
    await recordActivity(t.db, hidden._id, 'opens', 100);

    const res = await t.api('GET', '/api/events/popular?limit=50');
    expect(res.status).toBe(200);
    const list = ids(res.body);
    // registered 2*5=10 > shared 2*3=6 > opened 4 > old 2.5 > no activity (soonest first).
    expect(list.slice(0, 4)).toEqual([registered._id, shared._id, opened._id, old._id]);
    expect(list).toContain(quiet._id);
    expect(list).not.toContain(hidden._id);
    expect((await t.api('GET', '/api/events/popular')).body.length).toBeLessThanOrEqual(10);
  });

  it('relates at most 3 approved upcoming events at the same location, excluding the event', async () => {
    const base = await approvedEvent({ title: 'Base', location: 'Fort Jesus, Mombasa' });
    const same = [];
    for (let i = 0; i < 4; i += 1) same.push(await approvedEvent({ title: `Same ${i}`, location: i % 2 ? 'FORT JESUS, MOMBASA' : 'fort jesus, mombasa', date: dayFromNow(2 + i) }));
    await approvedEvent({ title: 'Elsewhere', location: 'Nyali Beach, Mombasa' });
    await createEvent(t, owner.token, { title: 'Pending same', location: 'Fort Jesus, Mombasa', date: dayFromNow(1) });

    const res = await t.api('GET', `/api/events/${base._id}/related`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([same[0]._id, same[1]._id, same[2]._id]);
    expect((await t.api('GET', '/api/events/0123456789abcdef01234567/related')).status).toBe(404);
  });
});

describe('search cache time to live', () => {
  it('serves an expired result once more while refreshing it, then the fresh one', async () => {
    // The cache reads the clock (Date.now): it moves on its own, and jumps past the time to live when the
    // test says so, instead of the test sleeping and hoping a busy machine kept to time in between.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    const ttlMs = 60_000;
    const short = await startTestServer({ EVENTS_SEARCH_CACHE_MS: String(ttlMs) });
    try {
      const organiser = await short.createUser('ttlorganiser');
      const shortAdmin = await short.loginAdmin();
      const first = await createEvent(short, organiser.token, { title: 'Pangolin walk' }, { approveWith: shortAdmin.token });
      const second = await createEvent(short, organiser.token, { title: 'Pangolin talk', date: dayFromNow(11) });
      const search = async () => ids((await short.api('GET', '/api/events?q=pangolin')).body.items);
      expect(await search()).toEqual([first._id]);
      // Approved behind the service's back (as another instance would): this instance does not know yet.
      await short.db.update(events).set({ status: 'approved' }).where(eq(events.id, second._id));
      expect(await search()).toEqual([first._id]);
      vi.setSystemTime(Date.now() + ttlMs + 1000);
      expect(await search()).toEqual([first._id]); // stale, refresh started
      await expect.poll(search, { timeout: 10_000, interval: 50 }).toEqual([first._id, second._id]);
    } finally {
      await short.close();
      vi.useRealTimers();
    }
  });
});
