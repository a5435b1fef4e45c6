import { sql } from 'drizzle-orm';
import { UNREAD_SENDERS_MAX } from '../src/modules/chat/chat.service.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/db/ids.js';
import { chatBlocks, chatMessages, comments, forumPosts, forumThreads, reviews, tickets, users } from '../src/db/schema.js';
import { encodeKeysetCursor } from '../src/lib/keyset-page.js';
import { giveTicket, insertEvent } from './helpers/community.js';
import { startTestServer, type ApiResponse, type TestServer } from './helpers/test-server.js';

/**
 * The paged lists our own client reads for community, chat and attendees (lib/keyset-page.ts): the
 * pages walk the whole list in order, without a repeat or a gap even where rows share a timestamp or
 * differ by a microsecond only, `total` counts the whole list, bad paging input is a 400 naming the
 * field, and private lists stay private.
 */

type Session = Awaited<ReturnType<TestServer['createUser']>>;
type Page<T = { _id: string }> = { items: T[]; total: number; nextCursor: string | null };

let t: TestServer;
let amina: Session;
let baraka: Session;
let chausiku: Session;

beforeAll(async () => {
  t = await startTestServer();
  [amina, baraka, chausiku] = await Promise.all([t.createUser('amina'), t.createUser('baraka'), t.createUser('chausiku')]);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/**
 * Creation times for `count` rows: three rows share each timestamp and neighbouring timestamps are one
 * microsecond apart, all within one millisecond (a cursor carrying a JS Date would lose the difference).
 */
function stamps(count: number) {
  return Array.from({ length: count }, (_, index) => {
    const micros = 100_000 + Math.floor(index / 3);
    return { micros, at: sql`${`2026-03-01 09:00:00.${String(micros).padStart(6, '0')}+00`}::timestamptz` };
  });
}

/** Newest first, ties broken by the higher id first: the order of every paged list here but attendees. */
const newestFirst = <T extends { micros: number; id: string }>(rows: T[]) =>
  [...rows].sort((a, b) => b.micros - a.micros || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)).map((row) => row.id);

/** Users straight in the database (no password ever used), for lists that need many authors. */
async function insertUsers(prefix: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => newId());
  await t.db.insert(users).values(ids.map((id, index) => ({ id, username: `${prefix}${String(index).padStart(3, '0')}`, email: `${prefix}${index}@example.com`, passwordHash: 'x' })));
  return ids;
}

