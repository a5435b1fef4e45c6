import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/db/ids.js';
import { eventDailyActivity, eventShares, tickets } from '../src/db/schema.js';
import { createEvent, dayFromNow, eventBody } from './helpers/events.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

let t: TestServer;
let owner: { token: string; user: { _id: string } };
let other: { token: string; user: { _id: string } };
let admin: { token: string; user: { _id: string } };

beforeAll(async () => {
  t = await startTestServer();
  owner = await t.createUser('organiser');
  other = await t.createUser('stranger');
  admin = await t.loginAdmin();
});
afterAll(async () => {
  await t?.close();
});

const addEvent = (body: Record<string, unknown>, token: string | null = owner.token) =>
  t.api('POST', '/api/events/addevnt', { token: token ?? undefined, body });

describe('POST /api/events/addevnt', () => {
  it('creates a pending event owned by the caller, whatever user the body names', async () => {
    const res = await addEvent(eventBody({ user: other.user._id, status: 'approved', capacity: 50, isPaid: true, ticketPrice: 1500 }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      title: 'Nairobi Jazz Night',
      description: 'Live jazz under the stars with local bands.',
      date: expect.stringMatching(/T18:00:00\.000Z$/),
      startDate: res.body.date,
      location: 'Alliance Française, Nairobi',
      image: null,
      status: 'pending',
      cancelReason: null,
      cancelledAt: null,
      isPaid: true,
      ticketPrice: 1500,
      ticketPriceMax: 1500,
      capacity: 50,
      registeredUsers: [],
      user: owner.user._id,
      latitude: -1.2835,
      longitude: 36.8173,
      openedCount: 0,
      refundPolicy: { kind: 'none', percent: null, untilHours: 0 },
      ticketsSold: 0,
      seatsLeft: 50,
      createdAt: expect.any(String),
    });
  });

  it('stores the naive date as that wall-clock time in UTC', async () => {
    const res = await addEvent(eventBody({ date: '2099-03-15T09:30' }));
    expect(res.body.date).toBe('2099-03-15T09:30:00.000Z');
    expect(res.body.startDate).toBe('2099-03-15T09:30:00.000Z');
  });

  it('refuses a price in cents (M-Pesa takes whole shillings) and makes free events cost 0', async () => {
    for (const ticketPrice of [350.5, '250.40', 0.5]) {
      const res = await addEvent(eventBody({ isPaid: true, ticketPrice }));
      expect(res.status, String(ticketPrice)).toBe(400);
      expect(res.body).toMatchObject({ field: 'ticketPrice', msg: 'Ticket price must be whole shillings: M-Pesa takes no cents (for example 350, not 350.50).' });
    }
    expect((await addEvent(eventBody({ isPaid: true, ticketPrice: '350' }))).body.ticketPrice).toBe(350);
    const free = await addEvent(eventBody({ isPaid: false, ticketPrice: 300 }));
    expect(free.body).toMatchObject({ isPaid: false, ticketPrice: 0 });
  });

  it('geocodes the location offline when coordinates are absent', async () => {
    const res = await addEvent(eventBody({ location: 'Kasarani Stadium, Nairobi', latitude: null, longitude: null }));
    expect(res.body.latitude).toBeCloseTo(-1.2216, 3);
    expect(res.body.longitude).toBeCloseTo(36.8906, 3);
    const { latitude: _lat, longitude: _lon, ...withoutCoordinates } = eventBody({ location: 'Somewhere unknown' });
    const unknown = await addEvent(withoutCoordinates);
    expect(unknown.status).toBe(201);
    expect(unknown.body).toMatchObject({ latitude: null, longitude: null });
  });

  it('accepts an https image or one of our uploads, and refuses other URLs', async () => {
    expect((await addEvent(eventBody({ image: 'https://images.example.com/poster.jpg' }))).body.image).toBe('https://images.example.com/poster.jpg');
    const ours = await addEvent(eventBody({ image: `${t.config.publicUrl}/uploads/0123456789abcdef01234567.png` }));
    expect(ours.body.image).toBe(`${t.config.publicUrl}/uploads/0123456789abcdef01234567.png`);
    const relative = await addEvent(eventBody({ image: '/uploads/0123456789abcdef01234567.webp' }));
    expect(relative.body.image).toBe(`${t.config.publicUrl}/uploads/0123456789abcdef01234567.webp`);
    for (const image of ['http://images.example.com/poster.jpg', 'javascript:alert(1)', 'data:image/png;base64,AAAA', '/uploads/../secret', 'not a url']) {
      const res = await addEvent(eventBody({ image }));
      expect(res.status, image).toBe(400);
      expect(res.body).toMatchObject({ msg: expect.stringMatching(/^Image must be/), field: 'image' });
    }
  });

  it.each([
    [{ title: '' }, 'Title is required.', 'title'],
    [{ title: undefined }, 'Title is required.', 'title'],
    [{ title: 'x'.repeat(121) }, 'Title must be at most 120 characters.', 'title'],
    [{ description: '   ' }, 'Description is required.', 'description'],
    [{ description: 'x'.repeat(5001) }, 'Description must be at most 5000 characters.', 'description'],
    [{ location: '' }, 'Location is required.', 'location'],
    [{ location: 'x'.repeat(201) }, 'Location must be at most 200 characters.', 'location'],
    [{ date: undefined }, 'Date is required.', 'date'],
    [{ date: 'next friday' }, 'Date must be a real date and time in the form YYYY-MM-DDTHH:mm.', 'date'],
    [{ date: '2099-02-30T10:00' }, 'Date must be a real date and time in the form YYYY-MM-DDTHH:mm.', 'date'],
    [{ date: '2020-01-01T10:00' }, 'The event date cannot be in the past.', 'date'],
    [{ isPaid: true, ticketPrice: 0 }, 'Ticket price must be at least 1 shilling for a paid event.', 'ticketPrice'],
    [{ isPaid: true, ticketPrice: -5 }, 'Ticket price must be at least 0.', 'ticketPrice'],
    [{ isPaid: true, ticketPrice: 'lots' }, 'Ticket price must be a number.', 'ticketPrice'],
    [{ isPaid: true, ticketPrice: 1_000_000 }, 'Ticket price must be at most 250000.', 'ticketPrice'],
    [{ isPaid: 'maybe' }, 'isPaid must be true or false.', 'isPaid'],
    [{ capacity: 0 }, 'Capacity must be at least 1.', 'capacity'],
    [{ capacity: 2.5 }, 'Capacity must be a whole number.', 'capacity'],
    [{ latitude: 91 }, 'Latitude must be between -90 and 90.', 'latitude'],
    [{ longitude: 'east' }, 'Longitude must be a number.', 'longitude'],
    [{ latitude: -1.2, longitude: null }, 'Latitude and longitude must be given together.', 'longitude'],
    [{ image: 42 }, 'Image must be a URL or null.', 'image'],
  ])('refuses %j with a 400 naming the field', async (overrides, msg, field) => {
    const res = await addEvent(eventBody(overrides));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ msg, message: msg, field });
  });

  it('requires a login', async () => {
    const res = await addEvent(eventBody(), null);
    expect(res.status).toBe(401);
  });
});

