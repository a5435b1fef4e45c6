import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comments, users } from '../src/db/schema.js';
import { giveTicket, insertEvent } from './helpers/community.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

type Session = Awaited<ReturnType<TestServer['createUser']>>;

const HIDDEN = '[hidden by a moderator]';
const NEW_ACCOUNT_LINK = 'New accounts cannot post links straight away: this post is held until a moderator reviews it.';
const REPEATED = 'The same text was posted on several events: this post is held until a moderator reviews it.';

let t: TestServer;
let admin: Session;
let eventId: string;
let serial = 0;

beforeAll(async () => {
  // The deployment default (RATE_LIMIT_MAX 20) gives the documented posting limits; other tests raise it.
  t = await startTestServer({ RATE_LIMIT_MAX: '20' });
  admin = await t.loginAdmin();
  eventId = await insertEvent(t, { daysFromNow: -1 });
});
afterAll(async () => {
  await t?.close();
});

async function person(name: string, options: { ageHours?: number } = {}): Promise<Session> {
  serial += 1;
  const session = await t.createUser(`${name}${serial}${Math.random().toString(36).slice(2, 6)}`);
  if (options.ageHours) await t.db.update(users).set({ createdAt: new Date(Date.now() - options.ageHours * 3600 * 1000) }).where(eq(users.id, session.user._id));
  return session;
}

const comment = (session: Session, content: string, event = eventId) => t.api('POST', '/api/comments/add', { token: session.token, body: { content, eventId: event } });
const seen = async (session: Session | undefined, id: string, event = eventId) =>
  ((await t.api('GET', `/api/comments/event/${event}`, { token: session?.token })).body.comments as Array<Record<string, unknown>>).find((c) => c._id === id);

describe('posting limits', () => {
  it('refuses the 11th comment in 10 minutes with a clear message, storing nothing', async () => {
    const chatty = await person('chatty', { ageHours: 48 });
    for (let i = 1; i <= 10; i++) expect((await comment(chatty, `Thought number ${i}`)).status).toBe(201);
    const refused = await comment(chatty, 'One more thought');
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toBe('You are posting too fast: at most 10 comments in 10 minutes. Please wait a little and try again.');
    expect(await t.db.select().from(comments).where(eq(comments.userId, chatty.user._id))).toHaveLength(10);
  });

  it('limits forum threads too', async () => {
    const starter = await person('starter', { ageHours: 48 });
    await giveTicket(t, eventId, starter.user._id);
    for (let i = 1; i <= 5; i++) expect((await t.api('POST', '/api/forums/add-thread', { token: starter.token, body: { title: `Topic ${i}`, eventId } })).status).toBe(201);
    const refused = await t.api('POST', '/api/forums/add-thread', { token: starter.token, body: { title: 'Topic 6', eventId } });
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toBe('You are posting too fast: at most 5 threads in an hour. Please wait a little and try again.');
  });
});

describe('held for review', () => {
  it("holds a new account's comment with a link: hidden from others, queued, released by a moderator", async () => {
    const [newcomer, reader] = await Promise.all([person('newcomer'), person('reader')]);
    const res = await comment(newcomer, 'Cheap tickets at https://tickets.example.com/deal');
    expect(res.status).toBe(201);
    const id = res.body.comment._id as string;
    expect(res.body.comment).toMatchObject({ content: 'Cheap tickets at https://tickets.example.com/deal', hidden: true, hiddenReason: NEW_ACCOUNT_LINK });
    expect(await seen(reader, id)).toMatchObject({ content: HIDDEN, hidden: true });

    const queue = await t.api('GET', '/api/moderation/queue', { token: admin.token });
    const item = queue.body.items.find((entry: { id: string }) => entry.id === id);
    expect(item).toMatchObject({ kind: 'comment', item: { hidden: true }, reports: [{ reason: 'spam', details: NEW_ACCOUNT_LINK, automatic: true }] });

    expect((await t.api('POST', `/api/moderation/items/comment/${id}/actions`, { token: admin.token, body: { action: 'unhide', reason: 'A real ticket shop.' } })).status).toBe(200);
    expect(await seen(reader, id)).toMatchObject({ content: 'Cheap tickets at https://tickets.example.com/deal', hidden: false });
    const after = await t.api('GET', '/api/moderation/queue', { token: admin.token });
    expect(after.body.items.some((entry: { id: string }) => entry.id === id)).toBe(false);
  });

  it('lets an account older than a day post links, and holds nobody for plain text', async () => {
    const regular = await person('regular', { ageHours: 30 });
    const linked = await comment(regular, 'Directions: www.kicc.co.ke/map');
    expect(linked.body.comment).toMatchObject({ hidden: false });
    const newcomer = await person('fresh');
    const plain = await comment(newcomer, 'See you at 6pm. The gate is on Harambee Ave.');
    expect(plain.body.comment).toMatchObject({ hidden: false });
  });

  it("holds a new account's forum post with a link", async () => {
    const [newcomer, reader] = await Promise.all([person('poster'), person('reader')]);
    await giveTicket(t, eventId, newcomer.user._id);
    const thread = await t.api('POST', '/api/forums/add-thread', { token: newcomer.token, body: { title: 'Lift to the venue', eventId } });
    expect(thread.body.thread).toMatchObject({ hidden: false });
    const post = await t.api('POST', '/api/forums/add-post', { token: newcomer.token, body: { content: 'Book at http://rides.example.com', threadId: thread.body.thread._id, parentId: null } });
    expect(post.status).toBe(201);
    expect(post.body.post).toMatchObject({ hidden: true, hiddenReason: NEW_ACCOUNT_LINK });
    const asReader = await t.api('GET', `/api/forums/thread/${thread.body.thread._id}`, { token: reader.token });
    expect(asReader.body.thread.posts[0]).toMatchObject({ content: HIDDEN, hidden: true });
  });

  it('holds the same text posted on a third event within a day', async () => {
    const spammer = await person('repeater', { ageHours: 48 });
    const [second, third] = [await insertEvent(t, { daysFromNow: -1 }), await insertEvent(t, { daysFromNow: -1 })];
    const text = 'Follow me for free giveaways!!';
    expect((await comment(spammer, text)).body.comment.hidden).toBe(false);
    expect((await comment(spammer, `  follow ME for free   giveaways!!`, second)).body.comment.hidden).toBe(false);
    const held = await comment(spammer, text, third);
    expect(held.status).toBe(201);
    expect(held.body.comment).toMatchObject({ hidden: true, hiddenReason: REPEATED });
  });
});
