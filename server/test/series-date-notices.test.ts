import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, users } from '../src/db/schema.js';
import { dayFromNow, insertEventRow } from './helpers/events.js';
import { payFor } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * A series date cancelled or moved tells its holders (docs/decisions/event-series.md): one mail per address through
 * the outbox, with a key so the same change never mails twice, in the holder's language; a guest buyer at the email
 * given at checkout; all-dates pass holders hear of a moved date (and that their pass stays valid when one is cancelled).
 */

type Session = Awaited<ReturnType<TestServer['createUser']>>;

let t: TestServer;
let organiser: Session;
let amani: Session;
let baraka: Session;
let chebet: Session;

beforeAll(async () => {
  t = await startTestServer();
  organiser = await t.createUser('sdnorganiser');
  amani = await t.createUser('sdnamani');
  baraka = await t.createUser('sdnbaraka');
  chebet = await t.createUser('sdnchebet');
  // Baraka reads Kiswahili.
  await t.db.update(users).set({ language: 'sw' }).where(eq(users.id, baraka.user._id));
}, 240_000);
afterAll(async () => {
  await t?.close();
});

const title = (what: string) => `${what} ${Math.random().toString(36).slice(2, 8)}`;

/** A paid series of three dates, a day ticket and an all-dates pass. */
async function series(what: string) {
  const name = title(what);
  const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price: 500, capacity: 20, title: name });
  for (const day of [11, 12]) expect((await t.api('POST', `/api/events/${eventId}/dates`, { token: organiser.token, body: { startsAt: dayFromNow(day), capacity: 20 } })).status).toBe(201);
  const dates = ((await t.api('GET', `/api/events/${eventId}/dates`)).body.dates as Array<{ _id: string; startsAt: string }>).map((date) => date._id) as [string, string, string];
  const types = (await t.api('GET', `/api/events/${eventId}/ticket-types`)).body.ticketTypes as Array<{ _id: string }>;
  const set = await t.api('PUT', `/api/events/${eventId}/ticket-types`, {
    token: organiser.token,
    body: { ticketTypes: [{ _id: types[0]!._id, name: 'Night ticket', price: 500 }, { name: 'Season pass', price: 1200, allDates: true }] },
  });
  expect(set.status).toBe(200);
  const [day, pass] = (set.body.ticketTypes as Array<{ _id: string }>).map((type) => type._id) as [string, string];
  return { name, eventId, dates, day, pass };
}

const keyed = async (prefix: string) => t.db.select().from(mailOutbox).where(like(mailOutbox.dedupeKey, `${prefix}%`));

