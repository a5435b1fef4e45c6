import { request } from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayFromNow, insertEventRow } from './helpers/events.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * The contract's whole-list answers (GET /api/events/admin/approved, GET /api/events/getevnt), read whole by
 * clients written against the original contract: compressed when accepted, a strong ETag answered with 304 on
 * repeat, a new ETag and body when events or their tickets change, and limited per client address.
 */

type EventDto = { _id: string; title: string; date: string; registeredUsers: string[] };
type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** A raw request (fetch would undo the compression this test looks at). */
function raw(t: TestServer, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${t.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The list as JSON: every approved event once, soonest first (then by id), each entry as GET /api/events/:id has it. */
async function readList(sample: (list: EventDto[]) => EventDto[]): Promise<{ list: EventDto[]; etag: string }> {
  const plain = await raw(t, '/api/events/admin/approved');
  expect(plain.status).toBe(200);
  const list = JSON.parse(plain.body.toString('utf8')) as EventDto[];
  expect(new Set(list.map((event) => event._id)).size).toBe(list.length);
  const order = list.map((event) => `${event.date}|${event._id}`);
  expect(order).toEqual([...order].sort());
  for (const event of sample(list)) expect((await t.api('GET', `/api/events/${event._id}`)).body).toEqual(event);
  return { list, etag: String(plain.headers.etag) };
}

let t: TestServer;
let organiser: { token: string; user: { _id: string } };
beforeAll(async () => {
  // RATE_LIMIT_MAX 10 → 300 list requests per window and address.
  t = await startTestServer({ RATE_LIMIT_MAX: '10' });
  organiser = await t.createUser('listorganiser');
  for (let index = 0; index < 40; index += 1) await insertEventRow(t.db, { ownerId: organiser.user._id, days: 5 + index, title: `Nairobi Street Food Festival ${index}` });
  await insertEventRow(t.db, { ownerId: organiser.user._id, days: 9, status: 'pending', title: 'A pending gala' });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('whole-list contract answers', () => {
  it('compress for clients that accept it, and answer a repeat with 304', async () => {
    const plain = await raw(t, '/api/events/admin/approved');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    const events = JSON.parse(plain.body.toString('utf8')) as Array<{ title: string }>;
    expect(events).toHaveLength(40);
    expect(events.some((event) => event.title === 'A pending gala')).toBe(false);

    for (const accept of ['gzip', 'gzip, deflate', 'br;q=0.5, gzip;q=1']) {
      const packed = await raw(t, '/api/events/admin/approved', { 'accept-encoding': accept });
      expect(packed.headers['content-encoding']).toBe('gzip');
      expect(packed.headers.vary).toMatch(/Accept-Encoding/i);
      expect(packed.body.length).toBeLessThan(plain.body.length / 4);
      expect(zlib.gunzipSync(packed.body).equals(plain.body)).toBe(true);
    }
    // A browser also accepts Brotli, which the middleware prefers.
    const brotli = await raw(t, '/api/events/admin/approved', { 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);

    const etag = String(plain.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    for (const accept of ['gzip', 'identity']) {
      const again = await raw(t, '/api/events/admin/approved', { 'if-none-match': etag, 'accept-encoding': accept });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
    }
    // Visitors' /getevnt is the same list, the same body.
    expect((await raw(t, '/api/events/getevnt', { 'if-none-match': etag })).status).toBe(304);
    const visitors = await raw(t, '/api/events/getevnt');
    expect(visitors.body.equals(plain.body)).toBe(true);
  });

  it('get a new ETag and body when an event or its tickets change; an admin gets every event', async () => {
    const before = await raw(t, '/api/events/admin/approved');
    const created = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 3, title: 'Mombasa Dhow Race' });
    // Rows inserted behind the server's back announce nothing; an approval through the API does.
    const admin = await t.loginAdmin();
    expect((await raw(t, '/api/events/admin/approved', { 'if-none-match': String(before.headers.etag) })).status).toBe(304);
    expect((await t.api('PUT', `/api/events/admin/disapprove/${created}`, { token: admin.token })).status).toBe(200);
    expect((await t.api('PUT', `/api/events/admin/approve/${created}`, { token: admin.token })).status).toBe(200);
    const after = await raw(t, '/api/events/admin/approved', { 'if-none-match': String(before.headers.etag) });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(JSON.parse(after.body.toString('utf8')).map((event: { title: string }) => event.title)).toContain('Mombasa Dhow Race');

    // A free registration changes the event's seats and registered users: the body follows.
    const fan = await t.createUser('listfan');
    expect((await t.api('POST', `/api/events/register/${created}`, { token: fan.token, body: { tickets: 1 } })).status).toBe(200);
    const registered = await raw(t, '/api/events/admin/approved', { 'if-none-match': String(after.headers.etag) });
    expect(registered.status).toBe(200);
    const listed = (JSON.parse(registered.body.toString('utf8')) as EventDto[]).find((event) => event._id === created);
    expect(listed?.registeredUsers).toEqual([fan.user._id]);

    const all = await t.api('GET', '/api/events/getevnt', { token: admin.token });
    expect(all.body.map((event: { title: string }) => event.title)).toContain('A pending gala');
    expect(all.headers.get('etag')).not.toBe(registered.headers.etag);
  });

  it('stay whole and in order through an edit, a moved date and a deletion', async () => {
    const admin = await t.loginAdmin();
    const first = await readList((list) => [list[0]!, list[20]!, list.at(-1)!]);
    const middle = first.list[20]!;
    expect((await t.api('PUT', `/api/events/${middle._id}`, { token: admin.token, body: { title: 'Nairobi Street Food Festival, now with music' } })).status).toBe(200);
    const edited = await readList((list) => [list[19]!, list[20]!, list[21]!]);
    expect(edited.etag).not.toBe(first.etag);
    expect(edited.list[20]).toMatchObject({ _id: middle._id, title: 'Nairobi Street Food Festival, now with music' });

    // Moved past every other event: it is now last.
    const moved = edited.list[5]!;
    expect((await t.api('PUT', `/api/events/${moved._id}`, { token: admin.token, body: { date: dayFromNow(400) } })).status).toBe(200);
    const later = await readList((list) => [list.at(-1)!]);
    expect(later.list.at(-1)!._id).toBe(moved._id);
    expect(later.etag).not.toBe(edited.etag);

    expect((await t.api('DELETE', `/api/events/${middle._id}`, { token: admin.token })).status).toBe(200);
    const deleted = await readList(() => []);
    expect(deleted.list.some((event) => event._id === middle._id)).toBe(false);
    expect(deleted.list).toHaveLength(later.list.length - 1);
    expect((await raw(t, '/api/events/admin/approved', { 'if-none-match': deleted.etag })).status).toBe(304);
  });

  it('are limited per client address', async () => {
    let status = 200;
    let served = 0;
    while (status !== 429 && served < 400) {
      status = (await raw(t, '/api/events/admin/approved', { 'if-none-match': '"x"' })).status;
      if (status !== 429) served += 1;
    }
    expect(status).toBe(429);
    expect(served).toBeLessThanOrEqual(300);
  });
});