describe('visibility of pending and approved events', () => {
  it('shows a pending event only to its owner and admins', async () => {
    const event = await createEvent(t, owner.token, { title: 'Secret pending' });
    expect((await t.api('GET', `/api/events/${event._id}`)).status).toBe(404);
    expect((await t.api('GET', `/api/events/${event._id}`, { token: other.token })).status).toBe(404);
    expect((await t.api('GET', `/api/events/${event._id}`, { token: owner.token })).body.status).toBe('pending');
    expect((await t.api('GET', `/api/events/${event._id}`, { token: admin.token })).body.title).toBe('Secret pending');

    const lists = ['/api/events/admin/approved', '/api/events/getevnt', '/api/events/upcoming', '/api/events/popular'];
    for (const path of lists) {
      const res = await t.api('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.body.some((e: { _id: string }) => e._id === event._id), path).toBe(false);
    }
    const asAdmin = await t.api('GET', '/api/events/getevnt', { token: admin.token });
    expect(asAdmin.body.find((e: { _id: string }) => e._id === event._id)?.status).toBe('pending');
    const pending = await t.api('GET', '/api/events/admin/pending', { token: admin.token });
    expect(pending.body.map((e: { _id: string }) => e._id)).toContain(event._id);

    await t.api('PUT', `/api/events/admin/approve/${event._id}`, { token: admin.token, body: {} });
    expect((await t.api('GET', `/api/events/${event._id}`)).body.status).toBe('approved');
    const approvedList = await t.api('GET', '/api/events/admin/approved');
    expect(approvedList.body.map((e: { _id: string }) => e._id)).toContain(event._id);
    expect(approvedList.body.every((e: { status: string }) => e.status === 'approved')).toBe(true);
  });

  it('treats a signed-in non-admin like a visitor in /getevnt and hides pending related events', async () => {
    const event = await createEvent(t, owner.token, { title: 'Pending for related' });
    const asUser = await t.api('GET', '/api/events/getevnt', { token: other.token });
    expect(asUser.body.some((e: { _id: string }) => e._id === event._id)).toBe(false);
    expect(asUser.body.every((e: { status: string }) => e.status === 'approved')).toBe(true);
    const asOwner = await t.api('GET', '/api/events/getevnt', { token: owner.token });
    expect(asOwner.body.some((e: { _id: string }) => e._id === event._id)).toBe(false);
    expect((await t.api('GET', `/api/events/${event._id}/related`)).status).toBe(404);
    expect((await t.api('GET', `/api/events/${event._id}/related`, { token: other.token })).status).toBe(404);
    expect((await t.api('GET', `/api/events/${event._id}/related`, { token: owner.token })).status).toBe(200);
    expect((await t.api('GET', `/api/events/${event._id}/related`, { token: admin.token })).status).toBe(200);
  });

  it('refuses malformed list parameters and ids with a 400', async () => {
    expect((await t.api('GET', '/api/events/popular?limit=abc')).body).toMatchObject({ msg: 'limit must be a whole number.', field: 'limit' });
    expect((await t.api('GET', '/api/events/upcoming?limit=500')).status).toBe(400);
    const badUser = await t.api('GET', '/api/events/user/nope', { token: owner.token });
    expect(badUser.status).toBe(400);
    expect(badUser.body.field).toBe('userId');
    expect((await t.api('PUT', '/api/events/nope', { token: owner.token, body: { title: 'x' } })).status).toBe(400);
  });

  it('answers 404 {msg} for unknown and malformed ids', async () => {
    for (const id of ['0123456789abcdef01234567', 'nope']) {
      const res = await t.api('GET', `/api/events/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ msg: 'Event not found.', message: 'Event not found.', code: 'event_not_found' });
    }
  });

  it('lists a user’s own events (pending too) to that user and admins only', async () => {
    const mine = await createEvent(t, other.token, { title: 'Stranger event' });
    const self = await t.api('GET', `/api/events/user/${other.user._id}`, { token: other.token });
    expect(self.status).toBe(200);
    expect(self.body.map((e: { _id: string }) => e._id)).toEqual([mine._id]);
    expect((await t.api('GET', `/api/events/user/${other.user._id}`, { token: admin.token })).body).toHaveLength(1);
    expect((await t.api('GET', `/api/events/user/${other.user._id}`, { token: owner.token })).status).toBe(403);
    expect((await t.api('GET', `/api/events/user/${other.user._id}`)).status).toBe(401);
  });
});

describe('moderation', () => {
  it('lets only admins approve, disapprove and list pending events', async () => {
    const event = await createEvent(t, owner.token);
    for (const token of [undefined, owner.token, other.token]) {
      expect((await t.api('PUT', `/api/events/admin/approve/${event._id}`, { token, body: {} })).status).toBe(token ? 403 : 401);
      expect((await t.api('PUT', `/api/events/admin/disapprove/${event._id}`, { token, body: {} })).status).toBe(token ? 403 : 401);
      expect((await t.api('GET', '/api/events/admin/pending', { token })).status).toBe(token ? 403 : 401);
    }
    const approved = await t.api('PUT', `/api/events/admin/approve/${event._id}`, { token: admin.token, body: {} });
    expect(approved.body).toMatchObject({ _id: event._id, status: 'approved' });
    const back = await t.api('PUT', `/api/events/admin/disapprove/${event._id}`, { token: admin.token, body: {} });
    expect(back.body).toMatchObject({ _id: event._id, status: 'pending' });
    expect((await t.api('PUT', '/api/events/admin/approve/0123456789abcdef01234567', { token: admin.token, body: {} })).status).toBe(404);
  });
});

describe('PUT and DELETE /api/events/:id', () => {
  it('lets the owner and admins edit; others get 403, visitors 401', async () => {
    const event = await createEvent(t, owner.token, {}, { approveWith: admin.token });
    const body = { title: 'Renamed', description: 'New words', date: dayFromNow(20, '10:15'), location: 'KICC, Nairobi' };
    expect((await t.api('PUT', `/api/events/${event._id}`, { body })).status).toBe(401);
    const forbidden = await t.api('PUT', `/api/events/${event._id}`, { token: other.token, body });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.msg).toBe('Only the organiser of this event or an administrator can do that.');

    const edited = await t.api('PUT', `/api/events/${event._id}`, { token: owner.token, body });
    expect(edited.status).toBe(200);
    // The organiser's edit of a published event waits for review beside it (event-pending-changes.test.ts covers the rule).
    expect(edited.body).toMatchObject({ title: event.title, status: 'approved', reReview: false, pendingChange: { status: 'pending' } });
    const approved = await t.api('PUT', `/api/events/admin/changes/${event._id}/approve`, { token: admin.token, body: {} });
    expect(approved.body).toMatchObject({ title: 'Renamed', description: 'New words', date: `${body.date}:00.000Z`, location: 'KICC, Nairobi', status: 'approved' });
    // A moved event without coordinates is geocoded again.
    expect(approved.body.latitude).toBeCloseTo(-1.2887, 3);

    const byAdmin = await t.api('PUT', `/api/events/${event._id}`, { token: admin.token, body: { capacity: 10, isPaid: true, ticketPrice: 700 } });
    expect(byAdmin.body).toMatchObject({ capacity: 10, isPaid: true, ticketPrice: 700, seatsLeft: 10, title: 'Renamed' });
  });

  it('leaves fields the body does not mention as they are, and clears the image with null', async () => {
    const event = await createEvent(t, owner.token, { image: 'https://img.example.com/a.jpg', capacity: 30, isPaid: true, ticketPrice: 450 });
    const res = await t.api('PUT', `/api/events/${event._id}`, { token: owner.token, body: { title: 'Only the title' } });
    expect(res.body).toMatchObject({
      title: 'Only the title',
      image: 'https://img.example.com/a.jpg',
      capacity: 30,
      isPaid: true,
      ticketPrice: 450,
      date: event.date,
      latitude: event.latitude,
      longitude: event.longitude,
    });
    const cleared = await t.api('PUT', `/api/events/${event._id}`, { token: owner.token, body: { image: null, capacity: null, isPaid: false } });
    expect(cleared.body).toMatchObject({ image: null, capacity: null, seatsLeft: null, isPaid: false, ticketPrice: 0 });
  });

  it('lets only admins set status (403 for the owner)', async () => {
    const event = await createEvent(t, owner.token);
    const res = await t.api('PUT', `/api/events/${event._id}`, { token: owner.token, body: { title: 'Sneaky', status: 'approved' } });
    expect(res.status).toBe(403);
    expect(res.body.msg).toBe('Only administrators can change the status of an event.');
    expect((await t.api('GET', `/api/events/${event._id}`, { token: owner.token })).body).toMatchObject({ status: 'pending', title: 'Nairobi Jazz Night' });
    const scraped = await t.api('PUT', `/api/events/${event._id}`, { token: admin.token, body: { title: 'Approved edit', status: 'approved' } });
    expect(scraped.body).toMatchObject({ title: 'Approved edit', status: 'approved' });
    const invalid = await t.api('PUT', `/api/events/${event._id}`, { token: admin.token, body: { status: 'published' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.field).toBe('status');
  });

  it('validates edits like creation', async () => {
    const event = await createEvent(t, owner.token);
    const cases: [Record<string, unknown>, string][] = [
      [{ title: '' }, 'Title is required.'],
      [{ date: '2020-01-01T10:00' }, 'The event date cannot be in the past.'],
      [{ location: 'x'.repeat(201) }, 'Location must be at most 200 characters.'],
      [{ image: 'http://insecure.example.com/a.png' }, 'Image must be an image uploaded to Tukio (/uploads/…) or an https:// URL.'],
      [{ isPaid: true }, 'Ticket price must be at least 1 shilling for a paid event.'],
    ];
    for (const [body, msg] of cases) {
      const res = await t.api('PUT', `/api/events/${event._id}`, { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg).toBe(msg);
    }
  });

  it('hides a pending event from other users’ edits as if it did not exist', async () => {
    const event = await createEvent(t, owner.token);
    expect((await t.api('PUT', `/api/events/${event._id}`, { token: other.token, body: { title: 'x' } })).status).toBe(404);
    expect((await t.api('DELETE', `/api/events/${event._id}`, { token: other.token })).status).toBe(404);
  });

  it('deletes for the owner or an admin with {msg}', async () => {
    const first = await createEvent(t, owner.token, {}, { approveWith: admin.token });
    expect((await t.api('DELETE', `/api/events/${first._id}`)).status).toBe(401);
    expect((await t.api('DELETE', `/api/events/${first._id}`, { token: other.token })).status).toBe(403);
    const res = await t.api('DELETE', `/api/events/${first._id}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ msg: 'Event deleted successfully.' });
    expect((await t.api('GET', `/api/events/${first._id}`, { token: owner.token })).status).toBe(404);

    const second = await createEvent(t, owner.token);
    expect((await t.api('DELETE', `/api/events/${second._id}`, { token: admin.token })).body).toEqual({ msg: 'Event deleted successfully.' });
    expect((await t.api('DELETE', `/api/events/${second._id}`, { token: admin.token })).status).toBe(404);
  });
});

describe('registeredUsers and seats', () => {
  it('lists ticket holders once each and counts seats, in lists and single events', async () => {
    const event = await createEvent(t, owner.token, { capacity: 5, isPaid: true, ticketPrice: 100 }, { approveWith: admin.token });
    const issue = (userId: string) => t.db.insert(tickets).values({ id: newId(), eventId: event._id, userId, code: `code-${newId()}` });
    await issue(other.user._id);
    await issue(other.user._id);
    await issue(admin.user._id);

    const single = await t.api('GET', `/api/events/${event._id}`);
    expect(single.body.registeredUsers.sort()).toEqual([other.user._id, admin.user._id].sort());
    expect(single.body).toMatchObject({ ticketsSold: 3, seatsLeft: 2 });
    const listed = (await t.api('GET', '/api/events/getevnt')).body.find((e: { _id: string }) => e._id === event._id);
    expect(listed.registeredUsers).toHaveLength(2);

    const tooSmall = await t.api('PUT', `/api/events/${event._id}`, { token: owner.token, body: { capacity: 2 } });
    expect(tooSmall.status).toBe(409);
    expect(tooSmall.body.msg).toBe('Capacity cannot be below the 3 seats in use: 3 tickets sold and 0 held by purchases in progress or offered to the waitlist.');
    expect(tooSmall.body.field).toBe('capacity');
    const ownerDelete = await t.api('DELETE', `/api/events/${event._id}`, { token: owner.token });
    expect(ownerDelete.status).toBe(409);
    expect((await t.api('DELETE', `/api/events/${event._id}`, { token: admin.token })).status).toBe(200);
  });
});

describe('counters', () => {
  it('counts opens of approved events into openedCount and today’s activity', async () => {
    const event = await createEvent(t, owner.token, {}, { approveWith: admin.token });
    for (let i = 0; i < 3; i += 1) {
      const res = await t.api('POST', `/api/events/incrementOpenedCount/${event._id}`);
      expect(res.status).toBe(204);
    }
    expect((await t.api('GET', `/api/events/${event._id}`)).body.openedCount).toBe(3);
    const [activity] = await t.db.select().from(eventDailyActivity).where(eq(eventDailyActivity.eventId, event._id));
    expect(activity).toMatchObject({ opens: 3, shares: 0, registrations: 0, day: new Date().toISOString().slice(0, 10) });

    expect((await t.api('POST', '/api/events/incrementOpenedCount/0123456789abcdef01234567')).status).toBe(404);
    const pending = await createEvent(t, owner.token);
    expect((await t.api('POST', `/api/events/incrementOpenedCount/${pending._id}`)).status).toBe(404);
  });

  it('counts shares per platform and refuses unknown platforms', async () => {
    const event = await createEvent(t, owner.token, {}, { approveWith: admin.token });
    const share = (platform: unknown) => t.api('POST', `/api/events/share-track/${event._id}`, { body: { platform } });
    expect((await share('whatsapp')).status).toBe(200);
    await share('WhatsApp');
    const res = await share('twitter');
    expect(res.body).toEqual({ msg: 'Share recorded.', shares: { whatsapp: 2, twitter: 1, instagram: 0 } });
    await share('instagram');

    for (const platform of ['facebook', '', undefined, 7]) {
      const bad = await share(platform);
      expect(bad.status, String(platform)).toBe(400);
      expect(bad.body).toMatchObject({ msg: 'Platform must be one of: whatsapp, twitter, instagram.', field: 'platform' });
    }
    const rows = await t.db.select().from(eventShares).where(eq(eventShares.eventId, event._id));
    expect(Object.fromEntries(rows.map((row) => [row.platform, row.count]))).toEqual({ whatsapp: 2, twitter: 1, instagram: 1 });
    const [activity] = await t.db.select().from(eventDailyActivity).where(eq(eventDailyActivity.eventId, event._id));
    expect(activity?.shares).toBe(4);
    expect((await t.api('POST', '/api/events/share-track/0123456789abcdef01234567', { body: { platform: 'twitter' } })).status).toBe(404);
  });
});
