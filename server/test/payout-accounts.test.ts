import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payoutAccounts } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { payoutCodeSentTo, smsReceivedBy } from './helpers/sms.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Where organisers are paid (docs/decisions/payout-accounts.md), over HTTP: a destination is asked for with
 * the account password, proven with a 6-digit SMS code (read here from the offline SMS simulator), and only
 * then active; a change mails the organiser and holds payouts 24 hours; confirmed rows are history.
 */

type Person = Awaited<ReturnType<TestServer['createUser']>>;

let t: TestServer;
let serial = 0;
const PASSWORD = 'payout-secret-1';
const freshPhone = () => `2547${String(30_000_000 + serial++).slice(-8)}`;
const HOUR = 60 * 60 * 1000;

const smsTo = (phone: string) => smsReceivedBy(t, phone);
const codeSentTo = (phone: string, nth = 1) => payoutCodeSentTo(t, phone, nth);

/** A verified account that has created an event: an organiser. */
async function organiser(): Promise<Person> {
  const person = await t.createUser(`payee${Date.now().toString(36)}${serial++}`, PASSWORD);
  await insertEventRow(t.db, { ownerId: person.user._id, days: 10, price: 500, capacity: 50 });
  return person;
}

const account = (person: Person) => t.api('GET', '/api/payout-account', { token: person.token });
const ask = (person: Person, body: unknown) => t.api('POST', '/api/payout-account', { token: person.token, body });
const confirm = (person: Person, code: string) => t.api('POST', '/api/payout-account/confirm', { token: person.token, body: { code } });
const rowsOf = (person: Person) => t.db.select().from(payoutAccounts).where(eq(payoutAccounts.userId, person.user._id));
const wrongCodeFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** Adds and confirms an M-Pesa destination; returns its phone. */
async function withMpesa(person: Person, phone = freshPhone()): Promise<string> {
  expect((await ask(person, { password: PASSWORD, destination: { method: 'mpesa', phone } })).status).toBe(202);
  expect((await confirm(person, await codeSentTo(phone))).status).toBe(200);
  return phone;
}

beforeAll(async () => {
  t = await startTestServer({ SMS_POLL_MS: '100', SMS_REMINDER_SWEEP_MS: '0' });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('adding the first destination', () => {
  it('sends a code to the M-Pesa number and makes it active once confirmed, without a hold', async () => {
    const amina = await organiser();
    const phone = freshPhone();
    expect((await account(amina)).body).toEqual({ active: null, heldUntil: null, pending: null });

    // Any Kenyan form of the number is accepted and stored as 254….
    const asked = await ask(amina, { password: PASSWORD, destination: { method: 'mpesa', phone: `0${phone.slice(3)}` } });
    expect(asked.status).toBe(202);
    expect(asked.body.active).toBeNull();
    expect(asked.body.pending).toMatchObject({ destination: { method: 'mpesa', phone: `0${phone.slice(3, 6)} ••• ${phone.slice(-3)}` }, attemptsLeft: 5 });
    expect(JSON.stringify(asked.body)).not.toContain(phone.slice(3));
    expect(await t.services.payoutAccounts.payoutDestination(amina.user._id, new Date())).toBeNull();

    const code = await codeSentTo(phone);
    const [stored] = await rowsOf(amina);
    expect(stored!.codeHash).not.toContain(code);
    expect(stored!.phone).toBe(phone);

    const confirmed = await confirm(amina, code);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ active: { method: 'mpesa' }, heldUntil: null, pending: null });
    expect(await t.services.payoutAccounts.payoutDestination(amina.user._id, new Date())).toEqual({ destination: { method: 'mpesa', phone }, heldUntil: null });
    // The code works once.
    expect((await confirm(amina, code)).status).toBe(404);
  });

  it('sends a Paybill or Till code to the phone the organiser names', async () => {
    const baraka = await organiser();
    const codePhone = freshPhone();
    const asked = await ask(baraka, { password: PASSWORD, destination: { method: 'paybill', shortcode: '247247', accountReference: 'ACC-99871' }, codePhone });
    expect(asked.status).toBe(202);
    expect(asked.body.pending.destination).toEqual({ method: 'paybill', shortcode: '247247', accountReference: '•••••9871' });
    expect((await confirm(baraka, await codeSentTo(codePhone))).status).toBe(200);
    expect(await t.services.payoutAccounts.payoutDestination(baraka.user._id, new Date())).toEqual({
      destination: { method: 'paybill', shortcode: '247247', accountReference: 'ACC-99871' },
      heldUntil: null,
    });
  });
});

