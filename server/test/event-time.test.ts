/**
 * One time rule: event times are Nairobi wall-clock times stored as UTC, so "has it started" and
 * "what is today" compare them with real UTC + 3 hours (src/lib/event-clock.ts). Every caller —
 * creating, listing, searching, registering, reviewing — must agree at the boundaries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventHoldings } from '../src/app.js';
import { newId } from '../src/db/ids.js';
import { events } from '../src/db/schema.js';
import { createChangeFeed } from '../src/lib/change-feed.js';
import { parse } from '../src/lib/validate.js';
import { hasStarted, nowAsWallClock, realInstant, startOfTodayWallClock, toWallClock } from '../src/lib/event-clock.js';
import type { AuthUser } from '../src/modules/auth/auth.service.js';
import { createReviewsService } from '../src/modules/community/reviews.service.js';
import { createEventBody, searchQuery } from '../src/modules/events/events.schemas.js';
import { createEventsService } from '../src/modules/events/events.service.js';
import { createGeocodingService } from '../src/modules/geocoding/geocoding.service.js';
import { giveTicket } from './helpers/community.js';
import { eventBody } from './helpers/events.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A 19:00 Nairobi event, stored as 19:00Z; it really starts at 16:00Z. */
const START = new Date('2031-06-01T19:00:00Z');
const REAL_START = new Date('2031-06-01T16:00:00Z');
const at = (offsetMs: number) => new Date(REAL_START.getTime() + offsetMs);
/** Real instants around the start; the old UTC rule was wrong for the three hours in between. */
const BOUNDARIES = [
  { label: 'a minute before the start', offset: -MINUTE, started: false },
  { label: 'a minute after the start', offset: MINUTE, started: true },
  { label: '3 hours minus 1 minute after the start', offset: 3 * HOUR - MINUTE, started: true },
  { label: '3 hours plus 1 minute after the start', offset: 3 * HOUR + MINUTE, started: true },
];

describe('lib/event-clock (unit)', () => {
  it('reads now on the Nairobi wall clock (UTC+3) and maps a stored time back to its real instant', () => {
    expect(nowAsWallClock(REAL_START).toISOString()).toBe(START.toISOString());
    expect(toWallClock(new Date('2031-06-01T21:00:00Z')).toISOString()).toBe('2031-06-02T00:00:00.000Z');
    expect(realInstant(START).toISOString()).toBe(REAL_START.toISOString());
  });

  it('has started only once the Nairobi wall clock is past the start', () => {
    for (const { label, offset, started } of [...BOUNDARIES, { label: 'at the start instant', offset: 0, started: false }]) {
      expect(hasStarted(START, at(offset)), label).toBe(started);
    }
  });

  it('starts today at midnight in Nairobi, which is 21:00Z the day before', () => {
    const cases = [
      { real: '2031-06-01T20:59:00Z', midnight: '2031-06-01T00:00:00.000Z' }, // 23:59 in Nairobi
      { real: '2031-06-01T21:00:00Z', midnight: '2031-06-02T00:00:00.000Z' }, // midnight in Nairobi
      { real: '2031-06-01T21:01:00Z', midnight: '2031-06-02T00:00:00.000Z' }, // 00:01 in Nairobi
      { real: '2031-06-02T00:30:00Z', midnight: '2031-06-02T00:00:00.000Z' }, // 03:30 in Nairobi
    ];
    for (const { real, midnight } of cases) expect(startOfTodayWallClock(new Date(real)).toISOString(), real).toBe(midnight);
  });
});

let t: TestServer;
let organiser: Awaited<ReturnType<TestServer['createUser']>>;
let holder: Awaited<ReturnType<TestServer['createUser']>>;

beforeAll(async () => {
  t = await startTestServer();
  organiser = await t.createUser('clockorganiser');
  holder = await t.createUser('clockholder');
});
afterAll(async () => {
  await t?.close();
});

/** An approved free event row at a stored (wall-clock) start, written straight to the database. */
async function insertAt(startsAt: Date, title = `Clock event ${newId().slice(-8)}`): Promise<string> {
  const id = newId();
  await t.db.insert(events).values({ id, title, description: 'A test event', startsAt, location: 'KICC, Nairobi', status: 'approved', userId: organiser.user._id });
  return id;
}

/** The services the routes use, on this test's database, with the real clock replaced by `now`. */
function servicesAt(now: Date) {
  const clock = () => now;
  const eventsService = createEventsService({
    db: t.db,
    holdings: eventHoldings,
    geocoding: createGeocodingService(),
    changes: createChangeFeed(),
    publicUrl: t.url,
    searchCacheMs: 0,
    eventCacheMs: 0,
    now: clock,
  });
  return { events: eventsService, reviews: createReviewsService({ db: t.db, now: clock }) };
}

const asUser = (session: { user: { _id: string; username: string; email: string } }): AuthUser => ({ id: session.user._id, username: session.user.username, email: session.user.email, role: 'user' });

