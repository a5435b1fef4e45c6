import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/db/ids.js';
import { giveTicket } from './helpers/community.js';
import { insertEventRow } from './helpers/events.js';
import { startTestServer, type ApiResponse, type TestServer } from './helpers/test-server.js';

/**
 * Review item 13: an event that is not published (pending) exists only for its organiser and admins,
 * and so do its comments, reviews, forum and share counter; everyone else gets exactly the answer an
 * unknown id gets. Ids must not give their neighbours away.
 */

type Session = Awaited<ReturnType<TestServer['createUser']>>;

const UNKNOWN_ID = '0123456789abcdef01234567';

let t: TestServer;
let organiser: Session;
let member: Session; // holds a ticket and wrote the event's comment, review, thread and post
let guest: Session; // holds a ticket, wrote nothing
let stranger: Session; // no ticket
let admin: Session;

beforeAll(async () => {
  t = await startTestServer();
  [organiser, member, guest, stranger, admin] = await Promise.all([
    t.createUser('organiser'),
    t.createUser('member'),
    t.createUser('guest'),
    t.createUser('stranger'),
    t.loginAdmin(),
  ]);
});
afterAll(async () => {
  await t?.close();
});

async function created(res: ApiResponse, what: string) {
  if (res.status !== 201) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * A past event of the organiser's, with a comment, a review, a thread and a post written by `member`
 * while it was published, then taken back to pending by an admin.
 */
async function unpublishedEventWithCommunity() {
  const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: -2 });
  await Promise.all([giveTicket(t, eventId, member.user._id), giveTicket(t, eventId, guest.user._id), giveTicket(t, eventId, organiser.user._id)]);
  const as = { token: member.token };
  const comment = await created(await t.api('POST', '/api/comments/add', { ...as, body: { eventId, content: 'See you there' } }), 'comment');
  const review = await created(await t.api('POST', '/api/reviews/add', { ...as, body: { eventId, content: 'Lovely', rating: 5 } }), 'review');
  const thread = await created(await t.api('POST', '/api/forums/add-thread', { ...as, body: { eventId, title: 'Parking?' } }), 'thread');
  const post = await created(await t.api('POST', '/api/forums/add-post', { ...as, body: { threadId: thread.thread._id, parentId: null, content: 'Behind the hall' } }), 'post');
  const unpublished = await t.api('PUT', `/api/events/admin/disapprove/${eventId}`, { token: admin.token, body: {} });
  expect(unpublished.status).toBe(200);
  return { eventId, commentId: comment.comment._id as string, reviewId: review.review._id as string, threadId: thread.thread._id as string, postId: post.post._id as string };
}

/** `res` must be the very answer the same call gets for ids that never existed. */
async function expectSameAsUnknown(res: ApiResponse, unknown: ApiResponse, what: string) {
  expect(unknown.status, `${what} with an unknown id`).toBe(404);
  expect({ status: res.status, body: res.body }, what).toEqual({ status: unknown.status, body: unknown.body });
}

