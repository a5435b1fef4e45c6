import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/db/ids.js';
import { forumPosts, forumThreads } from '../src/db/schema.js';
import { encodeKeysetCursor } from '../src/lib/keyset-page.js';
import { PREVIEW_LEVELS, PREVIEW_REPLIES } from '../src/modules/community/forums.schemas.js';
import { giveTicket, insertEvent } from './helpers/community.js';
import { startTestServer, type ApiResponse, type TestServer } from './helpers/test-server.js';

/**
 * Our client's thread page gets each top-level post with a preview of its replies (the newest
 * PREVIEW_REPLIES, PREVIEW_LEVELS levels down) and `replyCount`, and pages through the rest with
 * GET /api/forums/posts/:postId/replies: no answer grows with one post's discussion, paging walks every
 * reply once, and the replies are read exactly as the thread is (who may read it, hidden and deleted posts).
 */

type Session = Awaited<ReturnType<TestServer['createUser']>>;
interface Post {
  _id: string;
  content: string;
  parent: string | null;
  replies: Post[];
  replyCount: number;
  deleted: boolean;
  hidden: boolean;
  hiddenReason?: string;
  user: { _id: string; username: string };
}
type Page = { items: Post[]; total: number; nextCursor: string | null };

const HIDDEN = '[hidden by a moderator]';
const MANY = 47;
const CHAIN = 9;

let t: TestServer;
let wairimu: Session; // registered, writes the thread
let kiprono: Session; // registered, reads it
let admin: Session;
let eventId: string;
let threadId: string;
let busyPost: string;
/** The busy post's replies, newest first. */
let busyReplies: string[];
/** A chain: chain[0] is a top-level post, chain[i] replies to chain[i - 1]. */
let chain: string[];

/** Creation times one microsecond apart, three sharing each (a cursor with a JS Date would lose them). */
const stamp = (index: number) => sql`${`2026-04-01 10:00:00.${String(200_000 + Math.floor(index / 3)).padStart(6, '0')}+00`}::timestamptz`;