describe('services at the boundaries (injected clock)', () => {
  it('upcoming, related, creation and reviews agree a minute before and after the start and 3 hours ± 1 minute after', async () => {
    for (const { label, offset, started } of BOUNDARIES) {
      const id = await insertAt(START);
      const neighbour = await insertAt(new Date(START.getTime() + 24 * HOUR));
      await giveTicket(t, id, holder.user._id);
      const services = servicesAt(at(offset));

      const upcoming = (await services.events.upcoming(500)).map((event) => event._id);
      expect(upcoming.includes(id), `${label}: upcoming`).toBe(!started);
      const related = (await services.events.related(neighbour, undefined, 50)).map((event) => event._id);
      expect(related.includes(id), `${label}: related`).toBe(!started);

      const creating = services.events.create(parse(createEventBody, eventBody({ date: '2031-06-01T19:00' })), asUser(organiser));
      if (started) await expect(creating, `${label}: create`).rejects.toMatchObject({ status: 400, details: { field: 'date' } });
      else await expect(creating, `${label}: create`).resolves.toMatchObject({ date: START.toISOString() });

      const reviewing = services.reviews.add(asUser(holder), { eventId: id, content: 'Good', rating: 4 });
      if (started) await expect(reviewing, `${label}: review`).resolves.toMatchObject({ event: id, rating: 4 });
      else await expect(reviewing, `${label}: review`).rejects.toMatchObject({ status: 403 });
    }
  });

  it('lists events from midnight in Nairobi, not from midnight UTC (around 21:00Z)', async () => {
    const word = `midnight${newId().slice(-6)}`;
    const lateYesterday = await insertAt(new Date('2031-06-01T23:30:00Z'), `${word} late`);
    const earlyToday = await insertAt(new Date('2031-06-02T00:30:00Z'), `${word} early`);
    const search = async (real: string) =>
      (await servicesAt(new Date(real)).events.search(parse(searchQuery, { q: word }))).items.map((event) => event._id).sort();

    // 20:59Z is 23:59 on 1 June in Nairobi: both are today's events.
    expect(await search('2031-06-01T20:59:00Z')).toEqual([lateYesterday, earlyToday].sort());
    // From 21:00Z it is 2 June in Nairobi: the 23:30 event was yesterday's.
    expect(await search('2031-06-01T21:00:00Z')).toEqual([earlyToday]);
    expect(await search('2031-06-01T21:01:00Z')).toEqual([earlyToday]);
  });
});

/** `YYYY-MM-DDTHH:mm` on the Nairobi wall clock, `offsetMs` from the real now (the form the event form sends). */
const wallClockInput = (offsetMs: number) => nowAsWallClock(new Date(Date.now() + offsetMs)).toISOString().slice(0, 16);

describe('HTTP: an event that started a minute ago in Nairobi', () => {
  it('is not upcoming and takes no registrations', async () => {
    const started = await insertAt(new Date(nowAsWallClock().getTime() - MINUTE));
    const soon = await insertAt(new Date(nowAsWallClock().getTime() + 10 * MINUTE));

    const upcoming = await t.api('GET', '/api/events/upcoming?limit=50');
    expect(upcoming.status).toBe(200);
    const ids = (upcoming.body as { _id: string }[]).map((event) => event._id);
    expect(ids).toContain(soon);
    expect(ids).not.toContain(started);

    const register = await t.api('POST', `/api/events/register/${started}`, { token: holder.token, body: {} });
    expect(register.status).toBe(400);
    expect(register.body).toMatchObject({ message: 'This event has already taken place.' });
  });

  it('accepts reviews from ticket holders, and refuses them for one starting in a few minutes', async () => {
    const started = await insertAt(new Date(nowAsWallClock().getTime() - MINUTE));
    const soon = await insertAt(new Date(nowAsWallClock().getTime() + 10 * MINUTE));
    await giveTicket(t, started, holder.user._id);
    await giveTicket(t, soon, holder.user._id);

    const review = await t.api('POST', '/api/reviews/add', { token: holder.token, body: { eventId: started, content: 'Just started, great', rating: 5 } });
    expect(review.status).toBe(201);
    expect(review.body.review).toMatchObject({ event: started, rating: 5 });

    const early = await t.api('POST', '/api/reviews/add', { token: holder.token, body: { eventId: soon, content: 'Too early', rating: 5 } });
    expect(early.status).toBe(403);
  });

  it('cannot be created, while one a few minutes ahead can', async () => {
    const past = await t.api('POST', '/api/events/addevnt', { token: organiser.token, body: eventBody({ date: wallClockInput(-MINUTE) }) });
    expect(past.status).toBe(400);
    expect(past.body).toMatchObject({ msg: 'The event date cannot be in the past.', message: 'The event date cannot be in the past.' });

    const ahead = await t.api('POST', '/api/events/addevnt', { token: organiser.token, body: eventBody({ date: wallClockInput(5 * MINUTE) }) });
    expect(ahead.status).toBe(201);
  });
});