describe('a pending event and everything hung on it', () => {
  it("answers reads of its comments, reviews and forum with the unknown-id 404 for everyone but its organiser and admins", async () => {
    const hidden = await unpublishedEventWithCommunity();
    const reads: Array<{ path: (ids: typeof hidden) => string; login: boolean; content: RegExp }> = [
      { path: (ids) => `/api/comments/event/${ids.eventId}`, login: false, content: /See you there/ },
      { path: (ids) => `/api/reviews/event/${ids.eventId}`, login: false, content: /Lovely/ },
      { path: (ids) => `/api/forums/summary/${ids.eventId}`, login: false, content: /Parking\?/ },
      { path: (ids) => `/api/forums/threads/${ids.eventId}`, login: true, content: /Parking\?/ },
      { path: (ids) => `/api/forums/thread/${ids.threadId}`, login: true, content: /Behind the hall/ },
    ];
    const unknownIds = { eventId: UNKNOWN_ID, commentId: UNKNOWN_ID, reviewId: UNKNOWN_ID, threadId: UNKNOWN_ID, postId: UNKNOWN_ID };
    for (const read of reads) {
      const path = read.path(hidden);
      for (const [name, session] of [['visitor', undefined], ['member', member], ['guest', guest], ['stranger', stranger]] as const) {
        if (read.login && !session) continue;
        const token = session?.token;
        await expectSameAsUnknown(await t.api('GET', path, { token }), await t.api('GET', read.path(unknownIds), { token }), `GET ${path} as ${name}`);
      }
      for (const [name, session] of [['organiser', organiser], ['admin', admin]] as const) {
        const res = await t.api('GET', path, { token: session.token });
        expect(res.status, `GET ${path} as ${name}`).toBe(200);
        expect(JSON.stringify(res.body), `GET ${path} as ${name}`).toMatch(read.content);
      }
    }
  });

  it('answers writes (comments, reviews, threads, posts, votes, shares) with the unknown-id 404 and changes nothing, while its organiser and admins take part', async () => {
    const hidden = await unpublishedEventWithCommunity();
    const writes: Array<{ method: string; path: (ids: typeof hidden, user: Session) => string; body?: (ids: typeof hidden) => Record<string, unknown>; by: Session[] }> = [
      { method: 'POST', path: () => '/api/comments/add', body: (ids) => ({ eventId: ids.eventId, content: 'Still on?' }), by: [member, stranger] },
      { method: 'PUT', path: (ids) => `/api/comments/${ids.commentId}`, body: () => ({ text: 'Edited' }), by: [member] },
      { method: 'PUT', path: (ids) => `/api/comments/add/${ids.commentId}`, body: () => ({ text: 'Edited' }), by: [member] },
      { method: 'DELETE', path: (ids) => `/api/comments/${ids.commentId}`, by: [member] },
      { method: 'DELETE', path: (ids, user) => `/api/comments/${ids.commentId}/${user.user._id}`, by: [member] },
      { method: 'POST', path: () => '/api/reviews/add', body: (ids) => ({ eventId: ids.eventId, content: 'Great', rating: 4 }), by: [guest] },
      { method: 'PUT', path: (ids) => `/api/reviews/${ids.reviewId}`, body: () => ({ content: 'Edited', rating: 1 }), by: [member] },
      { method: 'DELETE', path: (ids) => `/api/reviews/${ids.reviewId}`, by: [member] },
      { method: 'POST', path: () => '/api/forums/add-thread', body: (ids) => ({ eventId: ids.eventId, title: 'Lost keys' }), by: [guest] },
      { method: 'POST', path: () => '/api/forums/add-post', body: (ids) => ({ threadId: ids.threadId, parentId: null, content: 'Me too' }), by: [guest, member] },
      { method: 'PATCH', path: (ids, user) => `/api/forums/posts/upvote/${ids.postId}/${user.user._id}`, body: () => ({}), by: [guest] },
      { method: 'PATCH', path: (ids, user) => `/api/forums/posts/downvote/${ids.postId}/${user.user._id}`, body: () => ({}), by: [guest] },
      { method: 'DELETE', path: (ids) => `/api/forums/posts/${ids.postId}`, by: [member] },
      { method: 'DELETE', path: (ids, user) => `/api/forums/posts/${ids.postId}/${user.user._id}`, by: [member] },
      { method: 'POST', path: (ids) => `/api/events/share-track/${ids.eventId}`, body: () => ({ platform: 'whatsapp' }), by: [member, stranger] },
    ];
    const unknownIds = { eventId: UNKNOWN_ID, commentId: UNKNOWN_ID, reviewId: UNKNOWN_ID, threadId: UNKNOWN_ID, postId: UNKNOWN_ID };
    for (const write of writes) {
      for (const user of write.by) {
        const call = (ids: typeof hidden) => t.api(write.method, write.path(ids, user), { token: user.token, body: write.body?.(ids) });
        await expectSameAsUnknown(await call(hidden), await call(unknownIds), `${write.method} ${write.path(hidden, user)} as ${user.user.username}`);
      }
    }

    // Nothing moved: the organiser still sees exactly what the member wrote.
    const as = { token: organiser.token };
    const comments = await t.api('GET', `/api/comments/event/${hidden.eventId}`, as);
    expect(comments.body.comments.map((c: { _id: string; content: string }) => [c._id, c.content])).toEqual([[hidden.commentId, 'See you there']]);
    const reviews = await t.api('GET', `/api/reviews/event/${hidden.eventId}`, as);
    expect(reviews.body.reviews.map((r: { _id: string; content: string; rating: number }) => [r._id, r.content, r.rating])).toEqual([[hidden.reviewId, 'Lovely', 5]]);
    const threads = await t.api('GET', `/api/forums/threads/${hidden.eventId}`, as);
    expect(threads.body.thread.map((th: { _id: string }) => th._id)).toEqual([hidden.threadId]);
    const thread = await t.api('GET', `/api/forums/thread/${hidden.threadId}`, as);
    expect(thread.body.thread.posts.map((p: { _id: string; content: string; upvotes: number }) => [p._id, p.content, p.upvotes])).toEqual([[hidden.postId, 'Behind the hall', 0]]);

    // Its organiser and admins still take part.
    const ownComment = await t.api('POST', '/api/comments/add', { token: organiser.token, body: { eventId: hidden.eventId, content: 'Venue confirmed' } });
    expect(ownComment.status).toBe(201);
    const reply = await t.api('POST', '/api/forums/add-post', { token: organiser.token, body: { threadId: hidden.threadId, parentId: hidden.postId, content: 'Yes, behind the hall' } });
    expect(reply.status).toBe(201);
    const removed = await t.api('DELETE', `/api/reviews/${hidden.reviewId}`, { token: admin.token });
    expect(removed.status).toBe(200);

    // Published again, everyone sees it all, and the refused shares were never counted.
    await t.api('PUT', `/api/events/admin/approve/${hidden.eventId}`, { token: admin.token, body: {} });
    const published = await t.api('GET', `/api/comments/event/${hidden.eventId}`);
    expect(published.body.comments.map((c: { content: string }) => c.content)).toEqual(['See you there', 'Venue confirmed']);
    const vote = await t.api('PATCH', `/api/forums/posts/upvote/${hidden.postId}/${guest.user._id}`, { token: guest.token, body: {} });
    expect(vote.status).toBe(200);
    const share = await t.api('POST', `/api/events/share-track/${hidden.eventId}`, { body: { platform: 'whatsapp' } });
    expect(share.body.shares).toEqual({ whatsapp: 1, twitter: 0, instagram: 0 });
  });
});

describe('new ids', () => {
  it('are 24 lowercase hex, in creation order, and do not give their neighbours away', () => {
    const ids = Array.from({ length: 1000 }, () => newId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{24}$/);
    const tails = ids.map((id) => BigInt(`0x${id.slice(8)}`));
    expect(new Set(tails).size).toBe(ids.length);
    // Sequential ids differ by a fixed step; these differ by a fresh random one each time (or start afresh with a new second).
    const steps = tails.slice(1).map((tail, i) => tail - tails[i]!);
    expect(steps.filter((step) => step === 1n)).toEqual([]);
    expect(new Set(steps).size).toBeGreaterThan(990);
    expect([...ids].sort()).toEqual(ids);
  });
});
