import { eq, sql } from 'drizzle-orm';
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
    ['cursor=not-a-cursor', 'cursor is not valid: use the nextCursor of a previous answer.', 'cursor'],
  ])('refuses %s with a 400 naming the parameter', async (query, msg, field) => {
    const res = await t.api('GET', `/api/events?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ msg, field });
  });
});

describe('GET /api/events: relevance, typos and paging', () => {
  type Page = { items: { _id: string; title: string; location: string; description: string }[]; total: number; pages: number; totalIsEstimate: boolean; nextCursor: string | null; correctedQuery?: string };
  const search = async (query: string): Promise<Page> => {
    const res = await t.api('GET', `/api/events?${query}`);
    expect(res.status, query).toBe(200);
    return res.body;
  };

  it('orders title matches, then place matches, then description-only matches, each soonest first, filters included', async () => {
    const describedSoon = await approvedEvent({ title: 'Evening market', description: 'Stalls from Turkana and beyond.', location: 'Kitale', date: dayFromNow(1) });
    const placedLate = await approvedEvent({ title: 'Sunset cruise', description: 'On the lake.', location: 'Eliye Springs, Turkana', date: dayFromNow(40) });
    const placedSoon = await approvedEvent({ title: 'Fish fry', description: 'Tilapia.', location: 'Lodwar, Turkana', date: dayFromNow(3) });
    const titledLate = await approvedEvent({ title: 'Turkana Festival', description: 'Dances.', location: 'Lodwar', date: dayFromNow(50), isPaid: true, ticketPrice: 300 });
    const titledSoon = await approvedEvent({ title: 'Turkana Art Walk', description: 'Beads.', location: 'Lodwar', date: dayFromNow(20) });

    const all = await search('q=turkana');
    expect(ids(all.items)).toEqual([titledSoon._id, titledLate._id, placedSoon._id, placedLate._id, describedSoon._id]);
    expect(all).toMatchObject({ total: 5, pages: 1, totalIsEstimate: false, nextCursor: null });
    expect(ids((await search('q=turkana&location=lodwar')).items)).toEqual([titledSoon._id, titledLate._id, placedSoon._id]);
    expect(ids((await search('q=turkana&free=true')).items)).toEqual([titledSoon._id, placedSoon._id, placedLate._id, describedSoon._id]);
    expect(ids((await search(`q=turkana&to=${utcDayOffset(25)}`)).items)).toEqual([titledSoon._id, placedSoon._id, describedSoon._id]);
    // Every word must match, in whichever field: 'turkana beads' is a title word and a description word.
    expect(ids((await search('q=turkana%20beads')).items)).toEqual([titledSoon._id]);
  });

  it('corrects misspelt Kenyan place names to the known words most like them, and says so', async () => {
    const nairobi = await approvedEvent({ title: 'Mchongoano night', location: 'Kenyatta Avenue, Nairobi', date: dayFromNow(4) });
    const mombasa = await approvedEvent({ title: 'Taarab evening', location: 'Fort Jesus, Mombasa', date: dayFromNow(5) });
    const kisumu = await approvedEvent({ title: 'Omena fest', location: 'Dunga Beach, Kisumu', date: dayFromNow(6) });
    const mentions = (page: Page, word: string) =>
      page.items.every((item) => `${item.title} ${item.location} ${item.description}`.toLowerCase().includes(word));

    const naiorbi = await search('q=Naiorbi');
    expect(ids(naiorbi.items)).toContain(nairobi._id);
    expect(mentions(naiorbi, 'nairobi')).toBe(true);
    expect(naiorbi.correctedQuery).toBe('nairobi');
    // A beginning of a known word is no typo: 'Mombas' is searched as it is, like 'marath' for marathon.
    const mombas = await search('q=Mombas');
    expect(ids(mombas.items)).toContain(mombasa._id);
    expect(mentions(mombas, 'mombasa')).toBe(true);
    expect(mombas.correctedQuery).toBeUndefined();
    const kisumo = await search('q=kisumo%20omena');
    expect(ids(kisumo.items)).toEqual([kisumu._id]);
    expect(kisumo.correctedQuery).toBe('kisumu omena');
    expect(ids((await search('q=Mchongoano%20Naiorbi')).items)).toEqual([nairobi._id]);
    // Nothing like it anywhere: no match, rather than a guess.
    const nothing = await search('q=qxzvwjk');
    expect(nothing).toMatchObject({ items: [], total: 0, pages: 0 });
    expect(nothing.correctedQuery).toBeUndefined();

    // Words of an edited title are known at once.
    await t.api('PUT', `/api/events/${kisumu._id}`, { token: admin.token, body: { title: 'Omena and Ugali fest' } });
    const ugali = await search('q=ugalli');
    expect(ids(ugali.items)).toEqual([kisumu._id]);
    expect(ugali.correctedQuery).toBe('ugali');
  });

  it('pages by cursor across the relevance classes without duplicates or gaps, like page numbers', async () => {
    const made = [];
    for (let i = 0; i < 3; i += 1) made.push(await approvedEvent({ title: `Serengeti trip ${i}`, location: 'Narok', date: dayFromNow(2 + i) }));
    for (let i = 0; i < 2; i += 1) made.push(await approvedEvent({ title: `Drive ${i}`, location: `Serengeti gate ${i}`, date: dayFromNow(1 + i) }));
    for (let i = 0; i < 2; i += 1) made.push(await approvedEvent({ title: `Talk ${i}`, description: 'About the Serengeti.', location: 'Narok', date: dayFromNow(1 + i) }));
    const everything = ids((await search('q=serengeti&limit=50')).items);
    expect(everything).toHaveLength(7);
    expect(new Set(everything)).toEqual(new Set(ids(made)));

    const byCursor: string[] = [];
    let cursor: string | null = null;
    for (let page = 1; page <= 5; page += 1) {
      const answer: Page = await search(`q=serengeti&limit=3&page=${page}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(answer).toMatchObject({ total: 7, pages: 3, totalIsEstimate: false });
      expect(ids(answer.items)).toEqual(ids((await search(`q=serengeti&limit=3&page=${page}`)).items));
      byCursor.push(...ids(answer.items));
      cursor = answer.nextCursor;
      if (!cursor) break;
    }
    expect(byCursor).toEqual(everything);
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
    // A second server's start (its own database, migrations, users) is most of this: a scenario's budget.
  }, 90_000);
});

