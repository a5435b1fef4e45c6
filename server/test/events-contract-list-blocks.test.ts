import { request } from 'node:http';
import zlib from 'node:zlib';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/db/ids.js';
import { events } from '../src/db/schema.js';
import { createEvent } from './helpers/events.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * The contract's whole list at a size where it is kept as many separately compressed blocks (about 128
 * events each): after single changes (an edit, a moved date, a deletion, a new approval) only the changed
 * events are read again, yet every answer is the whole list in order, the same in gzip (a decoder checks
 * its CRC and length) as uncompressed, and each entry the event's own current body.
 */

type EventDto = { _id: string; title: string; date: string };
const EVENTS = 1500;
const DAY = 24 * 60 * 60 * 1000;

function get(t: TestServer, headers: Record<string, string>): Promise<{ status: number; etag: string; encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${t.url}/api/events/admin/approved`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: String(res.headers.etag), encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

let t: TestServer;
let admin: { token: string };
let organiser: { token: string; user: { _id: string } };
let seeded: string[];
/** Seeded event i starts `i` hours after this (whole minutes). */
let base: number;

/** The list both ways: gzip decoded strictly equal to the plain body, in start order, every entry as GET /api/events/:id has it. */
async function readList(sample: string[]): Promise<{ list: EventDto[]; etag: string }> {
  const plain = await get(t, { 'accept-encoding': 'identity' });
  const packed = await get(t, { 'accept-encoding': 'gzip' });
  expect(plain.status).toBe(200);
  expect(packed.encoding).toBe('gzip');
  expect(zlib.gunzipSync(packed.body).equals(plain.body)).toBe(true);
  expect(packed.etag).toBe(plain.etag);
  const list = JSON.parse(plain.body.toString('utf8')) as EventDto[];
  const [approved] = await t.db.select({ n: count() }).from(events).where(eq(events.status, 'approved'));
  expect(list).toHaveLength(approved!.n);
  expect(new Set(list.map((event) => event._id)).size).toBe(list.length);
  const order = list.map((event) => `${event.date}|${event._id}`);
  expect(order).toEqual([...order].sort());
  for (const id of sample) {
    const one = await t.api('GET', `/api/events/${id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject(list.find((event) => event._id === id)!);
  }
  return { list, etag: plain.etag };
}

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.loginAdmin();
  organiser = await t.createUser('blocksorganiser');
  base = Math.floor((Date.now() + 2 * DAY) / 60_000) * 60_000;
  const rows = Array.from({ length: EVENTS }, (_, index) => ({
    id: newId(),
    title: `Kisumu Lakeside Market ${index}`,
    description: `Stalls by Lake Victoria, day ${index}`,
    startsAt: new Date(base + index * 3_600_000),
    location: 'Kisumu',
    latitude: -0.0917,
    longitude: 34.768,
    status: 'approved' as const,
    isPaid: false,
    ticketPrice: 0,
    userId: organiser.user._id,
  }));
  await t.db.insert(events).values(rows);
  seeded = rows.map((row) => row.id);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('whole list kept in blocks', () => {
  it('stays whole and in order through edits, a moved date, a deletion and a new approval', { timeout: 120_000 }, async () => {
    const first = await readList([seeded[0]!, seeded[700]!, seeded[EVENTS - 1]!]);
    expect(first.list).toHaveLength(EVENTS);

    // An edit in the middle of the list.
    expect((await t.api('PUT', `/api/events/${seeded[700]}`, { token: admin.token, body: { title: 'Kisumu Lakeside Market, now with boat rides' } })).status).toBe(200);
    const edited = await readList([seeded[700]!, seeded[699]!, seeded[701]!]);
    expect(edited.etag).not.toBe(first.etag);
    expect(edited.list[700]!.title).toBe('Kisumu Lakeside Market, now with boat rides');

    // A date moved: the event leaves its block and joins another one far down the list.
    // (Wall-clock dates are stored as given: UTC fields.)
    const later = new Date(base + 1200.5 * 3_600_000).toISOString().slice(0, 16);
    expect((await t.api('PUT', `/api/events/${seeded[100]}`, { token: admin.token, body: { date: later } })).status).toBe(200);
    const moved = await readList([seeded[100]!, seeded[99]!, seeded[101]!]);
    expect(moved.list.findIndex((event) => event._id === seeded[100])).toBe(1200);

    // A deletion, then a new event approved: one leaves, one arrives.
    expect((await t.api('DELETE', `/api/events/${seeded[900]}`, { token: admin.token })).status).toBe(200);
    const created = ((await createEvent(t, organiser.token, { title: 'Dunga Beach Fish Fry' }, { approveWith: admin.token })) as { _id: string })._id;
    const after = await readList([created, seeded[899]!, seeded[901]!]);
    expect(after.list.some((event) => event._id === seeded[900])).toBe(false);
    expect(after.list.some((event) => event._id === created)).toBe(true);
    const [row] = await t.db.select({ n: count() }).from(events).where(and(eq(events.status, 'approved'), eq(events.userId, organiser.user._id)));
    expect(row!.n).toBe(EVENTS);

    // Unchanged since: the same ETag again, and a repeat with it is a 304.
    const again = await get(t, { 'accept-encoding': 'gzip', 'if-none-match': after.etag });
    expect(again.status).toBe(304);
  });
});