describe('changing the destination', () => {
  it('asks for the password and a new code, emails the organiser and holds payouts for 24 hours', async () => {
    const chebet = await organiser();
    const first = await withMpesa(chebet);

    const wrongPassword = await ask(chebet, { password: 'not-my-password', destination: { method: 'till', shortcode: '5123456' }, codePhone: first });
    expect(wrongPassword.status).toBe(403);
    expect(wrongPassword.body).toMatchObject({ code: 'payout_password_wrong', msg: expect.stringMatching(/not your password/) });
    expect(await rowsOf(chebet)).toHaveLength(1);
    expect(await smsTo(first)).toHaveLength(1);

    // The same destination again is not a change.
    expect((await ask(chebet, { password: PASSWORD, destination: { method: 'mpesa', phone: first } })).status).toBe(409);

    const asked = await ask(chebet, { password: PASSWORD, destination: { method: 'till', shortcode: '5123456' }, codePhone: first });
    expect(asked.status).toBe(202);
    // Until the code is confirmed payouts still go to the first number, with no hold.
    expect(asked.body.active).toMatchObject({ method: 'mpesa' });
    expect(await t.services.payoutAccounts.payoutDestination(chebet.user._id, new Date())).toEqual({ destination: { method: 'mpesa', phone: first }, heldUntil: null });

    const before = Date.now();
    const confirmed = await confirm(chebet, await codeSentTo(first, 2));
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.active).toMatchObject({ method: 'till', shortcode: '5123456' });
    const heldUntil = new Date(confirmed.body.heldUntil).getTime();
    expect(heldUntil).toBeGreaterThanOrEqual(before + 24 * HOUR - 1000);
    expect(heldUntil).toBeLessThanOrEqual(Date.now() + 24 * HOUR + 1000);

    const now = new Date();
    const held = await t.services.payoutAccounts.payoutDestination(chebet.user._id, now);
    expect(held).toEqual({ destination: { method: 'till', shortcode: '5123456' }, heldUntil: new Date(heldUntil) });
    // Once the day is over the hold is gone; before the change, the old destination answers.
    expect((await t.services.payoutAccounts.payoutDestination(chebet.user._id, new Date(heldUntil + 1)))!.heldUntil).toBeNull();
    expect(await t.services.payoutAccounts.payoutDestination(chebet.user._id, new Date(before - 1))).toEqual({ destination: { method: 'mpesa', phone: first }, heldUntil: null });

    const mail = await t.smtp.waitFor(chebet.user.email, /payouts now go to Till 5123456/);
    expect(mail.text).toMatch(/M-Pesa 07\d\d ••• \d{3}/);
    expect(mail.text).toMatch(/no payout is sent until/);

    // History: the first destination's row is kept as it was.
    const rows = await rowsOf(chebet);
    expect(rows.filter((row) => row.status === 'confirmed').map((row) => row.method).sort()).toEqual(['mpesa', 'till']);
    expect((await account(chebet)).body.heldUntil).toBe(confirmed.body.heldUntil);
    // The database itself refuses to change a confirmed destination.
    const firstRow = rows.find((row) => row.method === 'mpesa')!;
    await expect(t.db.update(payoutAccounts).set({ phone: freshPhone() }).where(eq(payoutAccounts.id, firstRow.id))).rejects.toThrow();
    expect((await rowsOf(chebet)).find((row) => row.id === firstRow.id)).toEqual(firstRow);
  });

  it('does not mail or hold when the first destination is confirmed', async () => {
    const dalia = await organiser();
    await withMpesa(dalia);
    expect(t.smtp.inbox.filter((mail) => mail.to === dalia.user.email && /payouts now go/.test(mail.subject))).toEqual([]);
  });
});