/** Every page of `path` at `limit`, asserting each page's size and an unchanging total. */
async function walk<T extends { _id?: string; ticketId?: string }>(path: string, limit: number, token?: string): Promise<{ items: T[]; total: number; pages: number }> {
  const items: T[] = [];
  let cursor: string | null = null;
  let total: number | undefined;
  let pages = 0;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const res: ApiResponse<Page<T>> = await t.api<Page<T>>('GET', `${path}${separator}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { token });
    expect(res.status).toBe(200);
    total ??= res.body.total;
    expect(res.body.total).toBe(total);
    if (res.body.nextCursor) expect(res.body.items).toHaveLength(limit);
    items.push(...res.body.items);
    cursor = res.body.nextCursor;
    pages += 1;
  } while (cursor && pages < 1000);
  return { items, total: total ?? 0, pages };
}

const idsOf = (items: Array<{ _id?: string; ticketId?: string }>) => items.map((item) => item._id ?? item.ticketId);

describe('comments: GET /api/comments/event/:eventId/paged', () => {
  let eventId: string;
  let expected: string[];
  beforeAll(async () => {
    eventId = await insertEvent(t, { daysFromNow: 3 });
    const rows = stamps(23).map((stamp, index) => ({ id: newId(), micros: stamp.micros, at: stamp.at, index }));
    await t.db.insert(comments).values(rows.map((row) => ({ id: row.id, eventId, userId: row.index % 2 ? amina.user._id : baraka.user._id, content: `Comment ${row.index}`, createdAt: row.at })));
    expected = newestFirst(rows);
  });

  it('walks every comment newest first, without a repeat or a gap, with the total', async () => {
    const { items, total, pages } = await walk<{ _id: string; content: string; user: { username: string } }>(`/api/comments/event/${eventId}/paged`, 4);
    expect(total).toBe(23);
    expect(pages).toBe(6);
    expect(idsOf(items)).toEqual(expected);
    expect(items[0]).toMatchObject({ user: { username: expect.stringMatching(/amina|baraka/) }, content: expect.stringMatching(/^Comment \d+$/) });
  });

  it('answers the first page at the default size, and leaves the contract list whole', async () => {
    const first = await t.api<Page>('GET', `/api/comments/event/${eventId}/paged`);
    expect(first.body.items).toHaveLength(20);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const whole = await t.api<{ comments: Array<{ _id: string }> }>('GET', `/api/comments/event/${eventId}`);
    expect(whole.body.comments.map((comment) => comment._id)).toEqual([...expected].reverse());
  });

  it('counts a new comment and shows it first', async () => {
    const event = await insertEvent(t, { daysFromNow: 3 });
    const added = await t.api('POST', '/api/comments/add', { token: amina.token, body: { content: 'Fresh one', eventId: event } });
    expect(added.status).toBe(201);
    const page = await t.api<Page>('GET', `/api/comments/event/${event}/paged?limit=5`);
    expect(page.body).toEqual({ items: [expect.objectContaining({ _id: added.body.comment._id, content: 'Fresh one' })], total: 1, nextCursor: null });
  });

  it.each([
    ['limit=0', 'limit', /limit must be at least 1/],
    ['limit=101', 'limit', /limit must be at most 100/],
    ['limit=ten', 'limit', /limit must be a whole number/],
    ['cursor=not!a!cursor', 'cursor', /cursor is not valid/],
    [`cursor=${encodeKeysetCursor(['yesterday', '0123456789abcdef01234567'])}`, 'cursor', /cursor is not valid/],
    [`cursor=${encodeKeysetCursor(['1'])}`, 'cursor', /cursor is not valid/],
  ])('refuses %s with a 400 naming the field', async (query, field, msg) => {
    const res = await t.api('GET', `/api/comments/event/${eventId}/paged?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, msg: expect.stringMatching(msg) });
  });

  it("keeps a pending event's comments from strangers", async () => {
    const pending = await insertEvent(t, { daysFromNow: 3, ownerId: amina.user._id });
    await t.db.execute(sql`update events set status = 'pending' where id = ${pending}`);
    expect((await t.api('GET', `/api/comments/event/${pending}/paged`)).status).toBe(404);
    expect((await t.api('GET', `/api/comments/event/${pending}/paged`, { token: baraka.token })).status).toBe(404);
    expect((await t.api('GET', `/api/comments/event/${pending}/paged`, { token: amina.token })).status).toBe(200);
  });
});

describe('reviews: GET /api/reviews/event/:eventId/paged', () => {
  it('walks every review newest first with the total and the average of all', async () => {
    const eventId = await insertEvent(t, { daysFromNow: -2 });
    const authors = await insertUsers('reviewer', 14);
    const rows = stamps(14).map((stamp, index) => ({ id: newId(), micros: stamp.micros, at: stamp.at, userId: authors[index]!, rating: (index % 5) + 1 }));
    // One hidden review: listed, but not in the average.
    await t.db.insert(reviews).values(rows.map((row, index) => ({ id: row.id, eventId, userId: row.userId, content: 'Good', rating: row.rating, createdAt: row.at, hiddenAt: index === 0 ? new Date() : null })));
    const { items, total } = await walk(`/api/reviews/event/${eventId}/paged`, 5);
    expect(total).toBe(14);
    expect(idsOf(items)).toEqual(newestFirst(rows));
    const rated = rows.slice(1);
    const page = await t.api<Page & { average: number }>('GET', `/api/reviews/event/${eventId}/paged?limit=1`);
    expect(page.body.average).toBe(Math.round((rated.reduce((sum, row) => sum + row.rating, 0) / rated.length) * 10) / 10);
    const whole = await t.api<{ average: number; count: number }>('GET', `/api/reviews/event/${eventId}`);
    expect(whole.body).toMatchObject({ average: page.body.average, count: 14 });
  });

  it('refuses a bad limit naming the field', async () => {
    const eventId = await insertEvent(t, { daysFromNow: -2 });
    const res = await t.api('GET', `/api/reviews/event/${eventId}/paged?limit=-1`);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('limit');
  });
});

