import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowAsWallClock } from '../src/lib/event-clock.js';
import { mailOutbox, orders, users } from '../src/db/schema.js';
import { createPaymentsRepository } from '../src/modules/checkout/payments.repository.js';
import { priceOrder } from '../src/modules/checkout/price-order.js';
import { dayFromNow, insertEventRow } from './helpers/events.js';
import { internalHeaders, payFor } from './helpers/refunds.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Issue 34, item 1: the organiser's edit of a published event waits for review beside the published version,
 * which stays listed, searchable and on sale; only a new date or place (or a higher price) pauses sales, and
 * holders are emailed when an approved change moves the date or place.
 */

type Person = Awaited<ReturnType<TestServer['createUser']>>;

let t: TestServer;
let admin: Awaited<ReturnType<TestServer['loginAdmin']>>;
let serial = 0;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.loginAdmin();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const person = (name: string): Promise<Person> => t.createUser(`${name}${(serial += 1)}`);

/** A published paid event with 400 seats at 500 shillings, its title unique so search finds exactly it. */
async function liveEvent(owner: Person, title: string) {
  return insertEventRow(t.db, { ownerId: owner.user._id, days: 12, price: 500, capacity: 400, title, location: 'KICC, Nairobi' });
}

/** What a buyer's hold answers (the payment service's first call), without paying. */
const hold = (buyer: Person, eventId: string) =>
  t.api('POST', '/api/internal/payments/orders', { token: buyer.token, headers: internalHeaders(t), body: { eventId, quantity: 1, phone: '254712345678' } });

const edit = (who: { token: string }, eventId: string, body: Record<string, unknown>) => t.api('PUT', `/api/events/${eventId}`, { token: who.token, body });

async function isListed(eventId: string) {
  const list = await t.api('GET', '/api/events/getevnt');
  return (list.body as Array<{ _id: string }>).some((event) => event._id === eventId);
}