describe('codes', () => {
  it('counts wrong codes and locks the request after five', async () => {
    const eli = await organiser();
    const phone = freshPhone();
    await ask(eli, { password: PASSWORD, destination: { method: 'mpesa', phone } });
    const code = await codeSentTo(phone);
    const wrong = wrongCodeFor(code);
    for (let left = 4; left >= 1; left--) {
      const res = await confirm(eli, wrong);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'payout_code_wrong', params: { attemptsLeft: left } });
    }
    expect((await confirm(eli, wrong)).body).toMatchObject({ code: 'payout_code_attempts_used' });
    // Even the right code no longer works: a new one must be asked for.
    const late = await confirm(eli, code);
    expect(late.status).toBe(429);
    expect(await t.services.payoutAccounts.payoutDestination(eli.user._id, new Date())).toBeNull();

    await ask(eli, { password: PASSWORD, destination: { method: 'mpesa', phone } });
    expect((await confirm(eli, await codeSentTo(phone, 2))).status).toBe(200);
  });

  it('refuses an expired code', async () => {
    const faith = await organiser();
    const phone = freshPhone();
    await ask(faith, { password: PASSWORD, destination: { method: 'mpesa', phone } });
    const code = await codeSentTo(phone);
    await t.db.update(payoutAccounts).set({ codeExpiresAt: new Date(Date.now() - 1000) }).where(eq(payoutAccounts.userId, faith.user._id));
    const res = await confirm(faith, code);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('payout_code_expired');
    expect((await account(faith)).body.active).toBeNull();
  });

  it('replaces the waiting request: the older code stops working', async () => {
    const gift = await organiser();
    const [one, two] = [freshPhone(), freshPhone()];
    await ask(gift, { password: PASSWORD, destination: { method: 'mpesa', phone: one } });
    const oldCode = await codeSentTo(one);
    await ask(gift, { password: PASSWORD, destination: { method: 'mpesa', phone: two } });
    const newCode = await codeSentTo(two);
    if (oldCode !== newCode) expect((await confirm(gift, oldCode)).status).toBe(400);
    expect((await confirm(gift, newCode)).body.active.phone).toMatch(new RegExp(`${two.slice(-3)}$`));
  });

  it('sends at most five codes an hour to one organiser', async () => {
    const hawi = await organiser();
    for (let n = 0; n < 5; n++) expect((await ask(hawi, { password: PASSWORD, destination: { method: 'mpesa', phone: freshPhone() } })).status).toBe(202);
    const sixth = await ask(hawi, { password: PASSWORD, destination: { method: 'mpesa', phone: freshPhone() } });
    expect(sixth.status).toBe(429);
    expect(sixth.body.code).toBe('payout_codes_too_many');
  });
});

describe('bad input', () => {
  it.each([
    ['an unknown method', { method: 'bank', account: '123' }, undefined, /method must be mpesa, paybill or till/],
    ['a phone that is not Kenyan', { method: 'mpesa', phone: '+441234567890' }, undefined, /phone/],
    ['a Paybill without its account number', { method: 'paybill', shortcode: '247247' }, '254711000999', /accountReference is required/],
    ['a Till number of 3 digits', { method: 'till', shortcode: '123' }, '254711000999', /Till number has 5 to 7 digits/],
    ['a Till without a phone for the code', { method: 'till', shortcode: '512345' }, undefined, /codePhone is required/],
    ['no destination', undefined, undefined, /destination/],
  ])('answers 400 for %s and changes nothing', async (_name, destination, codePhone, message) => {
    const ivy = await organiser();
    const res = await ask(ivy, { password: PASSWORD, destination, ...(codePhone ? { codePhone } : {}) });
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(message);
    expect(await rowsOf(ivy)).toEqual([]);
  });

  it('answers 400 for a code that is not 6 digits', async () => {
    const jabali = await organiser();
    expect((await confirm(jabali, '12ab')).status).toBe(400);
  });
});

describe('who may', () => {
  it("keeps each organiser's destination to themselves", async () => {
    const [owner, other] = [await organiser(), await organiser()];
    const phone = await withMpesa(owner);
    expect((await account(other)).body).toEqual({ active: null, heldUntil: null, pending: null });
    // Another organiser's confirmation touches only their own (absent) request.
    await ask(owner, { password: PASSWORD, destination: { method: 'mpesa', phone: freshPhone() } });
    const ownersPending = (await rowsOf(owner)).find((row) => row.status === 'pending')!;
    expect((await confirm(other, '000000')).status).toBe(404);
    // Nor can they use the owner's password to change anything of the owner's: it is checked against their own account.
    expect((await ask(other, { password: PASSWORD, destination: { method: 'mpesa', phone } })).status).toBe(202);
    expect((await rowsOf(owner)).find((row) => row.status === 'pending')).toEqual(ownersPending);
    expect(await t.services.payoutAccounts.payoutDestination(owner.user._id, new Date())).toEqual({ destination: { method: 'mpesa', phone }, heldUntil: null });
  });

  it('refuses attendees (no event created) and visitors', async () => {
    const attendee = await t.createUser(`attendee${serial++}`, PASSWORD);
    for (const res of [await account(attendee), await ask(attendee, { password: PASSWORD, destination: { method: 'mpesa', phone: freshPhone() } }), await confirm(attendee, '123456')]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('payout_not_organiser');
    }
    expect((await t.api('GET', '/api/payout-account')).status).toBe(401);
  });
});