describe('forums: threads and posts', () => {
  let eventId: string;
  let threadId: string;
  let expectedRoots: string[];
  let replyOf: Map<string, string>;
  beforeAll(async () => {
    eventId = await insertEvent(t, { daysFromNow: 4 });
    await giveTicket(t, eventId, amina.user._id);
    const threads = stamps(11).map((stamp) => ({ id: newId(), micros: stamp.micros, at: stamp.at }));
    await t.db.insert(forumThreads).values(threads.map((row, index) => ({ id: row.id, eventId, userId: amina.user._id, title: `Thread ${index}`, createdAt: row.at })));
    threadId = newestFirst(threads)[0]!;
    const roots = stamps(9).map((stamp) => ({ id: newId(), micros: stamp.micros, at: stamp.at }));
    await t.db.insert(forumPosts).values(roots.map((row, index) => ({ id: row.id, threadId, userId: amina.user._id, content: `Post ${index}`, createdAt: row.at })));
    // Every root gets a reply, and every reply one of its own: pages carry whole trees.
    replyOf = new Map();
    for (const root of roots) {
      const reply = newId();
      const nested = newId();
      replyOf.set(root.id, reply);
      await t.db.insert(forumPosts).values({ id: reply, threadId, parentId: root.id, userId: baraka.user._id, content: 'Reply' });
      await t.db.insert(forumPosts).values({ id: nested, threadId, parentId: reply, userId: amina.user._id, content: 'Nested' });
    }
    expectedRoots = newestFirst(roots);
  });

  it('walks the threads newest first with reply counts and the total', async () => {
    const { items, total } = await walk<{ _id: string; replies: number; posts?: unknown }>(`/api/forums/threads/${eventId}/paged`, 3, baraka.token);
    expect(total).toBe(11);
    expect(items).toHaveLength(11);
    expect(new Set(idsOf(items)).size).toBe(11);
    expect(items[0]).toMatchObject({ _id: threadId, replies: 27 });
    expect(items[0]).not.toHaveProperty('posts');
  });

  it("walks a thread's top-level posts newest first, each with its reply tree", async () => {
    const { items, total } = await walk<{ _id: string; replies: Array<{ _id: string; replies: Array<{ content: string }> }> }>(`/api/forums/thread/${threadId}/posts`, 4, baraka.token);
    expect(total).toBe(9);
    expect(idsOf(items)).toEqual(expectedRoots);
    for (const root of items) {
      expect(root.replies.map((reply) => reply._id)).toEqual([replyOf.get(root._id)]);
      expect(root.replies[0]!.replies.map((reply) => reply.content)).toEqual(['Nested']);
    }
    const first = await t.api('GET', `/api/forums/thread/${threadId}/posts?limit=2`, { token: baraka.token });
    expect(first.body).toMatchObject({ thread: { _id: threadId, title: expect.stringMatching(/^Thread/), event: eventId }, posts: 27, total: 9 });
  });

  it('needs a login, hides a pending event and names a bad cursor', async () => {
    expect((await t.api('GET', `/api/forums/threads/${eventId}/paged`)).status).toBe(401);
    expect((await t.api('GET', `/api/forums/thread/${threadId}/posts`)).status).toBe(401);
    const pending = await insertEvent(t, { daysFromNow: 3, ownerId: amina.user._id });
    await t.db.execute(sql`update events set status = 'pending' where id = ${pending}`);
    expect((await t.api('GET', `/api/forums/threads/${pending}/paged`, { token: baraka.token })).status).toBe(404);
    const bad = await t.api('GET', `/api/forums/thread/${threadId}/posts?cursor=abc`, { token: baraka.token });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('cursor');
  });
});