describe("an organiser's edit of a published event", () => {
  it('keeps the published version live, listed and on sale until an admin approves the new description', async () => {
    const organiser = await person('pcorg');
    const buyer = await person('pcbuyer');
    const title = `Quartz Gala ${serial}`;
    const eventId = await liveEvent(organiser, title);
    const published = (await t.api('GET', `/api/events/${eventId}`)).body;

    const edited = await edit(organiser, eventId, { description: 'Now with a string quartet.' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ status: 'approved', reReview: false, description: published.description });
    expect(edited.body.msg).toMatch(/wait for review/);
    expect(edited.body.pendingChange).toMatchObject({
      status: 'pending',
      pausesSales: false,
      changes: [{ field: 'description', from: published.description, to: 'Now with a string quartet.' }],
    });

    // The public keeps the approved version everywhere, and can buy.
    const page = await t.api('GET', `/api/events/${eventId}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ status: 'approved', description: published.description });
    expect(await isListed(eventId)).toBe(true);
    const found = await t.api('GET', `/api/events?q=${encodeURIComponent('Quartz Gala')}`);
    expect((found.body.items as Array<{ _id: string }>).map((event) => event._id)).toContain(eventId);
    expect((await hold(buyer, eventId)).status).toBe(201);

    // The organiser sees what waits; the admin sees it side by side.
    const mine = await t.api('GET', `/api/events/${eventId}/pending-change`, { token: organiser.token });
    expect(mine.status).toBe(200);
    expect(mine.body.pendingChange).toMatchObject({ status: 'pending', changes: [{ field: 'description', to: 'Now with a string quartet.' }] });
    expect((await t.api('GET', `/api/events/${eventId}/pending-change`, { token: buyer.token })).status).toBe(403);
    const queue = await t.api('GET', '/api/events/admin/changes', { token: admin.token });
    expect(queue.status).toBe(200);
    const queued = (queue.body.items as Array<{ eventId: string; proposedBy: string; event: { title: string }; changes: unknown[] }>).find((item) => item.eventId === eventId);
    expect(queued).toMatchObject({ proposedBy: organiser.user._id, event: { title }, changes: [{ field: 'description', from: published.description, to: 'Now with a string quartet.' }] });
    expect((await t.api('GET', '/api/events/admin/changes', { token: organiser.token })).status).toBe(403);

    const approved = await t.api('PUT', `/api/events/admin/changes/${eventId}/approve`, { token: admin.token, body: {} });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ description: 'Now with a string quartet.', status: 'approved', holdersNotified: 0 });
    expect((await t.api('GET', `/api/events/${eventId}`)).body.description).toBe('Now with a string quartet.');
    expect((await t.api('GET', `/api/events/${eventId}/pending-change`, { token: organiser.token })).body.pendingChange).toBeNull();
    expect((await t.api('PUT', `/api/events/admin/changes/${eventId}/approve`, { token: admin.token, body: {} })).status).toBe(404);
  });

  it('leaves the published version unchanged when the admin rejects, and shows the organiser why', async () => {
    const organiser = await person('pcrej');
    const eventId = await liveEvent(organiser, `Rejected Soiree ${serial}`);
    const before = (await t.api('GET', `/api/events/${eventId}`)).body;
    expect((await edit(organiser, eventId, { title: 'Free drinks at evil.example' })).status).toBe(200);

    const rejected = await t.api('PUT', `/api/events/admin/changes/${eventId}/reject`, { token: admin.token, body: { reason: 'No links in titles.' } });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(rejected.body.pendingChange).toMatchObject({ status: 'rejected', rejectReason: 'No links in titles.' });
    expect((await t.api('GET', `/api/events/${eventId}`)).body).toMatchObject({ title: before.title, status: 'approved' });
    const mine = await t.api('GET', `/api/events/${eventId}/pending-change`, { token: organiser.token });
    expect(mine.body.pendingChange).toMatchObject({ status: 'rejected', rejectReason: 'No links in titles.', changes: [{ field: 'title', to: 'Free drinks at evil.example' }] });
    // A rejected set is no longer in the queue, and cannot be approved afterwards.
    expect(((await t.api('GET', '/api/events/admin/changes', { token: admin.token })).body.items as Array<{ eventId: string }>).some((item) => item.eventId === eventId)).toBe(false);
    expect((await t.api('PUT', `/api/events/admin/changes/${eventId}/approve`, { token: admin.token, body: {} })).status).toBe(404);

    // The organiser dismisses it.
    const dismissed = await t.api('DELETE', `/api/events/${eventId}/pending-change`, { token: organiser.token });
    expect(dismissed.status).toBe(200);
    expect((await t.api('GET', `/api/events/${eventId}/pending-change`, { token: organiser.token })).body.pendingChange).toBeNull();
  });

  it('pauses sales while a new date waits, then applies it and emails every holder in their language', async () => {
    const organiser = await person('pcdate');
    const holder = await person('pcholder');
    const buyer = await person('pclate');
    await t.db.update(users).set({ language: 'sw' }).where(eq(users.id, holder.user._id));
    const eventId = await liveEvent(organiser, `Moved Concert ${serial}`);
    await payFor(t, holder.token, eventId);
    const before = (await t.api('GET', `/api/events/${eventId}`)).body;

    const newDate = dayFromNow(30, '19:30');
    const edited = await edit(organiser, eventId, { date: newDate, capacity: 450 });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    // Capacity needs no review: it applies at once; the date waits, and pauses sales.
    expect(edited.body).toMatchObject({ capacity: 450, date: before.date, reReview: false, pendingChange: { pausesSales: true, changes: [{ field: 'date', from: before.date, to: `${newDate}:00.000Z` }] } });
    expect(edited.body.msg).toMatch(/sales are paused/);

    const refused = await hold(buyer, eventId);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'event_sales_paused' });
    expect(refused.body.msg).toMatch(/Sales are paused while changes to this event are reviewed/);
    // Still public while paused.
    expect((await t.api('GET', `/api/events/${eventId}`)).status).toBe(200);
    expect(await isListed(eventId)).toBe(true);

    const approved = await t.api('PUT', `/api/events/admin/changes/${eventId}/approve`, { token: admin.token, body: {} });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ date: `${newDate}:00.000Z`, holdersNotified: 1 });
    const queued = await t.db.select().from(mailOutbox).where(and(eq(mailOutbox.recipient, holder.user.email), eq(mailOutbox.purpose, `event ${eventId} moved`)));
    expect(queued).toHaveLength(1);
    const mail = await t.smtp.waitFor(holder.user.email, /^Imebadilishwa: Moved Concert/, 30_000);
    expect(mail.text).toContain('Tarehe mpya');
    expect((await hold(buyer, eventId)).status).toBe(201);
  });

  it('a hold priced just before a pausing proposal is not held on the old terms: the pause is one of its facts', async () => {
    const organiser = await person('pcrace');
    const buyer = await person('pcracer');
    const eventId = await liveEvent(organiser, `Race Gala ${serial}`);
    const repo = createPaymentsRepository(t.db);
    const read = await repo.pricingFacts(eventId, undefined);
    expect(read?.facts.salesPaused).toBe(false);
    const { priced } = priceOrder(read!.facts, { quantity: 1 }, nowAsWallClock());
    // The proposal lands between the buyer's read and their hold.
    expect((await edit(organiser, eventId, { location: 'Kasarani Stadium, Nairobi' })).body).toMatchObject({ pendingChange: { pausesSales: true } });
    const held = await repo.holdPricedOrder({ eventId, userId: buyer.user._id, factsVersion: read!.version, promoCode: undefined, priced: priced!, phone: '254712345678', holdSeconds: 60 });
    expect(held.outcome).toBe('stale');
    expect(await t.db.select().from(orders).where(eq(orders.eventId, eventId))).toHaveLength(0);
    // The hold's next read sees the pause and says so.
    expect((await hold(buyer, eventId)).body).toMatchObject({ code: 'event_sales_paused' });
  });

  it('pauses free registrations for a new place, and the organiser can withdraw to resume them', async () => {
    const organiser = await person('pcplace');
    const guest = await person('pcguest');
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 9, title: `Picnic ${serial}`, location: 'Uhuru Park, Nairobi', capacity: 50 });
    const moved = await edit(organiser, eventId, { location: 'Karura Forest, Nairobi' });
    expect(moved.body).toMatchObject({ location: 'Uhuru Park, Nairobi', pendingChange: { pausesSales: true } });
    const refused = await t.api('POST', `/api/events/register/${eventId}`, { token: guest.token, body: { tickets: 1 } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('event_sales_paused');

    // Sending the published place again takes the proposal back; withdrawing does the same for what remains.
    const back = await edit(organiser, eventId, { location: 'Uhuru Park, Nairobi', description: 'Bring a blanket.' });
    expect(back.body.pendingChange).toMatchObject({ pausesSales: false, changes: [{ field: 'description' }] });
    expect((await t.api('DELETE', `/api/events/${eventId}/pending-change`, { token: organiser.token })).status).toBe(200);
    expect((await t.api('POST', `/api/events/register/${eventId}`, { token: guest.token, body: { tickets: 1 } })).status).toBe(200);
  });

  it('pauses sales for a higher price but not a lower one; a never-approved event and an admin edit apply at once', async () => {
    const organiser = await person('pcprice');
    const eventId = await liveEvent(organiser, `Priced Show ${serial}`);
    expect((await edit(organiser, eventId, { ticketPrice: 400 })).body.pendingChange).toMatchObject({ pausesSales: false, changes: [{ field: 'price', from: 500, to: 400 }] });
    expect((await edit(organiser, eventId, { ticketPrice: 800 })).body.pendingChange).toMatchObject({ pausesSales: true, changes: [{ field: 'price', from: 500, to: 800 }] });

    const byAdmin = await edit(admin, eventId, { title: 'Priced Show (admin)' });
    expect(byAdmin.body).toMatchObject({ title: 'Priced Show (admin)', reReview: false });

    const draft = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 9, status: 'pending' });
    const drafted = await edit(organiser, draft, { description: 'Straight in.' });
    expect(drafted.body).toMatchObject({ description: 'Straight in.', status: 'pending', reReview: false });
    expect((await t.api('GET', `/api/events/${draft}/pending-change`, { token: organiser.token })).body.pendingChange).toBeNull();
  });
});
