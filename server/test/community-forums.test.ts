import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forumPosts, postVotes } from '../src/db/schema.js';
import { MAX_POST_DEPTH } from '../src/modules/community/forums.schemas.js';
import { giveTicket, insertEvent } from './helpers/community.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

type Session = Awaited<ReturnType<TestServer['createUser']>>;
interface Post {
  _id: string;
  content: string;
  user: { _id: string; username: string };
  upvotes: number;
  myVote: number;
  parent: string | null;
  replies: Post[];
  createdAt: string;
  deleted: boolean;
}

const NOT_REGISTERED = "You can only post in the forum if you've registered for the event";
const LOGIN_TO_VIEW = 'Please log in to view the forum threads.';

let t: TestServer;
let achieng: Session; // registered
let mutua: Session; // registered
let outsider: Session; // logged in, no ticket
let admin: Session;
let eventId: string;

beforeAll(async () => {
  t = await startTestServer();
  [achieng, mutua, outsider, admin] = await Promise.all([t.createUser('achieng'), t.createUser('mutua'), t.createUser('outsider'), t.loginAdmin()]);
  eventId = await insertEvent(t, { daysFromNow: -1 });
  await giveTicket(t, eventId, achieng.user._id);
  await giveTicket(t, eventId, mutua.user._id);
});
afterAll(async () => {
  await t?.close();
});

async function newThread(session: Session = achieng, title = 'Parking?', event = eventId) {
  const res = await t.api('POST', '/api/forums/add-thread', { token: session.token, body: { title, eventId: event, userId: session.user._id } });
  expect(res.status).toBe(201);
  return res.body.thread as { _id: string; title: string };
}

