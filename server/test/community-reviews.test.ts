import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../src/db/schema.js';
import { giveTicket, insertEvent } from './helpers/community.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

type Session = Awaited<ReturnType<TestServer['createUser']>>;

const NOT_REGISTERED = 'You must be registered for this event to add a review.';
const DUPLICATE = 'You have already reviewed this event.';
const TOO_EARLY = 'You can review this event after it has taken place.';

let t: TestServer;
let wanjiru: Session; // registered for both events
let otieno: Session; // registered for the past event
let kip: Session; // not registered
let admin: Session;
let pastEvent: string;
let futureEvent: string;

beforeAll(async () => {
  t = await startTestServer();
  [wanjiru, otieno, kip, admin] = await Promise.all([t.createUser('wanjiru'), t.createUser('otieno'), t.createUser('kip'), t.loginAdmin()]);
  pastEvent = await insertEvent(t, { daysFromNow: -2 });
  futureEvent = await insertEvent(t, { daysFromNow: 5 });
  await giveTicket(t, pastEvent, wanjiru.user._id);
  await giveTicket(t, futureEvent, wanjiru.user._id);
  await giveTicket(t, pastEvent, otieno.user._id);
});
afterAll(async () => {
  await t?.close();
});

const add = (session: Session | undefined, body: Record<string, unknown>) => t.api('POST', '/api/reviews/add', { token: session?.token, body });

describe('POST /api/reviews/add', () => {
  it('needs a login', async () => {
    const res = await add(undefined, { content: 'x', rating: 5, eventId: pastEvent });
    expect(res.status).toBe(401);
    expect(res.body.status).toBe(false);
  });

  it('refuses users without a ticket', async () => {
    const res = await add(kip, { content: 'Great', rating: 5, eventId: pastEvent, userId: kip.user._id });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ status: false, msg: NOT_REGISTERED });
  });

  it('refuses reviews before the event has taken place', async () => {
    const res = await add(wanjiru, { content: 'Looking forward', rating: 4, eventId: futureEvent, userId: wanjiru.user._id });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ status: false, msg: TOO_EARLY });
  });

  it.each([
    [{ rating: 0 }, 'Rating must be a whole number from 1 to 5.'],
    [{ rating: 6 }, 'Rating must be a whole number from 1 to 5.'],
    [{ rating: 3.5 }, 'Rating must be a whole number from 1 to 5.'],
    [{ rating: 'five' }, 'Rating must be a whole number from 1 to 5.'],
    [{ rating: undefined }, 'Rating is required.'],
    [{ content: 'r'.repeat(2001) }, 'Review must be at most 2000 characters.'],
    [{ eventId: 'abc' }, 'eventId is not a valid id.'],
  ])('refuses %j with 400 {status:false, msg}', async (override, msg) => {
    const res = await add(wanjiru, { content: 'ok', rating: 4, eventId: pastEvent, ...override });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, msg });
  });

  it('refuses a userId that is not the caller and an unknown event', async () => {
    const other = await add(wanjiru, { content: 'x', rating: 4, eventId: pastEvent, userId: otieno.user._id });
    expect(other.status).toBe(403);
    expect(other.body.status).toBe(false);
    const unknown = await add(wanjiru, { content: 'x', rating: 4, eventId: '0123456789abcdef01234567' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: false, msg: 'Event not found.' });
  });

  it('accepts one review per registered user, stored verbatim, and refuses a second', async () => {
    const typed = '<img src=x onerror=alert(1)> Sauti Sol were <em>amazing</em>';
    const res = await add(wanjiru, { content: ` ${typed} `, rating: '5', eventId: pastEvent, userId: wanjiru.user._id });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      status: true,
      msg: 'Review added successfully.',
      review: {
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        content: typed,
        rating: 5,
        user: { _id: wanjiru.user._id, username: 'wanjiru' },
        event: pastEvent,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        hidden: false,
        verifiedAttendee: false,
        organiserReply: null,
      },
    });
    const again = await add(wanjiru, { content: 'Again', rating: 1, eventId: pastEvent });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: false, msg: DUPLICATE });
  });

  it('lets only one of two simultaneous reviews through', async () => {
    const event = await insertEvent(t, { daysFromNow: -1 });
    await giveTicket(t, event, otieno.user._id);
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => add(otieno, { content: `try ${i}`, rating: 3, eventId: event })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    const list = await t.api('GET', `/api/reviews/event/${event}`);
    expect(list.body.count).toBe(1);
  });
});

describe('GET /api/reviews/event/:eventId', () => {
  it('is public, newest first, with average and count', async () => {
    const event = await insertEvent(t, { daysFromNow: -3 });
    const empty = await t.api('GET', `/api/reviews/event/${event}`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ reviews: [], average: 0, count: 0, eligibility: { canReview: false, reason: 'sign_in' } });

    await giveTicket(t, event, wanjiru.user._id);
    await giveTicket(t, event, otieno.user._id);
    await add(wanjiru, { content: 'Good', rating: 4, eventId: event });
    await add(otieno, { content: '', rating: 5, eventId: event });
    const res = await t.api('GET', `/api/reviews/event/${event}`);
    expect(res.body.count).toBe(2);
    expect(res.body.average).toBe(4.5);
    expect(res.body.reviews.map((r: { user: { username: string } }) => r.user.username)).toEqual(['otieno', 'wanjiru']);
    expect(res.body.reviews[0]).toMatchObject({ content: '', rating: 5, user: { _id: otieno.user._id, username: 'otieno' } });
  });

  it('answers 404 for an unknown event and 400 for a malformed id', async () => {
    expect((await t.api('GET', '/api/reviews/event/0123456789abcdef01234567')).status).toBe(404);
    expect((await t.api('GET', '/api/reviews/event/zzz')).status).toBe(400);
  });
});