describe('chat: contacts and conversations', () => {
  it("walks a conversation newest first, and only the caller's own", async () => {
    const rows = stamps(32).map((stamp, index) => ({ id: newId(), micros: stamp.micros, at: stamp.at, fromAmina: index % 2 === 0 }));
    await t.db.insert(chatMessages).values(
      rows.map((row, index) => ({
        id: row.id,
        senderId: row.fromAmina ? amina.user._id : baraka.user._id,
        recipientId: row.fromAmina ? baraka.user._id : amina.user._id,
        text: `Message ${index}`,
        createdAt: row.at,
      })),
    );
    const { items, total } = await walk<{ _id: string; fromSelf: boolean }>(`/api/messages/conversation/${baraka.user._id}`, 5, amina.token);
    expect(total).toBe(32);
    expect(idsOf(items)).toEqual(newestFirst(rows));
    const fromSelf = new Map(rows.map((row) => [row.id, row.fromAmina]));
    expect(items.every((item) => item.fromSelf === fromSelf.get(item._id))).toBe(true);
    // The other side reads the same conversation from its own side.
    const theirs = await walk<{ _id: string; fromSelf: boolean }>(`/api/messages/conversation/${amina.user._id}`, 50, baraka.token);
    expect(theirs.items.map((item) => [item._id, item.fromSelf])).toEqual(items.map((item) => [item._id, !item.fromSelf]));
    // Someone else asking gets their own (empty) conversation, never the pair's.
    const stranger = await t.api<Page>('GET', `/api/messages/conversation/${baraka.user._id}`, { token: chausiku.token });
    expect(stranger.body).toEqual({ items: [], total: 0, nextCursor: null });
    expect((await t.api('GET', `/api/messages/conversation/${baraka.user._id}`)).status).toBe(401);
    const bad = await t.api('GET', `/api/messages/conversation/${baraka.user._id}?limit=500`, { token: amina.token });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('limit');
  });

  it('walks the contacts most recent conversation first, without those who blocked the caller', async () => {
    const caller = await t.createUser('zawadi');
    const partners = await insertUsers('partner', 13);
    const lastAt = stamps(13);
    // Two messages per partner; the later one decides the contact's place.
    await t.db.insert(chatMessages).values(
      partners.flatMap((partner, index) => [
        { senderId: caller.user._id, recipientId: partner, text: 'Habari', createdAt: new Date('2026-02-01T08:00:00Z') },
        { senderId: partner, recipientId: caller.user._id, text: 'Nzuri', createdAt: lastAt[index]!.at },
      ]).map((message) => ({ id: newId(), ...message })),
    );
    await t.db.insert(chatBlocks).values({ blockerId: partners[5]!, blockedId: caller.user._id });
    const expected = newestFirst(partners.map((id, index) => ({ id, micros: lastAt[index]!.micros }))).filter((id) => id !== partners[5]);
    const { items, total } = await walk<{ _id: string; username: string; avatarImage: string; email?: string }>('/api/messages/contacts', 4, caller.token);
    expect(total).toBe(12);
    expect(idsOf(items)).toEqual(expected);
    expect(items[0]).toEqual({ _id: expected[0], username: expect.stringMatching(/^partner/), avatarImage: '' });
    // Contacts are the caller's own: another user's list does not hold the caller's partners.
    const other = await t.api<Page>('GET', '/api/messages/contacts', { token: chausiku.token });
    expect(other.body.items.some((item) => partners.includes(item._id))).toBe(false);
    expect((await t.api('GET', '/api/messages/contacts')).status).toBe(401);
  });

  it('counts unread messages for the 1,000 senders who wrote last, however many wrote', async () => {
    const caller = await t.createUser('popular');
    const senders = await insertUsers('writer', UNREAD_SENDERS_MAX + 1);
    // Sender i wrote at minute i: the first one wrote longest ago; the last wrote twice.
    await t.db.insert(chatMessages).values(
      [
        ...senders.map((sender, index) => ({ senderId: sender, recipientId: caller.user._id, text: 'Niaje?', createdAt: new Date(Date.UTC(2026, 2, 1, 0, index)) })),
        { senderId: senders.at(-1)!, recipientId: caller.user._id, text: 'Uko?', createdAt: new Date(Date.UTC(2026, 2, 2)) },
      ].map((message) => ({ id: newId(), ...message })),
    );
    const unread = await t.api('GET', '/api/messages/unread', { token: caller.token });
    expect(Object.keys(unread.body)).toHaveLength(UNREAD_SENDERS_MAX);
    expect(unread.body[senders[0]!]).toBeUndefined();
    expect(unread.body[senders[1]!]).toBe(1);
    expect(unread.body[senders.at(-1)!]).toBe(2);
    expect(JSON.stringify(unread.body).length).toBeLessThan(100_000);
  });

  it('gives the card of a contact (a link to a conversation), not of a stranger nor of one who blocked the caller', async () => {
    const caller = await t.createUser('cardreader');
    const [friend, blocker, stranger] = await insertUsers('cardholder', 3);
    await t.db.insert(chatMessages).values(
      [
        { senderId: friend!, recipientId: caller.user._id, text: 'Habari' },
        { senderId: caller.user._id, recipientId: blocker!, text: 'Habari' },
      ].map((message) => ({ id: newId(), ...message })),
    );
    await t.db.insert(chatBlocks).values({ blockerId: blocker!, blockedId: caller.user._id });
    // An id is no way to a username: someone the caller never exchanged a message with is not found.
    expect((await t.api('GET', `/api/messages/contacts/${stranger}`, { token: caller.token })).status).toBe(404);
    const card = await t.api('GET', `/api/messages/contacts/${friend}`, { token: caller.token });
    expect(card.status).toBe(200);
    expect(card.body).toEqual({ _id: friend, username: expect.stringMatching(/^cardholder/), avatarImage: '' });
    expect((await t.api('GET', `/api/messages/contacts/${blocker}`, { token: caller.token })).status).toBe(404);
    expect((await t.api('GET', `/api/messages/contacts/${'f'.repeat(24)}`, { token: caller.token })).status).toBe(404);
    expect((await t.api('GET', '/api/messages/contacts/not-an-id', { token: caller.token })).body).toMatchObject({ field: 'contactId' });
    expect((await t.api('GET', `/api/messages/contacts/${friend}`)).status).toBe(401);
  });
});