async function newPost(session: Session, threadId: string, content: string, parentId: string | null = null) {
  const res = await t.api('POST', '/api/forums/add-post', { token: session.token, body: { content, threadId, parentId, userId: session.user._id } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.post as Post;
}

async function getThread(threadId: string, session: Session = achieng) {
  const res = await t.api('GET', `/api/forums/thread/${threadId}`, { token: session.token });
  expect(res.status).toBe(200);
  return res.body.thread as { _id: string; title: string; event: string; user: { _id: string; username: string }; createdAt: string; posts: Post[] };
}

const vote = (session: Session | undefined, direction: 'upvote' | 'downvote', postId: string, pathUserId = session?.user._id ?? '0123456789abcdef01234567') =>
  t.api('PATCH', `/api/forums/posts/${direction}/${postId}/${pathUserId}`, { token: session?.token, body: {} });

describe('reading forums', () => {
  it('needs a login to list threads or open one', async () => {
    const list = await t.api('GET', `/api/forums/threads/${eventId}`);
    expect(list.status).toBe(401);
    expect(list.body).toMatchObject({ status: false, msg: LOGIN_TO_VIEW });
    const thread = await newThread();
    const one = await t.api('GET', `/api/forums/thread/${thread._id}`);
    expect(one.status).toBe(401);
    expect(one.body.msg).toBe(LOGIN_TO_VIEW);
  });

  it('lets any signed-in user read, registered or not', async () => {
    const thread = await newThread();
    expect((await t.api('GET', `/api/forums/threads/${eventId}`, { token: outsider.token })).status).toBe(200);
    expect((await getThread(thread._id, outsider)).title).toBe('Parking?');
  });

  it('answers 404/400 for unknown or malformed ids', async () => {
    const unknownEvent = await t.api('GET', '/api/forums/threads/0123456789abcdef01234567', { token: achieng.token });
    expect(unknownEvent.status).toBe(404);
    const badEvent = await t.api('GET', '/api/forums/threads/bad', { token: achieng.token });
    expect(badEvent.status).toBe(400);
    expect(badEvent.body.msg).toBe('eventId is not a valid id.');
    const unknownThread = await t.api('GET', '/api/forums/thread/0123456789abcdef01234567', { token: achieng.token });
    expect(unknownThread.status).toBe(404);
    expect(unknownThread.body).toMatchObject({ status: false, msg: 'Thread not found.' });
    const badThread = await t.api('GET', '/api/forums/thread/123', { token: achieng.token });
    expect(badThread.status).toBe(400);
    expect(badThread.body.msg).toBe('threadId is not a valid id.');
  });

  it('lists an event’s threads newest first with their posts (length = replies)', async () => {
    const event = await insertEvent(t, { daysFromNow: 2 });
    await giveTicket(t, event, achieng.user._id);
    await giveTicket(t, event, mutua.user._id);
    const empty = await t.api('GET', `/api/forums/threads/${event}`, { token: achieng.token });
    expect(empty.body).toEqual({ thread: [] });

    const older = await newThread(achieng, 'Older', event);
    const newer = await newThread(mutua, 'Newer', event);
    const top = await newPost(achieng, older._id, 'one');
    await newPost(mutua, older._id, 'two', top._id);
    await newPost(mutua, older._id, 'three');

    const res = await t.api('GET', `/api/forums/threads/${event}`, { token: outsider.token });
    expect(res.status).toBe(200);
    expect(res.body.thread.map((th: { title: string }) => th.title)).toEqual(['Newer', 'Older']);
    expect(res.body.thread[0]).toEqual({
      _id: newer._id,
      title: 'Newer',
      event,
      user: { _id: mutua.user._id, username: 'mutua' },
      posts: [],
      replies: 0,
      createdAt: expect.any(String),
      hidden: false,
    });
    expect(res.body.thread[1].posts).toHaveLength(3);
    expect(res.body.thread[1].replies).toBe(3);
    expect(res.body.thread[1].posts).toContain(top._id);
  });
});

describe('POST /api/forums/add-thread', () => {
  const addThread = (session: Session | undefined, body: Record<string, unknown>) => t.api('POST', '/api/forums/add-thread', { token: session?.token, body });

  it('is for registered users only', async () => {
    expect((await addThread(undefined, { title: 'x', eventId })).status).toBe(401);
    const res = await addThread(outsider, { title: 'Let me in', eventId, userId: outsider.user._id });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ status: false, msg: NOT_REGISTERED });
    const admins = await addThread(admin, { title: 'Admin without a ticket', eventId });
    expect(admins.status).toBe(403);
  });

  it.each([
    [{ title: '' }, 'Thread title is required.'],
    [{ title: '    ' }, 'Thread title is required.'],
    [{ title: undefined }, 'Thread title is required.'],
    [{ title: 't'.repeat(151) }, 'Thread title must be at most 150 characters.'],
    [{ eventId: 'x' }, 'eventId is not a valid id.'],
  ])('refuses %j with 400', async (override, msg) => {
    const res = await addThread(achieng, { title: 'ok', eventId, ...override });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, msg });
  });

  it('refuses a mismatched userId and an unknown event', async () => {
    expect((await addThread(achieng, { title: 'x', eventId, userId: mutua.user._id })).status).toBe(403);
    expect((await addThread(achieng, { title: 'x', eventId: '0123456789abcdef01234567' })).status).toBe(404);
  });

  it('creates the thread with the title as typed', async () => {
    const title = '<script>alert(1)</script> & matatu '.trim() + ' x'.repeat(10);
    const res = await addThread(achieng, { title: `  ${title} `, eventId, userId: achieng.user._id });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      status: true,
      thread: {
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        title,
        event: eventId,
        user: { _id: achieng.user._id, username: 'achieng' },
        posts: [],
        replies: 0,
        createdAt: expect.any(String),
        hidden: false,
      },
    });
    expect((await addThread(achieng, { title: 't'.repeat(150), eventId })).status).toBe(201);
  });
});