describe('editing and deleting reviews', () => {
  async function reviewBy(session: Session) {
    const event = await insertEvent(t, { daysFromNow: -1 });
    await giveTicket(t, event, session.user._id);
    const res = await add(session, { content: 'First take', rating: 2, eventId: event });
    expect(res.status).toBe(201);
    return res.body.review as { _id: string };
  }

  it('lets the author change content and rating', async () => {
    const review = await reviewBy(wanjiru);
    const res = await t.api('PUT', `/api/reviews/${review._id}`, { token: wanjiru.token, body: { content: ' Better <b>now</b> ', rating: 4, userId: wanjiru.user._id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ review: expect.objectContaining({ _id: review._id, content: 'Better <b>now</b>', rating: 4, user: { _id: wanjiru.user._id, username: 'wanjiru' } }) });
    const ratingOnly = await t.api('PUT', `/api/reviews/${review._id}`, { token: wanjiru.token, body: { rating: 1 } });
    expect(ratingOnly.body.review).toMatchObject({ content: 'Better <b>now</b>', rating: 1 });
  });

  it('refuses others, admins, visitors, a mismatched userId, bad ratings and unknown ids', async () => {
    const review = await reviewBy(wanjiru);
    const url = `/api/reviews/${review._id}`;
    expect((await t.api('PUT', url, { token: otieno.token, body: { content: 'x', rating: 5 } })).status).toBe(403);
    expect((await t.api('PUT', url, { token: admin.token, body: { content: 'x', rating: 5 } })).status).toBe(403);
    expect((await t.api('PUT', url, { body: { content: 'x', rating: 5 } })).status).toBe(401);
    expect((await t.api('PUT', url, { token: wanjiru.token, body: { content: 'x', rating: 5, userId: otieno.user._id } })).status).toBe(403);
    const bad = await t.api('PUT', url, { token: wanjiru.token, body: { content: 'x', rating: 9 } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('Rating must be a whole number from 1 to 5.');
    const nothing = await t.api('PUT', url, { token: wanjiru.token, body: {} });
    expect(nothing.status).toBe(400);
    expect((await t.api('PUT', '/api/reviews/0123456789abcdef01234567', { token: wanjiru.token, body: { rating: 3 } })).status).toBe(404);
    expect((await t.api('PUT', '/api/reviews/nope', { token: wanjiru.token, body: { rating: 3 } })).body.msg).toBe('reviewId is not a valid id.');
  });

  it('deletes for the author (trailing slash too) and for admins, never for other users', async () => {
    const mine = await reviewBy(otieno);
    const other = await t.api('DELETE', `/api/reviews/${mine._id}`, { token: wanjiru.token });
    expect(other.status).toBe(403);
    expect((await t.api('DELETE', `/api/reviews/${mine._id}`)).status).toBe(401);
    const own = await t.api('DELETE', `/api/reviews/${mine._id}/`, { token: otieno.token });
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ msg: 'Review deleted.' });
    expect((await t.api('DELETE', `/api/reviews/${mine._id}`, { token: otieno.token })).status).toBe(404);

    const theirs = await reviewBy(wanjiru);
    const byAdmin = await t.api('DELETE', `/api/reviews/${theirs._id}`, { token: admin.token });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.msg).toBe('Review deleted.');
  });
});

describe('who may review (eligibility on the list and the pages)', () => {
  const eligibility = async (eventId: string, session?: Session) => {
    const paged = await t.api('GET', `/api/reviews/event/${eventId}/paged`, { token: session?.token });
    const listed = await t.api('GET', `/api/reviews/event/${eventId}`, { token: session?.token });
    expect(paged.status).toBe(200);
    expect(listed.body.eligibility).toEqual(paged.body.eligibility);
    return paged.body.eligibility;
  };

  it('says why each caller may not review, the same reasons POST /add refuses for, and when they may', async () => {
    const [attendee, stranger, early, suspended] = await Promise.all([t.createUser('elig-attendee'), t.createUser('elig-stranger'), t.createUser('elig-early'), t.createUser('elig-suspended')]);
    const past = await insertEvent(t, { daysFromNow: -3 });
    const upcoming = await insertEvent(t, { daysFromNow: 4 });
    await giveTicket(t, past, attendee.user._id);
    await giveTicket(t, upcoming, early.user._id);
    await giveTicket(t, past, suspended.user._id);
    await t.db.update(users).set({ suspendedUntil: new Date(Date.now() + 86_400_000) }).where(eq(users.id, suspended.user._id));

    expect(await eligibility(past)).toEqual({ canReview: false, reason: 'sign_in' });
    expect(await eligibility(past, stranger)).toEqual({ canReview: false, reason: 'no_ticket' });
    expect((await add(stranger, { content: 'x', rating: 3, eventId: past })).status).toBe(403);
    expect(await eligibility(upcoming, early)).toEqual({ canReview: false, reason: 'too_early' });
    expect(await eligibility(past, suspended)).toEqual({ canReview: false, reason: 'restricted' });
    expect((await add(suspended, { content: 'x', rating: 3, eventId: past })).status).toBe(403);

    expect(await eligibility(past, attendee)).toEqual({ canReview: true, reason: null });
    expect((await add(attendee, { content: 'Great run.', rating: 4, eventId: past })).status).toBe(201);
    expect(await eligibility(past, attendee)).toEqual({ canReview: false, reason: 'already_reviewed' });
  });
});
