import { createPublicKey, verify } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventDailyActivity, tickets } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

let t: TestServer;
let organiser: Awaited<ReturnType<TestServer['createUser']>>;
beforeAll(async () => {
  t = await startTestServer();
  organiser = await t.createUser('organiser');
});
afterAll(async () => {
  await t?.close();
});

/** An approved event row (no API), `daysAhead` days from now, at Uhuru Park; owned by the organiser unless told. */
const createEvent = (input: { price?: number; capacity?: number | null; daysAhead?: number; title?: string; ownerId?: string }) =>
  insertEventRow(t.db, {
    ownerId: input.ownerId ?? organiser.user._id,
    days: input.daysAhead ?? 5,
    title: input.title ?? 'Free Community Day',
    location: 'Uhuru Park, Nairobi',
    price: input.price,
    capacity: input.capacity,
  });

const register = (token: string, eventId: string, body: Record<string, unknown> = {}) =>
  t.api('POST', `/api/events/register/${eventId}`, { token, body });

describe('POST /api/events/register/:id for free events', () => {
  it('registers with a quantity, respects capacity and counts registrations', async () => {
    const eventId = await createEvent({ capacity: 3 });
    const a = await t.createUser('wanjiru');
    const b = await t.createUser('otieno');
    const c = await t.createUser('mutua');

    const first = await register(a.token, eventId, { userId: a.user._id, tickets: 2 });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ message: 'Registered successfully' });
    const tooMany = await register(b.token, eventId, { userId: b.user._id, tickets: 2 });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body).toMatchObject({ message: 'Only 1 ticket left for this event.', msg: 'Only 1 ticket left for this event.' });
    expect((await register(b.token, eventId, { userId: b.user._id, tickets: 1 })).status).toBe(200);
    const full = await register(c.token, eventId, { userId: c.user._id });
    expect(full.status).toBe(409);
    expect(full.body.message).toBe('Sorry, this event is sold out.');

    // Registering again is not an error and takes no more seats.
    const again = await register(a.token, eventId, { userId: a.user._id, tickets: 1 });
    expect(again.status).toBe(200);
    expect(again.body.message).toBe('You are already registered for this event.');
    expect((await t.db.select().from(tickets).where(eq(tickets.eventId, eventId))).length).toBe(3);
    const [activity] = await t.db.select().from(eventDailyActivity).where(eq(eventDailyActivity.eventId, eventId));
    expect(activity?.registrations).toBe(3);

    const mail = await t.smtp.waitFor('wanjiru@example.com', /Your Tukio tickets: Free Community Day/);
    expect(mail.attachments.some((a) => a.filename === 'event.ics')).toBe(true);
    const qr = mail.attachments.filter((a) => a.contentType === 'image/png');
    expect(qr).toHaveLength(2);
    expect(qr[0]!.content.subarray(1, 4).toString()).toBe('PNG');
  });

  it('refuses past events, bad quantities, someone else\'s user id and anonymous callers', async () => {
    const user = await t.createUser('kiprop');
    const past = await createEvent({ daysAhead: -1 });
    const res = await register(user.token, past, { userId: user.user._id });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('This event has already taken place.');
    const open = await createEvent({});
    expect((await register(user.token, open, { tickets: 0 })).status).toBe(400);
    expect((await register(user.token, open, { tickets: 11 })).status).toBe(400);
    expect((await register(user.token, open, { userId: organiser.user._id })).status).toBe(403);
    const anonymous = await t.api('POST', `/api/events/register/${open}`, { body: {} });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toBeTruthy();
    expect((await register(user.token, 'f'.repeat(24))).status).toBe(404);
  });

  it('never lets concurrent registrations exceed capacity', async () => {
    const eventId = await createEvent({ capacity: 4 });
    const users = await Promise.all(['ruto1', 'ruto2', 'ruto3', 'ruto4', 'ruto5', 'ruto6'].map((name) => t.createUser(name)));
    const results = await Promise.all(users.map((user) => register(user.token, eventId, { tickets: 2 })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    expect(results.filter((r) => r.status >= 500)).toHaveLength(0);
    expect((await t.db.select().from(tickets).where(eq(tickets.eventId, eventId))).length).toBe(4);
  });
});