describe('posts and the reply tree', () => {
  it('is for registered users only, with clear validation', async () => {
    const thread = await newThread();
    const body = { content: 'hi', threadId: thread._id, parentId: null };
    expect((await t.api('POST', '/api/forums/add-post', { body })).status).toBe(401);
    const outside = await t.api('POST', '/api/forums/add-post', { token: outsider.token, body });
    expect(outside.status).toBe(403);
    expect(outside.body).toMatchObject({ status: false, msg: NOT_REGISTERED });
    const mismatch = await t.api('POST', '/api/forums/add-post', { token: achieng.token, body: { ...body, userId: mutua.user._id } });
    expect(mismatch.status).toBe(403);
    for (const [override, msg] of [
      [{ content: '' }, 'Post content cannot be empty.'],
      [{ content: ' \t\n' }, 'Post content cannot be empty.'],
      [{ content: 'p'.repeat(5001) }, 'Post content must be at most 5000 characters.'],
      [{ threadId: 'nope' }, 'threadId is not a valid id.'],
      [{ parentId: 'nope' }, 'parentId is not a valid id.'],
    ] as const) {
      const res = await t.api('POST', '/api/forums/add-post', { token: achieng.token, body: { ...body, ...override } });
      expect(res.status, msg).toBe(400);
      expect(res.body.msg).toBe(msg);
    }
    const unknownThread = await t.api('POST', '/api/forums/add-post', { token: achieng.token, body: { ...body, threadId: '0123456789abcdef01234567' } });
    expect(unknownThread.status).toBe(404);
    expect((await newPost(achieng, thread._id, 'p'.repeat(5000))).content).toHaveLength(5000);
  });

  it('refuses a parent from another thread or one that does not exist', async () => {
    const a = await newThread(achieng, 'A');
    const b = await newThread(achieng, 'B');
    const inA = await newPost(achieng, a._id, 'in A');
    const cross = await t.api('POST', '/api/forums/add-post', { token: achieng.token, body: { content: 'x', threadId: b._id, parentId: inA._id } });
    expect(cross.status).toBe(400);
    expect(cross.body).toMatchObject({ status: false, msg: 'The post you are replying to is not in this thread.' });
    const ghost = await t.api('POST', '/api/forums/add-post', { token: achieng.token, body: { content: 'x', threadId: a._id, parentId: '0123456789abcdef01234567' } });
    expect(ghost.status).toBe(400);
  });

  it('returns the thread as a tree, newest first at every level, parent null at the top', async () => {
    const thread = await newThread(achieng, 'Tree');
    const p1 = await newPost(achieng, thread._id, 'first top');
    expect(p1).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      content: 'first top',
      user: { _id: achieng.user._id, username: 'achieng' },
      upvotes: 0,
      myVote: 0,
      parent: null,
      replies: [],
      createdAt: expect.any(String),
      deleted: false,
      hidden: false,
    });
    const p2 = await newPost(mutua, thread._id, 'second top');
    const r1 = await newPost(mutua, thread._id, 'reply one', p1._id);
    expect(r1.parent).toBe(p1._id);
    const r2 = await newPost(achieng, thread._id, 'reply two', p1._id);
    const rr = await newPost(mutua, thread._id, 'reply to reply', r1._id);
    const deep = await newPost(achieng, thread._id, 'level 3', rr._id);
    const deeper = await newPost(mutua, thread._id, 'level 4 is allowed', deep._id);

    const got = await getThread(thread._id);
    expect(got).toMatchObject({ _id: thread._id, title: 'Tree', event: eventId, user: { _id: achieng.user._id, username: 'achieng' } });
    expect(got.posts.map((p) => p._id)).toEqual([p2._id, p1._id]);
    expect(got.posts.every((p) => p.parent === null)).toBe(true);
    const first = got.posts[1]!;
    expect(first.replies.map((p) => p._id)).toEqual([r2._id, r1._id]);
    const replyOne = first.replies[1]!;
    expect(replyOne).toMatchObject({ content: 'reply one', parent: p1._id, user: { _id: mutua.user._id, username: 'mutua' } });
    expect(replyOne.replies[0]!._id).toBe(rr._id);
    expect(replyOne.replies[0]!.replies[0]!._id).toBe(deep._id);
    expect(replyOne.replies[0]!.replies[0]!.replies[0]).toMatchObject({ _id: deeper._id, parent: deep._id, replies: [] });
  });

  it('keeps HTML and script text verbatim', async () => {
    const thread = await newThread();
    const typed = '<script>document.cookie</script><a href="javascript:alert(1)">link</a> &amp; \u200b';
    await newPost(achieng, thread._id, `\n ${typed}\n`);
    expect((await getThread(thread._id)).posts[0]!.content).toBe(typed);
  });

  it(`allows nesting to ${MAX_POST_DEPTH} levels and refuses deeper replies with a clear message`, async () => {
    const thread = await newThread(achieng, 'Deep');
    let parent: string | null = null;
    for (let depth = 0; depth < MAX_POST_DEPTH; depth++) {
      parent = (await newPost(achieng, thread._id, `depth ${depth}`, parent))._id;
    }
    const tooDeep = await t.api('POST', '/api/forums/add-post', { token: achieng.token, body: { content: 'too deep', threadId: thread._id, parentId: parent } });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.msg).toBe(`Replies can nest at most ${MAX_POST_DEPTH} levels deep.`);
    let node = (await getThread(thread._id)).posts[0]!;
    let levels = 1;
    while (node.replies.length) {
      node = node.replies[0]!;
      levels++;
    }
    expect(levels).toBe(MAX_POST_DEPTH);
  });
});