describe('page weight', () => {
  /** Every page of `path`, each answer's size checked; the items of all pages. */
  async function walkWeighed(path: string, token: string) {
    const items: Array<{ _id: string }> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: ApiResponse<Page> = await t.api<Page>('GET', `${path}?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { token });
      expect(res.status).toBe(200);
      expect(Buffer.byteLength(JSON.stringify(res.body))).toBeLessThan(100_000);
      items.push(...res.body.items);
      cursor = res.body.nextCursor;
      pages += 1;
    } while (cursor && pages < 100);
    return { items, pages };
  }

  it('keeps every page under 100 KB: long messages in a three-byte script, and contacts with large avatars', async () => {
    const [writer, reader] = await insertUsers('weigh', 2);
    const rows = stamps(40).map((stamp) => ({ id: newId(), micros: stamp.micros, at: stamp.at }));
    // 2,000 characters of three bytes each: 6 KB a message, 240 KB for the 40.
    await t.db.insert(chatMessages).values(rows.map((row) => ({ id: row.id, senderId: writer!, recipientId: reader!, text: '€'.repeat(2000), createdAt: row.at })));
    const session = await t.createUser('weigher');
    await t.db.execute(sql`update chat_messages set recipient_id = ${session.user._id} where recipient_id = ${reader!}`);
    const conversation = await walkWeighed(`/api/messages/conversation/${writer}`, session.token);
    expect(conversation.pages).toBeGreaterThan(2);
    expect(idsOf(conversation.items)).toEqual(newestFirst(rows));

    const partners = await insertUsers('heavy', 6);
    const avatar = `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(7_500)}</svg>`; // about 30 KB
    await t.db.execute(sql`update users set avatar_image = ${avatar}, is_avatar_image_set = true where username like 'heavy%'`);
    await t.db.insert(chatMessages).values(partners.map((partner) => ({ id: newId(), senderId: partner, recipientId: session.user._id, text: 'Habari' })));
    const contacts = await walkWeighed('/api/messages/contacts', session.token);
    expect(contacts.pages).toBeGreaterThan(2);
    expect(new Set(idsOf(contacts.items))).toEqual(new Set([...partners, writer]));
  });
});

describe('attendees: GET /api/events/:id/attendees/paged', () => {
  it("walks the organiser's attendees in username order with the totals, and refuses others", async () => {
    const eventId = await insertEvent(t, { daysFromNow: 5, ownerId: amina.user._id });
    const holders = await insertUsers('guest', 17);
    // Two tickets for one holder: same username, ordered by ticket id.
    const ticketRows = [...holders, holders[3]!].map((userId, index) => ({ id: newId(), eventId, userId, code: `page-${newId()}`, checkedInAt: index % 4 === 0 ? new Date() : null }));
    await t.db.insert(tickets).values(ticketRows);
    const { items, total } = await walk<{ ticketId: string; username: string }>(`/api/events/${eventId}/attendees/paged`, 5, amina.token);
    expect(total).toBe(18);
    const byName = new Map(holders.map((id, index) => [id, `guest${String(index).padStart(3, '0')}`]));
    const expected = [...ticketRows].sort((a, b) => (byName.get(a.userId)! < byName.get(b.userId)! ? -1 : byName.get(a.userId)! > byName.get(b.userId)! ? 1 : a.id < b.id ? -1 : 1)).map((row) => row.id);
    expect(idsOf(items)).toEqual(expected);
    const first = await t.api('GET', `/api/events/${eventId}/attendees/paged?limit=2`, { token: amina.token });
    expect(first.body.checkedIn).toBe(ticketRows.filter((row) => row.checkedInAt).length);
    // The whole list stays whole for the export.
    const whole = await t.api<unknown[]>('GET', `/api/events/${eventId}/attendees`, { token: amina.token });
    expect(whole.body).toHaveLength(18);
    expect((await t.api('GET', `/api/events/${eventId}/attendees/paged`, { token: baraka.token })).status).toBe(403);
    expect((await t.api('GET', `/api/events/${eventId}/attendees/paged`)).status).toBe(401);
    const bad = await t.api('GET', `/api/events/${eventId}/attendees/paged?cursor=${encodeKeysetCursor(['x'])}`, { token: amina.token });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('cursor');
  });
});