beforeAll(async () => {
  t = await startTestServer();
  [wairimu, kiprono, admin] = await Promise.all([t.createUser('wairimu'), t.createUser('kiprono'), t.loginAdmin()]);
  eventId = await insertEvent(t, { daysFromNow: -1 });
  await giveTicket(t, eventId, wairimu.user._id);
  await giveTicket(t, eventId, kiprono.user._id);
  threadId = newId();
  await t.db.insert(forumThreads).values({ id: threadId, eventId, userId: wairimu.user._id, title: 'Lost and found' });

  busyPost = newId();
  await t.db.insert(forumPosts).values({ id: busyPost, threadId, userId: wairimu.user._id, content: 'Who found a blue scarf?', createdAt: new Date('2026-04-01T09:00:00Z') });
  const replies = Array.from({ length: MANY }, (_, index) => ({ id: newId(), index }));
  await t.db.insert(forumPosts).values(replies.map((row) => ({ id: row.id, threadId, parentId: busyPost, userId: row.index % 2 ? kiprono.user._id : wairimu.user._id, content: `Reply ${row.index}`, createdAt: stamp(row.index) })));
  // Newest first; within a shared timestamp the higher id first.
  busyReplies = [...replies].sort((a, b) => Math.floor(b.index / 3) - Math.floor(a.index / 3) || (a.id < b.id ? 1 : -1)).map((row) => row.id);

  chain = [];
  for (let depth = 0; depth < CHAIN; depth++) {
    const id = newId();
    await t.db.insert(forumPosts).values({ id, threadId, parentId: chain.at(-1) ?? null, userId: kiprono.user._id, content: `Chain ${depth}`, createdAt: new Date(Date.UTC(2026, 3, 1, 11, depth)) });
    chain.push(id);
  }
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** A page, or a refusal's `{msg, field}`. */
const repliesOf = (postId: string, query: string, token: string | undefined) =>
  t.api<Page & { msg?: string; field?: string }>('GET', `/api/forums/posts/${postId}/replies${query}`, { token });

/** Every page of a post's replies at `limit`, each page checked for its size and an unchanging total. */
async function walkReplies(postId: string, limit: number, token: string) {
  const items: Post[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: ApiResponse<Page> = await repliesOf(postId, `?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, token);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(MANY);
    if (res.body.nextCursor) expect(res.body.items).toHaveLength(limit);
    items.push(...res.body.items);
    cursor = res.body.nextCursor;
    pages += 1;
  } while (cursor && pages < 100);
  return { items, pages };
}

/** The depth of the deepest post of a tree (a listed post is at 0). */
const depthOf = (post: Post): number => (post.replies.length === 0 ? 0 : 1 + Math.max(...post.replies.map(depthOf)));

describe("the thread page's posts carry a bounded preview of their replies", () => {
  it('sends the newest replies of a busy post with its count, and cuts a deep chain', async () => {
    const res = await t.api<Page & { posts: number }>('GET', `/api/forums/thread/${threadId}/posts`, { token: kiprono.token });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.posts).toBe(1 + MANY + CHAIN);
    const [chainRoot, busy] = res.body.items;
    expect(busy!._id).toBe(busyPost);
    expect(busy!.replyCount).toBe(MANY);
    expect(busy!.replies.map((reply) => reply._id)).toEqual(busyReplies.slice(0, PREVIEW_REPLIES));
    expect(busy!.replies.every((reply) => reply.replyCount === 0 && reply.replies.length === 0 && reply.parent === busyPost)).toBe(true);

    expect(chainRoot!._id).toBe(chain[0]);
    expect(depthOf(chainRoot!)).toBe(PREVIEW_LEVELS);
    // The last post sent says it has a reply that was not sent.
    let last = chainRoot!;
    while (last.replies.length > 0) last = last.replies[0]!;
    expect(last).toMatchObject({ _id: chain[PREVIEW_LEVELS], replyCount: 1, replies: [] });
  });

  it('leaves the contract endpoint with its whole tree and shape', async () => {
    const res = await t.api('GET', `/api/forums/thread/${threadId}`, { token: kiprono.token });
    const busy = res.body.thread.posts.find((post: Post) => post._id === busyPost) as Post;
    expect(busy.replies).toHaveLength(MANY);
    expect(busy).not.toHaveProperty('replyCount');
    let depth = 0;
    for (let post = res.body.thread.posts.find((p: Post) => p._id === chain[0]) as Post; post.replies.length > 0; post = post.replies[0]!) depth += 1;
    expect(depth).toBe(CHAIN - 1);
  });
});

describe('GET /api/forums/posts/:postId/replies', () => {
  it('walks every reply of a busy post newest first, without a repeat or a gap', async () => {
    const { items, pages } = await walkReplies(busyPost, 10, kiprono.token);
    expect(pages).toBe(5);
    expect(items.map((item) => item._id)).toEqual(busyReplies);
    expect(items[0]).toMatchObject({ parent: busyPost, replyCount: 0, replies: [], deleted: false, hidden: false, user: { username: expect.stringMatching(/wairimu|kiprono/) } });
    // The default page, and the first page after the preview the thread sent (the client skips those it holds).
    const first = await repliesOf(busyPost, '', kiprono.token);
    expect(first.body.items.map((item) => item._id)).toEqual(busyReplies.slice(0, 20));
    expect(first.body.nextCursor).toEqual(expect.any(String));
  });

  it('follows a deep chain a page at a time, each reply with its own bounded preview', async () => {
    let at = 0;
    const seen: string[] = [];
    while (at < CHAIN - 1) {
      const res = await repliesOf(chain[at]!, '', kiprono.token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: 1, nextCursor: null });
      const [reply] = res.body.items;
      expect(reply!._id).toBe(chain[at + 1]);
      expect(depthOf(reply!)).toBe(Math.min(PREVIEW_LEVELS, CHAIN - 2 - at));
      // Jump to the deepest post sent, as the client's "View more replies" under it would.
      let deepest = reply!;
      while (deepest.replies.length > 0) deepest = deepest.replies[0]!;
      seen.push(deepest._id);
      at = chain.indexOf(deepest._id);
      expect(deepest.replyCount).toBe(at === CHAIN - 1 ? 0 : 1);
    }
    expect(seen.at(-1)).toBe(chain.at(-1));
  });

  it('counts a new reply, shows it first, and keeps a deleted one with replies as a placeholder', async () => {
    const parent = newId();
    await t.db.insert(forumPosts).values({ id: parent, threadId, userId: wairimu.user._id, content: 'Parking?' });
    const older = await t.api('POST', '/api/forums/add-post', { token: kiprono.token, body: { threadId, parentId: parent, content: 'Behind the hall' } });
    const below = await t.api('POST', '/api/forums/add-post', { token: wairimu.token, body: { threadId, parentId: older.body.post._id, content: 'Thanks!' } });
    const fresh = await t.api('POST', '/api/forums/add-post', { token: wairimu.token, body: { threadId, parentId: parent, content: 'Also at the gate' } });
    expect([older.status, below.status, fresh.status]).toEqual([201, 201, 201]);
    expect((await t.api('DELETE', `/api/forums/posts/${older.body.post._id}`, { token: kiprono.token })).status).toBe(200);
    const page = await repliesOf(parent, '', wairimu.token);
    expect(page.body.total).toBe(2);
    expect(page.body.items.map((item) => [item._id, item.content, item.replyCount])).toEqual([
      [fresh.body.post._id, 'Also at the gate', 0],
      [older.body.post._id, '[deleted]', 1],
    ]);
    expect(page.body.items[1]!.replies.map((item) => item.content)).toEqual(['Thanks!']);
  });

  it('shows a hidden reply as the thread does: its words to its author and admins only', async () => {
    const parent = newId();
    const held = newId();
    await t.db.insert(forumPosts).values({ id: parent, threadId, userId: wairimu.user._id, content: 'Best food stall?' });
    await t.db.insert(forumPosts).values({ id: held, threadId, parentId: parent, userId: kiprono.user._id, content: 'Visit cheap-deals.example.com', hiddenAt: new Date(), hiddenReason: 'Held for review' });
    await t.db.insert(forumPosts).values({ id: newId(), threadId, parentId: held, userId: wairimu.user._id, content: 'Spam?' });
    const seenBy = async (session: Session) => (await repliesOf(parent, '', session.token)).body.items[0]!;
    const other = await seenBy(wairimu);
    expect(other).toMatchObject({ _id: held, content: HIDDEN, hidden: true, replyCount: 1 });
    expect(other).not.toHaveProperty('hiddenReason');
    expect(JSON.stringify((await repliesOf(held, '', wairimu.token)).body)).not.toContain('cheap-deals');
    expect(await seenBy(kiprono)).toMatchObject({ content: 'Visit cheap-deals.example.com', hidden: true, hiddenReason: 'Held for review' });
    expect(await seenBy(admin)).toMatchObject({ content: 'Visit cheap-deals.example.com', hiddenReason: 'Held for review' });
    // The same views as the thread's whole tree.
    const tree = await t.api('GET', `/api/forums/thread/${threadId}`, { token: wairimu.token });
    const inTree = (tree.body.thread.posts as Post[]).find((post) => post._id === parent)!.replies[0]!;
    expect({ content: inTree.content, hidden: inTree.hidden }).toEqual({ content: other.content, hidden: other.hidden });
  });

  it("answers a post of a forum the caller may not see exactly like an unknown post; needs a login", async () => {
    const pending = await insertEvent(t, { daysFromNow: 5, ownerId: wairimu.user._id });
    await t.db.execute(sql`update events set status = 'pending' where id = ${pending}`);
    const hiddenThread = newId();
    const secret = newId();
    await t.db.insert(forumThreads).values({ id: hiddenThread, eventId: pending, userId: wairimu.user._id, title: 'Backstage' });
    await t.db.insert(forumPosts).values({ id: secret, threadId: hiddenThread, userId: wairimu.user._id, content: 'Door code?' });
    await t.db.insert(forumPosts).values({ id: newId(), threadId: hiddenThread, parentId: secret, userId: wairimu.user._id, content: 'It is 4321' });

    const refused = await repliesOf(secret, '', kiprono.token);
    const unknown = await repliesOf('f'.repeat(24), '', kiprono.token);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual(unknown.body);
    expect(JSON.stringify(refused.body)).not.toContain('4321');
    // The thread is refused to the same people.
    expect((await t.api('GET', `/api/forums/thread/${hiddenThread}/posts`, { token: kiprono.token })).status).toBe(404);
    // Its organiser and admins read it.
    for (const session of [wairimu, admin]) {
      const page = await repliesOf(secret, '', session.token);
      expect(page.status).toBe(200);
      expect(page.body.items.map((item) => item.content)).toEqual(['It is 4321']);
    }
    const visitor = await repliesOf(busyPost, '', undefined);
    expect(visitor.status).toBe(401);
    expect(visitor.body.msg).toBe('Please log in to view the forum threads.');
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['cursor=not!a!cursor', 'cursor'],
    [`cursor=${encodeKeysetCursor(['yesterday', '0123456789abcdef01234567'])}`, 'cursor'],
  ])('refuses %s with a 400 naming the field', async (query, field) => {
    const res = await repliesOf(busyPost, `?${query}`, kiprono.token);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  it('refuses a malformed post id naming the field', async () => {
    const res = await repliesOf('not-an-id', '', kiprono.token);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('postId');
  });
});

describe('page weight', () => {
  it('keeps the thread page and every reply page under 100 KB when one post has hundreds of long replies', async () => {
    const heavyThread = newId();
    const heavy = newId();
    await t.db.insert(forumThreads).values({ id: heavyThread, eventId, userId: wairimu.user._id, title: 'Long answers' });
    // 20 top-level posts of 5,000 three-byte characters (15 KB each), each with 3 such replies and one of them with 300.
    const long = (tag: string) => `${tag} ${'ж'.repeat(4990)}`;
    const roots = Array.from({ length: 20 }, (_, index) => (index === 0 ? heavy : newId()));
    await t.db.insert(forumPosts).values(roots.map((id, index) => ({ id, threadId: heavyThread, userId: wairimu.user._id, content: long(`Root ${index}`), createdAt: new Date(Date.UTC(2026, 3, 2, 0, 0, index)) })));
    await t.db.insert(forumPosts).values(roots.flatMap((id) => Array.from({ length: 3 }, (_, index) => ({ id: newId(), threadId: heavyThread, parentId: id, userId: kiprono.user._id, content: long(`Answer ${index}`) }))));
    await t.db.insert(forumPosts).values(Array.from({ length: 297 }, (_, index) => ({ id: newId(), threadId: heavyThread, parentId: heavy, userId: kiprono.user._id, content: long(`More ${index}`) })));

    const seenRoots = new Set<string>();
    let cursor: string | null = null;
    do {
      const res: ApiResponse<Page> = await t.api<Page>('GET', `/api/forums/thread/${heavyThread}/posts?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { token: kiprono.token });
      expect(res.status).toBe(200);
      expect(Buffer.byteLength(JSON.stringify(res.body))).toBeLessThan(100_000);
      for (const item of res.body.items) {
        expect(seenRoots.has(item._id)).toBe(false);
        seenRoots.add(item._id);
        // What was left out for weight is still counted, so the client offers it.
        expect(item.replyCount).toBe(item._id === heavy ? 300 : 3);
      }
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seenRoots.size).toBe(20);

    const seenReplies = new Set<string>();
    cursor = null;
    do {
      const res: ApiResponse<Page> = await repliesOf(heavy, `?limit=100${cursor ? `&cursor=${cursor}` : ''}`, kiprono.token);
      expect(res.status).toBe(200);
      expect(Buffer.byteLength(JSON.stringify(res.body))).toBeLessThan(100_000);
      expect(res.body.total).toBe(300);
      for (const item of res.body.items) seenReplies.add(item._id);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seenReplies.size).toBe(300);
  });
});