describe('search totals past the exact count', () => {
  it('estimates the total of a very common word, with pages to match, and still pages to the end by cursor', async () => {
    // 1,005 events written straight to the database, far ahead so they stay out of the other lists.
    await t.db.execute(sql`
      insert into events (id, title, description, starts_at, location, status, user_id)
      select lpad(to_hex(1000000 + i), 24, '0'), 'Wildebeest crossing ' || i, 'Migration season.', now() + (400 + i % 50) * interval '1 day',
             'Maasai Mara', 'approved', (select user_id from events limit 1)
      from generate_series(1, 1005) as i`);
    const first = await t.api('GET', '/api/events?q=wildebeest&limit=50');
    expect(first.body).toMatchObject({ totalIsEstimate: true, page: 1, limit: 50 });
    expect(first.body.total).toBeGreaterThan(1000);
    expect(first.body.pages).toBe(Math.ceil(first.body.total / 50));
    expect(first.body.items).toHaveLength(50);

    // Their start times carry microseconds (now()), which the cursor keeps: no event twice, none left out.
    const seen = ids(first.body.items);
    let cursor: string | null = first.body.nextCursor;
    while (cursor) {
      const next = await t.api('GET', `/api/events?q=wildebeest&limit=50&cursor=${cursor}`);
      expect(next.status).toBe(200);
      seen.push(...ids(next.body.items));
      cursor = next.body.nextCursor;
    }
    expect(seen).toHaveLength(1005);
    expect(new Set(seen).size).toBe(1005);
    // Narrowed to under the limit, the count is exact again.
    expect((await t.api('GET', '/api/events?q=wildebeest%2012')).body).toMatchObject({ totalIsEstimate: false });
  });
});