describe('votes', () => {
  it('does the arithmetic: up, up again takes it back, down, switching', async () => {
    const thread = await newThread();
    const post = await newPost(mutua, thread._id, 'vote on me');
    const steps: Array<[Session, 'upvote' | 'downvote', number, number]> = [
      [achieng, 'upvote', 1, 1],
      [achieng, 'upvote', 0, 0],
      [achieng, 'downvote', -1, -1],
      [achieng, 'downvote', 0, 0],
      [achieng, 'upvote', 1, 1],
      [achieng, 'downvote', -1, -1], // switch up -> down
      [achieng, 'upvote', 1, 1], // switch down -> up
      [mutua, 'upvote', 2, 1], // a second user
      [outsider, 'downvote', 1, -1], // any signed-in user may vote
      [mutua, 'downvote', -1, -1],
    ];
    for (const [session, direction, upvotes, myVote] of steps) {
      const res = await vote(session, direction, post._id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: true, upvotes, myVote });
    }
    const forAchieng = (await getThread(thread._id, achieng)).posts[0]!;
    expect(forAchieng).toMatchObject({ upvotes: -1, myVote: 1 });
    expect((await getThread(thread._id, mutua)).posts[0]!.myVote).toBe(-1);
    expect((await getThread(thread._id, admin)).posts[0]!.myVote).toBe(0);
  });

  it('acts as the token user only: a different path user id is refused', async () => {
    const thread = await newThread();
    const post = await newPost(mutua, thread._id, 'x');
    const res = await vote(achieng, 'upvote', post._id, mutua.user._id);
    expect(res.status).toBe(403);
    expect(res.body.status).toBe(false);
    expect((await vote(undefined, 'upvote', post._id)).status).toBe(401);
    expect((await vote(achieng, 'upvote', '0123456789abcdef01234567')).status).toBe(404);
    expect((await vote(achieng, 'downvote', 'bad')).status).toBe(400);
    expect((await getThread(thread._id)).posts[0]!.upvotes).toBe(0);
  });

  it('keeps the counter equal to the votes when votes race', async () => {
    const thread = await newThread();
    const post = await newPost(mutua, thread._id, 'popular');
    const voters = await Promise.all(Array.from({ length: 6 }, (_, i) => t.createUser(`voter${i}`)));
    // Six users upvote at once, and one of them also fires five more upvotes at the same time.
    await Promise.all([...voters.map((v) => vote(v, 'upvote', post._id)), ...Array.from({ length: 5 }, () => vote(voters[0]!, 'upvote', post._id))]);
    const rows = await t.db.select().from(postVotes).where(eq(postVotes.postId, post._id));
    const [stored] = await t.db.select({ upvotes: forumPosts.upvotes }).from(forumPosts).where(eq(forumPosts.id, post._id));
    const sum = rows.reduce((total, row) => total + row.value, 0);
    expect(stored!.upvotes).toBe(sum);
    // voter0 toggled six times in total: an even number of upvotes, so their vote is gone.
    expect(rows.find((r) => r.userId === voters[0]!.user._id)).toBeUndefined();
    expect(sum).toBe(5);
  });
});

