import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/db/ids.js';
import { events, moderationActions, payments, refunds, reports } from '../src/db/schema.js';
import { encodeKeysetCursor } from '../src/lib/keyset-page.js';
import { insertEventRow } from './helpers/events.js';
import { payFor } from './helpers/refunds.js';
import { startTestServer, type ApiResponse, type TestServer } from './helpers/test-server.js';

/**
 * The admin and profile lists our own client pages through (docs/decisions/pagination.md): GET
 * /api/admin/events, /api/admin/refunds/paged, /api/moderation/log/paged, /api/events/user/:userId/paged,
 * /api/tickets/mine/paged and /api/transactions/:userId/paged. Rows share timestamps down to the
 * microsecond (and within one millisecond), so a cursor that lost precision would repeat or skip them.
 */

type Session = { token: string; user: { _id: string } };
type Page<T> = { items: T[]; total: number; nextCursor: string | null };

let t: TestServer;
let admin: Session;
let organiser: Session;
let buyer: Session;
let stranger: Session;
let seller: Session;
/** The organiser's events, and a few of a stranger's. */
let organiserEvents: string[];
let paidEvent: string;

/** Start times shared by several rows: one instant three times, then three instants within one millisecond. */
const CROWDED_STARTS = ['2031-03-01 18:00:00.123456+00', '2031-03-01 18:00:00.123456+00', '2031-03-01 18:00:00.123456+00', '2031-03-01 18:00:00.123457+00', '2031-03-01 18:00:00.123458+00'];

async function setTimes(table: typeof events | typeof payments | typeof refunds | typeof moderationActions, column: 'starts_at' | 'created_at', ids: string[], times: string[]) {
  for (const [index, id] of ids.entries()) {
    await t.db.execute(sql`update ${table} set ${sql.identifier(column)} = ${times[index % times.length]}::timestamptz where id = ${id}`);
  }
}