describe('tickets, signatures and check-in', () => {
  it('lists my tickets with signed codes verifiable offline with the public key', async () => {
    const user = await t.createUser('nyambura');
    const eventId = await createEvent({ title: 'Book Fair' });
    await register(user.token, eventId, { tickets: 1 });
    const mine = await t.api('GET', '/api/tickets/mine', { token: user.token });
    expect(mine.status).toBe(200);
    expect(mine.body).toHaveLength(1);
    const ticket = mine.body[0];
    expect(ticket).toMatchObject({ _id: expect.any(String), checkedInAt: null, event: { _id: eventId, title: 'Book Fair', location: 'Uhuru Park, Nairobi' } });

    const key = await t.api('GET', '/api/tickets/public-key');
    expect(key.body.algorithm).toBe('Ed25519');
    const [prefix, payload, signature] = (ticket.code as string).split('.');
    expect(prefix).toBe('TK1');
    const publicKey = createPublicKey(key.body.pem);
    expect(verify(null, Buffer.from(`TK1.${payload}`), publicKey, Buffer.from(signature!, 'base64url'))).toBe(true);
    const ids = Buffer.from(payload!, 'base64url');
    expect(ids.subarray(0, 12).toString('hex')).toBe(ticket._id);
    expect(ids.subarray(12).toString('hex')).toBe(eventId);
    expect((await t.api('GET', '/api/tickets/mine')).status).toBe(401);
  });

  it('checks in once (first scan wins), refuses forged codes, other events\' codes and strangers', async () => {
    const guest = await t.createUser('guest');
    const stranger = await t.createUser('stranger');
    const eventId = await createEvent({ title: 'Gala' });
    const otherEvent = await createEvent({ title: 'Other' });
    await register(guest.token, eventId, { tickets: 1 });
    await register(guest.token, otherEvent, { tickets: 1 });
    const mine = await t.api('GET', '/api/tickets/mine', { token: guest.token });
    const code = mine.body.find((x: any) => x.event._id === eventId).code as string;
    const otherCode = mine.body.find((x: any) => x.event._id === otherEvent).code as string;

    const byStranger = await t.api('POST', `/api/events/${eventId}/checkin`, { token: stranger.token, body: { code } });
    expect(byStranger.status).toBe(403);

    const scans = await Promise.all([1, 2, 3].map(() => t.api('POST', `/api/events/${eventId}/checkin`, { token: organiser.token, body: { code } })));
    expect(scans.filter((r) => r.status === 200)).toHaveLength(1);
    const repeated = scans.filter((r) => r.status === 409);
    expect(repeated).toHaveLength(2);
    expect(repeated[0]!.body.message).toMatch(/^This ticket was already used at /);
    expect(repeated[0]!.body.checkedInAt).toBe(scans.find((r) => r.status === 200)!.body.ticket.checkedInAt);

    const [p, payload, signature] = code.split('.');
    const tampered = `${p}.${payload}.${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BA' : 'AA'}`;
    for (const bad of [tampered, 'TK1.abc.def', 'hello', `${p}.${Buffer.from('x'.repeat(24)).toString('base64url')}.${signature}`]) {
      const res = await t.api('POST', `/api/events/${eventId}/checkin`, { token: organiser.token, body: { code: bad } });
      expect(res.status, bad).toBe(400);
      expect(res.body.message).toBe('This ticket code is not valid.');
    }
    const wrongEvent = await t.api('POST', `/api/events/${eventId}/checkin`, { token: organiser.token, body: { code: otherCode } });
    expect(wrongEvent.status).toBe(400);
    expect(wrongEvent.body.message).toBe('This ticket is for a different event.');

    const admin = await t.loginAdmin();
    expect((await t.api('POST', `/api/events/${otherEvent}/checkin`, { token: admin.token, body: { code: otherCode } })).status).toBe(200);
  });

  it('lists attendees as JSON and CSV for the organiser only', async () => {
    const guest = await t.createUser('attendee1');
    const eventId = await createEvent({ title: 'Hackathon' });
    await register(guest.token, eventId, { tickets: 2 });
    const list = await t.api('GET', `/api/events/${eventId}/attendees`, { token: organiser.token });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    expect(list.body[0]).toMatchObject({ userId: guest.user._id, username: 'attendee1', email: 'attendee1@example.com', checkedInAt: null });
    const csv = await t.api('GET', `/api/events/${eventId}/attendees?format=csv`, { token: organiser.token });
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    const lines = (csv.body as string).trim().split('\r\n');
    expect(lines[0]).toBe('"Ticket","User id","Username","Email","Order","Issued at","Checked in at"');
    expect(lines).toHaveLength(3);
    expect((await t.api('GET', `/api/events/${eventId}/attendees`, { token: guest.token })).status).toBe(403);
  });
});

describe('shutdown', () => {
  it('sends the ticket emails still queued when the server is asked to stop', async () => {
    const server = await startTestServer();
    const owner = await server.createUser('mwenyeji');
    const eventId = await insertEventRow(server.db, { ownerId: owner.user._id, days: 5, title: 'Closing Night' });
    const guests = await Promise.all(['akinyi', 'barasa', 'cherono', 'duba'].map((name) => server.createUser(name)));
    for (const guest of guests) {
      const res = await server.api('POST', `/api/events/register/${eventId}`, { token: guest.token, body: { tickets: 2 } });
      expect(res.status).toBe(200);
    }
    // Straight after the last sale: the emails are still in the outbox, sent before the server stops.
    await server.close();
    const ticketMails = server.smtp.inbox.filter((mail) => /Closing Night/.test(mail.subject));
    expect(ticketMails.map((mail) => mail.to).sort()).toEqual(guests.map((g) => g.user.email).sort());
  });
});