describe('deleting posts', () => {
  it('removes a post without replies', async () => {
    const thread = await newThread();
    const keep = await newPost(achieng, thread._id, 'keep');
    const gone = await newPost(achieng, thread._id, 'gone');
    const res = await t.api('DELETE', `/api/forums/posts/${gone._id}/${achieng.user._id}`, { token: achieng.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    expect((await getThread(thread._id)).posts.map((p) => p._id)).toEqual([keep._id]);
  });

  it('keeps a post with replies as "[deleted]" with its replies intact', async () => {
    const thread = await newThread(achieng, 'With replies');
    const parent = await newPost(achieng, thread._id, 'secret words');
    await vote(mutua, 'upvote', parent._id);
    const reply = await newPost(mutua, thread._id, 'a reply', parent._id);
    const res = await t.api('DELETE', `/api/forums/posts/${parent._id}/${achieng.user._id}`, { token: achieng.token });
    expect(res.body).toEqual({ status: true });

    const [shown] = (await getThread(thread._id, mutua)).posts;
    expect(shown).toEqual({
      _id: parent._id,
      content: '[deleted]',
      user: { _id: '', username: '[deleted]' },
      upvotes: 1,
      myVote: 1,
      parent: null,
      replies: [expect.objectContaining({ _id: reply._id, content: 'a reply', parent: parent._id, deleted: false })],
      createdAt: parent.createdAt,
      deleted: true,
      hidden: false,
    });
    expect(JSON.stringify(await getThread(thread._id))).not.toContain('secret words');

    // A deleted post takes no votes and no new replies, and no longer counts as a reply.
    expect((await vote(mutua, 'upvote', parent._id)).status).toBe(400);
    const replyToDeleted = await t.api('POST', '/api/forums/add-post', { token: mutua.token, body: { content: 'x', threadId: thread._id, parentId: parent._id } });
    expect(replyToDeleted.status).toBe(400);
    expect(replyToDeleted.body.msg).toBe('You cannot reply to a deleted post.');
    const listed = (await t.api('GET', `/api/forums/threads/${eventId}`, { token: achieng.token })).body.thread.find((th: { _id: string }) => th._id === thread._id);
    expect(listed.posts).toEqual([reply._id]);

    // When its last reply goes, the placeholder goes too.
    await t.api('DELETE', `/api/forums/posts/${reply._id}/${mutua.user._id}`, { token: mutua.token });
    expect((await getThread(thread._id)).posts).toEqual([]);
  });

  it('is for the author or an admin; the path user id is ignored', async () => {
    const thread = await newThread();
    const post = await newPost(mutua, thread._id, 'mutua wrote this');
    const other = await t.api('DELETE', `/api/forums/posts/${post._id}/${mutua.user._id}`, { token: achieng.token });
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ status: false, msg: 'You can only delete your own posts.' });
    expect((await t.api('DELETE', `/api/forums/posts/${post._id}/${mutua.user._id}`)).status).toBe(401);
    const byAdmin = await t.api('DELETE', `/api/forums/posts/${post._id}/${admin.user._id}`, { token: admin.token });
    expect(byAdmin.body).toEqual({ status: true });
    expect((await getThread(thread._id)).posts).toEqual([]);
    expect((await t.api('DELETE', `/api/forums/posts/${post._id}/${mutua.user._id}`, { token: mutua.token })).status).toBe(404);
    expect((await t.api('DELETE', `/api/forums/posts/nope/${mutua.user._id}`, { token: mutua.token })).status).toBe(400);
  });
});

describe('GET /api/forums/summary/:eventId', () => {
  it('is public and shows at most the 3 newest threads with reply counts', async () => {
    const event = await insertEvent(t, { daysFromNow: -4 });
    await giveTicket(t, event, achieng.user._id);
    expect((await t.api('GET', `/api/forums/summary/${event}`)).body).toEqual({ threads: [] });
    const threads = [];
    for (const title of ['one', 'two', 'three', 'four']) threads.push(await newThread(achieng, title, event));
    const top = await newPost(achieng, threads[3]!._id, 'a');
    await newPost(achieng, threads[3]!._id, 'b', top._id);

    const res = await t.api('GET', `/api/forums/summary/${event}`);
    expect(res.status).toBe(200);
    expect(res.body.threads).toHaveLength(3);
    expect(res.body.threads.map((th: { title: string }) => th.title)).toEqual(['four', 'three', 'two']);
    expect(res.body.threads[0]).toEqual({
      _id: threads[3]!._id,
      title: 'four',
      event,
      user: { _id: achieng.user._id, username: 'achieng' },
      replies: 2,
      createdAt: expect.any(String),
      hidden: false,
    });
    expect((await t.api('GET', '/api/forums/summary/0123456789abcdef01234567')).status).toBe(404);
    expect((await t.api('GET', '/api/forums/summary/bad')).status).toBe(400);
  });
});