/** Every page of a list, following nextCursor; fails on a repeated item or a total that changes between pages. */
async function walk<T>(path: string, token: string, idOf: (item: T) => string, limit = 2): Promise<{ ids: string[]; items: T[]; total: number; pages: number }> {
  const items: T[] = [];
  const totals = new Set<number>();
  let cursor: string | null = null;
  let pages = 0;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const res: ApiResponse<Page<T>> = await t.api<Page<T>>('GET', `${path}${separator}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.items.length).toBeLessThanOrEqual(limit);
    if (res.body.nextCursor) expect(res.body.items).toHaveLength(limit);
    items.push(...res.body.items);
    totals.add(res.body.total);
    cursor = res.body.nextCursor;
    pages += 1;
    expect(pages).toBeLessThan(100);
  } while (cursor);
  const ids = items.map(idOf);
  expect(new Set(ids).size).toBe(ids.length);
  expect(totals.size).toBe(1);
  return { ids, items, total: [...totals][0]!, pages };
}

const byId = (item: { _id: string }) => item._id;
const rowIds = (rows: Array<{ id: string }>) => rows.map((row) => row.id);

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.loginAdmin();
  organiser = await t.createUser('pagedorganiser');
  buyer = await t.createUser('pagedbuyer');
  stranger = await t.createUser('pagedstranger');
  seller = await t.createUser('pagedseller');

  organiserEvents = [];
  const statuses = ['pending', 'approved', 'pending', 'approved', 'pending', 'approved', 'pending'] as const;
  for (const [index, status] of statuses.entries()) {
    organiserEvents.push(await insertEventRow(t.db, { ownerId: organiser.user._id, days: 20 + index, status, title: `Paged gala ${index}`, capacity: 50 }));
  }
  await t.db.update(events).set({ status: 'cancelled', cancelReason: 'Rain', cancelledAt: new Date() }).where(inArray(events.id, [organiserEvents[6]!]));
  await setTimes(events, 'starts_at', organiserEvents, CROWDED_STARTS);
  for (let index = 0; index < 3; index += 1) await insertEventRow(t.db, { ownerId: stranger.user._id, days: 40 + index, status: 'pending', title: `Stranger fair ${index}` });
  paidEvent = await insertEventRow(t.db, { ownerId: seller.user._id, days: 60, title: 'Paged paid concert', price: 500, capacity: 100 });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('GET /api/admin/events', () => {
  it('walks every event by date then id, each once, with the total and the count of each status', async () => {
    const expected = rowIds(await t.db.select({ id: events.id }).from(events).orderBy(events.startsAt, events.id));
    const walked = await walk<{ _id: string; registeredUsers?: unknown }>('/api/admin/events', admin.token, byId);
    expect(walked.ids).toEqual(expected);
    expect(walked.total).toBe(expected.length);
    expect(walked.items.every((event) => event.registeredUsers === undefined)).toBe(true);

    const first = await t.api('GET', '/api/admin/events?limit=1', { token: admin.token });
    const count = async (status: string) => (await t.db.select({ id: events.id }).from(events).where(sql`${events.status} = ${status}`)).length;
    expect(first.body.counts).toEqual({ pending: await count('pending'), approved: await count('approved'), cancelled: await count('cancelled'), all: expected.length });
  });

  it('filters by status, organiser and words, and walks latest first on order=desc', async () => {
    const pending = await walk<{ _id: string; status: string; user: string }>(`/api/admin/events?status=pending&user=${organiser.user._id}`, admin.token, byId);
    const expectedPending = rowIds(
      await t.db
        .select({ id: events.id })
        .from(events)
        .where(sql`${events.userId} = ${organiser.user._id} and ${events.status} = 'pending'`)
        .orderBy(events.startsAt, events.id),
    );
    expect(pending.ids).toEqual(expectedPending);
    expect(pending.total).toBe(3);
    const counts = (await t.api('GET', `/api/admin/events?status=pending&user=${organiser.user._id}`, { token: admin.token })).body.counts;
    expect(counts).toEqual({ pending: 3, approved: 3, cancelled: 1, all: 7 });

    const latestFirst = await walk<{ _id: string }>(`/api/admin/events?user=${organiser.user._id}&order=desc`, admin.token, byId, 3);
    const expectedAll = rowIds(await t.db.select({ id: events.id }).from(events).where(sql`${events.userId} = ${organiser.user._id}`).orderBy(events.startsAt, events.id));
    expect(latestFirst.ids).toEqual([...expectedAll].reverse());

    const found = await walk<{ title: string }>('/api/admin/events?q=STRANGER%20fair', admin.token, (event) => event.title);
    expect(found.ids.sort()).toEqual(['Stranger fair 0', 'Stranger fair 1', 'Stranger fair 2']);
  });

  it('is for administrators only', async () => {
    expect((await t.api('GET', '/api/admin/events')).status).toBe(401);
    expect((await t.api('GET', '/api/admin/events', { token: organiser.token })).status).toBe(403);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['cursor=not*a*cursor', 'cursor'],
    [`cursor=${encodeKeysetCursor(['1'])}`, 'cursor'],
    [`cursor=${encodeKeysetCursor(['yesterday', '0123456789abcdef01234567'])}`, 'cursor'],
    ['status=archived', 'status'],
    ['order=sideways', 'order'],
    ['user=nobody', 'user'],
  ])('refuses %s with a 400 naming the field', async (query, field) => {
    const res = await t.api('GET', `/api/admin/events?${query}`, { token: admin.token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field });
  });
});

describe('GET /api/events/user/:userId/paged', () => {
  it("walks the organiser's own events, pending and cancelled ones included, like the whole list", async () => {
    const whole = (await t.api<Array<{ _id: string }>>('GET', `/api/events/user/${organiser.user._id}`, { token: organiser.token })).body;
    const walked = await walk<{ _id: string }>(`/api/events/user/${organiser.user._id}/paged`, organiser.token, byId);
    expect(walked.ids).toEqual(whole.map(byId));
    expect(walked.total).toBe(organiserEvents.length);
    // An administrator may read them too; the same limits apply.
    expect((await walk<{ _id: string }>(`/api/events/user/${organiser.user._id}/paged`, admin.token, byId, 4)).ids).toEqual(walked.ids);
  });

  it("never shows one user another's events", async () => {
    expect((await t.api('GET', `/api/events/user/${organiser.user._id}/paged`, { token: stranger.token })).status).toBe(403);
    expect((await t.api('GET', `/api/events/user/${organiser.user._id}/paged`)).status).toBe(401);
    const own = await walk<{ _id: string; user: string }>(`/api/events/user/${stranger.user._id}/paged`, stranger.token, byId, 10);
    expect(own.total).toBe(3);
    expect(own.items.map((event) => event.user)).toEqual([stranger.user._id, stranger.user._id, stranger.user._id]);
  });

  it('refuses a bad limit or cursor with a 400 naming it', async () => {
    const path = `/api/events/user/${organiser.user._id}/paged`;
    expect((await t.api('GET', `${path}?limit=-3`, { token: organiser.token })).body).toMatchObject({ field: 'limit' });
    expect((await t.api('GET', `${path}?cursor=${encodeKeysetCursor(['12', 'a', 'b'])}`, { token: organiser.token })).body).toMatchObject({ field: 'cursor' });
  });
});

describe('GET /api/tickets/mine/paged', () => {
  it("walks the caller's tickets in My Tickets' order, each with its place among the event's tickets", async () => {
    // Three of the organiser's approved events start at the same instant: tickets tie on the event's start.
    const approved = [organiserEvents[1]!, organiserEvents[3]!, organiserEvents[5]!];
    for (const [index, eventId] of approved.entries()) {
      const res = await t.api('POST', `/api/events/register/${eventId}`, { token: buyer.token, body: { userId: buyer.user._id, tickets: index + 1 } });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    }
    const whole = (await t.api<Array<{ _id: string; event: { _id: string } }>>('GET', '/api/tickets/mine', { token: buyer.token })).body;
    expect(whole).toHaveLength(6);
    const walked = await walk<{ _id: string; code: string; event: { _id: string }; position: { index: number; of: number } }>('/api/tickets/mine/paged', buyer.token, byId);
    expect(walked.ids).toEqual(whole.map(byId));
    expect(walked.total).toBe(6);
    for (const ticket of walked.items) {
      const same = whole.filter((other) => other.event._id === ticket.event._id);
      expect(ticket.position).toEqual({ index: same.findIndex((other) => other._id === ticket._id) + 1, of: same.length });
    }
    expect(walked.items.every((ticket) => ticket.code.startsWith('TK1.'))).toBe(true);
  });

  it("shows each caller only their own tickets, and refuses a visitor", async () => {
    const strangers = await walk<{ _id: string }>('/api/tickets/mine/paged', stranger.token, byId);
    expect(strangers).toMatchObject({ ids: [], total: 0 });
    expect((await t.api('GET', '/api/tickets/mine/paged')).status).toBe(401);
    expect((await t.api('GET', '/api/tickets/mine/paged?limit=1000', { token: buyer.token })).body).toMatchObject({ field: 'limit' });
  });
});

describe('GET /api/transactions/:userId/paged and GET /api/admin/refunds/paged', () => {
  it('walk the payments newest first and the refunds newest first, through shared timestamps', async () => {
    const paid = [];
    for (let index = 0; index < 5; index += 1) paid.push(await payFor(t, buyer.token, paidEvent, { settle: index % 2 === 0 }));
    const paymentIds = rowIds(await t.db.select({ id: payments.id }).from(payments).where(sql`${payments.userId} = ${buyer.user._id}`));
    await setTimes(payments, 'created_at', paymentIds, ['2030-05-05 10:00:00.000001+00', '2030-05-05 10:00:00.000002+00', '2030-05-05 10:00:00.000001+00']);

    const whole = (await t.api<Array<{ _id: string }>>('GET', `/api/transactions/${buyer.user._id}`, { token: buyer.token })).body;
    expect(whole).toHaveLength(5);
    const walked = await walk<{ _id: string }>(`/api/transactions/${buyer.user._id}/paged`, buyer.token, byId);
    expect(walked.ids).toEqual(whole.map(byId));
    expect(walked.total).toBe(5);
    expect((await walk<{ _id: string }>(`/api/transactions/${buyer.user._id}/paged`, admin.token, byId, 5)).ids).toEqual(walked.ids);
    expect((await t.api('GET', `/api/transactions/${buyer.user._id}/paged`, { token: stranger.token })).status).toBe(403);
    expect((await walk(`/api/transactions/${stranger.user._id}/paged`, stranger.token, byId)).total).toBe(0);

    // Cancelling the event refunds the three paid orders.
    const cancelled = await t.api('POST', `/api/events/${paidEvent}/cancel`, { token: seller.token, body: { reason: 'The venue flooded' } });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const refundIds = rowIds(await t.db.select({ id: refunds.id }).from(refunds));
    expect(refundIds).toHaveLength(3);
    await setTimes(refunds, 'created_at', refundIds, ['2030-06-06 09:00:00.5+00']);
    const wholeRefunds = (await t.api<Array<{ refundId: string }>>('GET', '/api/admin/refunds', { token: admin.token })).body;
    const refundsWalked = await walk<{ refundId: string }>('/api/admin/refunds/paged', admin.token, (refund) => refund.refundId);
    expect(refundsWalked.ids).toEqual(wholeRefunds.map((refund) => refund.refundId));
    expect(refundsWalked.total).toBe(3);
    expect((await walk<{ refundId: string }>('/api/admin/refunds/paged?status=failed', admin.token, (refund) => refund.refundId)).total).toBe(0);
    expect((await t.api('GET', '/api/admin/refunds/paged', { token: buyer.token })).status).toBe(403);
    expect((await t.api('GET', '/api/admin/refunds/paged?cursor=abc', { token: admin.token })).body).toMatchObject({ field: 'cursor' });
  });
});

describe('GET /api/moderation/log/paged', () => {
  it('walks every logged action newest first, beyond the 200 of the whole log', async () => {
    const rows = Array.from({ length: 205 }, (_, index) => ({
      id: newId(),
      adminId: admin.user._id,
      targetKind: 'user' as const,
      targetId: stranger.user._id,
      targetUserId: stranger.user._id,
      action: 'warn' as const,
      reason: `Warning ${index}`,
      // Five actions per millisecond, one microsecond apart.
      createdAt: new Date(Date.UTC(2030, 0, 1) + Math.floor(index / 5)),
    }));
    await t.db.insert(moderationActions).values(rows);
    await t.db.execute(sql`update ${moderationActions} set created_at = created_at + (substring(reason from 9)::int % 5) * interval '1 microsecond'`);
    const expected = rowIds(await t.db.select({ id: moderationActions.id }).from(moderationActions).orderBy(sql`${moderationActions.createdAt} desc, ${moderationActions.id} desc`));
    const walked = await walk<{ _id: string }>('/api/moderation/log/paged', admin.token, byId, 100);
    expect(walked.ids).toEqual(expected);
    expect(walked.total).toBe(205);
    expect(walked.pages).toBe(3);
    expect((await t.api('GET', '/api/moderation/log', { token: admin.token })).body.actions).toHaveLength(200);
    const aboutStranger = await t.api('GET', `/api/moderation/log/paged?userId=${buyer.user._id}`, { token: admin.token });
    expect(aboutStranger.body).toMatchObject({ items: [], total: 0, nextCursor: null });
    expect((await t.api('GET', '/api/moderation/log/paged', { token: stranger.token })).status).toBe(403);
  });
});

describe('GET /api/moderation/queue/paged', () => {
  it('walks every reported item, most reported first, through items reported at the same instant', async () => {
    // Seven reported accounts: three reported twice, four once, every report at one instant.
    const targets = Array.from({ length: 7 }, () => newId());
    const reporters = [admin, organiser, buyer, seller];
    const rows = targets.flatMap((targetId, index) =>
      reporters.slice(0, index < 3 ? 2 : 1).map((reporter) => ({
        id: newId(),
        reporterId: reporter.user._id,
        targetKind: 'user' as const,
        targetId,
        targetUserId: stranger.user._id,
        reason: 'spam' as const,
        createdAt: new Date(Date.UTC(2030, 2, 3)),
      })),
    );
    await t.db.insert(reports).values(rows);
    const whole = (await t.api<{ items: Array<{ id: string; reportCount: number }> }>('GET', '/api/moderation/queue', { token: admin.token })).body.items;
    expect(whole).toHaveLength(7);
    const walked = await walk<{ id: string; reportCount: number; reports: unknown[] }>('/api/moderation/queue/paged', admin.token, (item) => item.id);
    expect(walked.ids).toEqual(whole.map((item) => item.id));
    expect(walked.total).toBe(7);
    expect(walked.items.map((item) => item.reportCount)).toEqual([2, 2, 2, 1, 1, 1, 1]);
    expect(walked.items.map((item) => item.reports.length)).toEqual([2, 2, 2, 1, 1, 1, 1]);
    expect((await t.api('GET', '/api/moderation/queue/paged', { token: buyer.token })).status).toBe(403);
    expect((await t.api('GET', `/api/moderation/queue/paged?cursor=${encodeKeysetCursor(['2', '1', 'planet', 'x'])}`, { token: admin.token })).body).toMatchObject({ field: 'cursor' });
  });
});

describe('page sizes', () => {
  it('keeps a first admin page of the longest descriptions under 100 KB', async () => {
    const long = 'Karibu! '.repeat(625);
    for (let index = 0; index < 16; index += 1) await insertEventRow(t.db, { ownerId: seller.user._id, days: 80 + index, title: `Long fair ${index}` });
    await t.db.update(events).set({ description: long }).where(sql`${events.title} like 'Long fair %'`);
    const res = await fetch(`${t.url}/api/admin/events?q=Long%20fair`, { headers: { authorization: `Bearer ${admin.token}` } });
    const body = await res.text();
    const page = JSON.parse(body) as Page<{ description: string }>;
    expect(page.items).toHaveLength(15);
    expect(page.items.every((event) => event.description === long)).toBe(true);
    expect(Buffer.byteLength(body)).toBeLessThan(100_000);
  });
});