describe('series date notices', () => {
  it('a cancelled date: each of its holders gets one mail in their language saying a refund is on its way; a guest at their checkout email; a pass holder that the pass stays valid', async () => {
    const { name, eventId, dates, day, pass } = await series('Open mic');
    const [first, second] = dates;
    await payFor(t, amani.token, eventId, { items: [{ typeId: day, quantity: 2 }], dateId: second, phone: '254711000031' });
    await payFor(t, baraka.token, eventId, { items: [{ typeId: day, quantity: 1 }], dateId: second, phone: '254711000032' });
    await payFor(t, undefined, eventId, { items: [{ typeId: day, quantity: 1 }], dateId: second, phone: '254711000033', guestEmail: 'sdn.guest@example.com' });
    await payFor(t, chebet.token, eventId, { items: [{ typeId: pass, quantity: 1 }], phone: '254711000034' });
    // Someone on another date hears nothing.
    const other = await t.createUser('sdnother');
    await payFor(t, other.token, eventId, { items: [{ typeId: day, quantity: 1 }], dateId: first, phone: '254711000035' });

    const cancelled = await t.api('DELETE', `/api/events/${eventId}/dates/${second}?confirm=true&reason=${encodeURIComponent('The hall flooded.')}`, { token: organiser.token });
    expect(cancelled.status).toBe(200);

    const english = await t.smtp.waitFor(amani.user.email, /^Date cancelled: /);
    expect(english.subject).toContain(name);
    expect(english.text).toContain('Hello sdnamani,');
    expect(english.text).toContain('has been cancelled. The other dates go ahead.');
    expect(english.text).toContain('Reason given: The hall flooded.');
    expect(english.text).toContain('Your 2 tickets are no longer valid.');
    expect(english.text).toMatch(/Your refund of Ksh\.1,000 is on its way back to M-Pesa 254711000031/);

    const swahili = await t.smtp.waitFor(baraka.user.email, /^Tarehe imeghairiwa: /);
    expect(swahili.text).toContain('imeghairiwa');
    expect(swahili.text).toContain('zinarudishwa kwa M-Pesa 254711000032');

    const guest = await t.smtp.waitFor('sdn.guest@example.com', /^Date cancelled: /);
    expect(guest.text.startsWith('Hello,')).toBe(true);
    expect(guest.text).toMatch(/Your refund of Ksh\.500 is on its way/);
    expect(t.smtp.inbox.some((mail) => mail.to.endsWith('@guest.invalid'))).toBe(false);

    const passHolder = await t.smtp.waitFor(chebet.user.email, /^Date cancelled: /);
    expect(passHolder.text).toContain('Your all-dates pass stays valid for the other dates.');
    expect(passHolder.text).not.toContain('refund');

    // One row per address, each with its key; nobody on the other date.
    const rows = await keyed(`series-date-cancelled:${second}:`);
    expect(rows.map((row) => row.recipient).sort()).toEqual([amani.user.email, baraka.user.email, chebet.user.email, 'sdn.guest@example.com'].map((email) => email.toLowerCase()).sort());
    expect(t.smtp.inbox.some((mail) => mail.to === other.user.email && /cancelled/i.test(mail.subject))).toBe(false);
  });

  it('a moved date: its holders and every pass holder get one mail with the old and the new time; other dates hear nothing', async () => {
    const { name, eventId, dates, day, pass } = await series('Jazz night');
    const [first, second, third] = dates;
    const dayBuyer = await t.createUser('sdndaybuyer');
    const passBuyer = await t.createUser('sdnpassbuyer');
    const elsewhere = await t.createUser('sdnelsewhere');
    await payFor(t, dayBuyer.token, eventId, { items: [{ typeId: day, quantity: 1 }], dateId: third, phone: '254711000041' });
    await payFor(t, passBuyer.token, eventId, { items: [{ typeId: pass, quantity: 1 }], phone: '254711000042' });
    await payFor(t, undefined, eventId, { items: [{ typeId: day, quantity: 1 }], dateId: third, phone: '254711000043', guestEmail: 'sdn.mover@example.com' });
    await payFor(t, elsewhere.token, eventId, { items: [{ typeId: day, quantity: 1 }], dateId: first, phone: '254711000044' });
    void second;

    const newStart = dayFromNow(14, '20:30');
    const moved = await t.api('PATCH', `/api/events/${eventId}/dates/${third}`, { token: organiser.token, body: { startsAt: newStart } });
    expect(moved.status).toBe(200);

    for (const email of [dayBuyer.user.email, passBuyer.user.email, 'sdn.mover@example.com']) {
      const mail = await t.smtp.waitFor(email, /^Date changed: /);
      expect(mail.subject).toContain(name);
      expect(mail.text).toContain(`New date: ${newStart.replace('T', ' ')} Nairobi time (it was ${dayFromNow(12).replace('T', ' ')}).`);
      expect(mail.text).toContain('Your tickets stay valid for the new date and place.');
    }
    const rows = await keyed(`series-date-moved:${third}:`);
    expect(rows).toHaveLength(3);
    expect(t.smtp.inbox.some((mail) => mail.to === elsewhere.user.email && /Date changed/.test(mail.subject))).toBe(false);

    // A change of seats only moves nothing: no mail.
    expect((await t.api('PATCH', `/api/events/${eventId}/dates/${third}`, { token: organiser.token, body: { capacity: 15 } })).status).toBe(200);
    expect(await keyed(`series-date-moved:${third}:`)).toHaveLength(3);
    // Moving it again is a new change: one more mail each.
    expect((await t.api('PATCH', `/api/events/${eventId}/dates/${third}`, { token: organiser.token, body: { startsAt: dayFromNow(15, '20:30') } })).status).toBe(200);
    expect(await keyed(`series-date-moved:${third}:`)).toHaveLength(6);
  });

  it('the outbox writes a keyed mail once, however often the same change is handled', async () => {
    const mail = { to: 'sdn.once@example.com', subject: 'Once', text: 'Once.' };
    await Promise.all([t.services.mail.send(mail, 'test once', undefined, 'test-once:1'), t.services.mail.send(mail, 'test once', undefined, 'test-once:1')]);
    await t.services.mail.send(mail, 'test once', undefined, 'test-once:1');
    expect(await keyed('test-once:')).toHaveLength(1);
  });
});
