import { readFileSync } from 'node:fs';
import { ERROR_CODES, VALIDATION_KINDS } from '@tukio/shared/error-codes';
import { languageFromAcceptLanguage } from '@tukio/shared/languages';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../src/db/schema.js';
import { reminderText } from '../src/modules/checkout/index.js';
import { buildCancellationMail } from '../src/modules/checkout/cancellation-mail.js';
import { buildSelfCancelMail } from '../src/modules/checkout/self-cancel-mail.js';
import { buildTicketMail } from '../src/modules/tickets/ticket-mail.js';
import { buildWaitlistOfferMail, waitlistOfferText } from '../src/modules/waitlist/waitlist-mail.js';
import { insertEventRow } from './helpers/events.js';
import { internalHeaders, payFor } from './helpers/refunds.js';
import { linkIn } from './helpers/smtp.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * English and Kiswahili (docs/decisions/languages.md): every failure carries a stable `code` beside its
 * unchanged English `msg`; the account keeps a language; mail and SMS go out in the recipient's language,
 * English exactly as before.
 */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ SMS_POLL_MS: '100', SMS_REMINDER_SWEEP_MS: '0' });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const setLanguage = (who: { token: string; user: { _id: string } }, language: unknown) =>
  t.api('PUT', `/api/auth/user/${who.user._id}/language`, { token: who.token, body: { language } });

describe('error codes', () => {
  it('an error answer carries its code, and params for its variable parts, beside the unchanged msg', async () => {
    const missing = await t.api('GET', '/api/events/aaaaaaaaaaaaaaaaaaaaaaaa');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ msg: 'Event not found.', message: 'Event not found.', code: 'event_not_found' });

    const organiser = await t.createUser('codeorganiser');
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 5, price: 500, capacity: 10 });
    const refused = await t.api('POST', '/api/internal/payments/orders', {
      token: organiser.token,
      headers: internalHeaders(t),
      body: { eventId, quantity: 1, phone: '254712345678', promoCode: 'NOPE24' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      msg: 'The promo code NOPE24 is not valid for this event.',
      code: 'promo_code_invalid',
      params: { code: 'NOPE24' },
      field: 'promoCode',
    });
  });

  it('a validation error names the field and the kind of problem with its limit', async () => {
    const user = await t.createUser('validationuser');
    const tooLong = await t.api('PUT', `/api/auth/user/${user.user._id}`, { token: user.token, body: { username: 'x'.repeat(31) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({
      msg: 'Username must be at most 30 characters.',
      code: 'validation_failed',
      field: 'username',
      params: { field: 'username', kind: 'too_long', max: 30 },
    });
    // Account calls answer failures as 200 {status:false, msg}: the code is there too.
    const register = await t.api('POST', '/api/auth/register', { body: { username: 'valid-name', password: 'secret123' } });
    expect(register.body).toMatchObject({ status: false, msg: 'Email is required.', code: 'validation_failed', field: 'email', params: { kind: 'required' } });
  });

  it('names every code and validation kind in both client catalogs', () => {
    const catalog = (language: string, area: string) =>
      JSON.parse(readFileSync(new URL(`../../client/src/locales/${language}/${area}.json`, import.meta.url), 'utf8')) as Record<string, string>;
    const developerOnly = new Set(['simulator_refused', 'callback_refused']);
    for (const language of ['en', 'sw']) {
      const errors = catalog(language, 'errors');
      expect(ERROR_CODES.filter((code) => !developerOnly.has(code) && !errors[`errors.${code}`]), language).toEqual([]);
      const validation = catalog(language, 'validation');
      expect(VALIDATION_KINDS.filter((kind) => !validation[`validation.${kind}`]), language).toEqual([]);
    }
    expect(catalog('en', 'errors')['errors.event_not_found']).toBe('Event not found.');
  });
});

describe("the account's language", () => {
  it('refuses a language it does not speak with a 400 naming the field', async () => {
    const user = await t.createUser('badlanguage');
    const refused = await setLanguage(user, 'fr');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'validation_failed', field: 'language', params: { field: 'language', kind: 'not_one_of' } });
    expect((await setLanguage(user, undefined)).body).toMatchObject({ field: 'language' });
    expect((await t.api('GET', `/api/auth/user/${user.user._id}`, { token: user.token })).body.user.language).toBe('en');
  });

  it('registers in Kiswahili: the verification email is in Kiswahili and the profile says sw', async () => {
    const registered = await t.api('POST', '/api/auth/register', { body: { username: 'Wanjiku', email: 'wanjiku@example.com', password: 'secret123', language: 'sw' } });
    expect(registered.body).toEqual({ status: true, msg: 'Registration successful. Please check your email to verify your account.' });
    const mail = await t.smtp.waitFor('wanjiku@example.com', /Thibitisha barua pepe yako ya Tukio/);
    expect(mail.text).toMatch(/^Habari Wanjiku,\n\nKaribu Tukio! Thibitisha anwani yako ya barua pepe/);
    await t.api('GET', `/api/auth/verify-email/${linkIn(mail, 'verify')}`);
    const login = await t.login('Wanjiku', 'secret123');
    expect(login.user).toMatchObject({ language: 'sw' });
  });

  it("changing the language changes the next mail's; English mail is exactly as before", async () => {
    const user = await t.createUser('Otieno');
    const verification = await t.smtp.waitFor('otieno@example.com', /Verify your Tukio email/);
    const verifyUrl = `${t.config.publicUrl}/verify/${linkIn(verification, 'verify')}`;
    expect(verification.text).toBe(
      `Hello Otieno,\n\nWelcome to Tukio! Confirm your email address by opening this link:\n\n${verifyUrl}\n\nThe link is valid for 48 hours. If you did not sign up, ignore this email.\n`,
    );
    const forgot = () => t.api('POST', '/api/auth/forgot-password', { body: { email: 'otieno@example.com' } });

    const changed = await setLanguage(user, 'sw');
    expect(changed.status).toBe(200);
    expect(changed.body.user).toMatchObject({ _id: user.user._id, language: 'sw' });
    await forgot();
    const kiswahili = await t.smtp.waitFor('otieno@example.com', /Badilisha nenosiri lako la Tukio/);
    expect(kiswahili.text).toMatch(/^Habari Otieno,\n\nMtu ameomba kubadilisha nenosiri lako la Tukio/);

    await setLanguage(user, 'en');
    t.smtp.inbox.length = 0;
    await forgot();
    const english = await t.smtp.waitFor('otieno@example.com', /Reset your Tukio password/);
    const url = `${t.config.publicUrl}/reset-password/${linkIn(english, 'reset-password')}`;
    expect(english.text).toBe(
      `Hello Otieno,\n\nSomeone asked to reset your Tukio password. If it was you, open this link within one hour:\n\n${url}\n\nThe link works once. If you did not ask, ignore this email; your password stays as it is.\n`,
    );
  });
});

describe('mail and SMS in the recipient language', () => {
  const event = { id: 'e'.repeat(24), title: 'Sauti za Busara', startsAt: new Date('2026-12-05T18:30:00Z'), location: 'Uhuru Gardens, Nairobi' };
  const publicUrl = 'https://tukio.example';

  it('writes the ticket mail in English exactly as before, and in Kiswahili with Kiswahili dates', async () => {
    const input = { to: 'a@example.com', username: 'Amani', event, tickets: [{ id: 't1', code: 'CODE-1' }, { id: 't2', code: 'CODE-2' }], payment: { amount: 1500, receipt: 'QK12' }, publicUrl };
    const english = await buildTicketMail({ ...input, language: 'en' });
    expect(english.subject).toBe('Your Tukio tickets: Sauti za Busara');
    expect(english.text).toBe(
      'Hello Amani,\n\nYou have 2 tickets for "Sauti za Busara".\nPaid: Ksh.1,500 by M-Pesa, receipt QK12.\n' +
        `When: 2026-12-05 18:30 (Nairobi time)\nWhere: Uhuru Gardens, Nairobi\nEvent page: ${publicUrl}/events/${event.id}\n\n` +
        'Show the QR code at the door (My Tickets on your profile shows it too). Ticket codes:\nTicket 1: CODE-1\nTicket 2: CODE-2\n\n' +
        'The calendar file attached adds the event to your calendar.\n',
    );
    expect(english.html).toBe(
      '<p>Hello Amani,</p><p>You have 2 tickets for <strong>Sauti za Busara</strong>.</p><p>Paid: Ksh.1,500 by M-Pesa, receipt QK12.</p>' +
        `<p>When: 2026-12-05 18:30 (Nairobi time)<br>Where: Uhuru Gardens, Nairobi<br><a href="${publicUrl}/events/${event.id}">Event page</a></p>` +
        '<p>Ticket 1<br><code>CODE-1</code></p><p>Ticket 2<br><code>CODE-2</code></p>',
    );
    const guest = await buildTicketMail({ ...input, username: null, tickets: [input.tickets[0]!], payment: undefined, ticketsUrl: `${publicUrl}/t/x`, language: 'en' });
    expect(guest.subject).toBe('Your Tukio ticket: Sauti za Busara');
    expect(guest.text).toContain('Hello,\n\nYou have 1 ticket for "Sauti za Busara".\nWhen:');
    expect(guest.text).toContain(`(your ticket page shows it too: ${publicUrl}/t/x). Ticket codes:\nTicket 1: CODE-1\n`);

    const kiswahili = await buildTicketMail({ ...input, language: 'sw' });
    expect(kiswahili.subject).toBe('Tiketi zako za Tukio: Sauti za Busara');
    expect(kiswahili.text).toContain('Habari Amani,\n\nUna tiketi 2 za "Sauti za Busara".\nUmelipa: Ksh.1,500 kwa M-Pesa, risiti QK12.');
    expect(kiswahili.text).toContain('Lini: Jumamosi, 5 Desemba 2026 saa 18:30 (saa za Nairobi)');
    expect(kiswahili.text).not.toMatch(/\b(Hello|When|Where|Ticket codes)\b/);
  });

  it('writes cancellation, self-cancel and waitlist mail and SMS in English exactly as before, and in Kiswahili', () => {
    const refunds = [{ amount: 1500, phone: '254712345678' }, { amount: 500, phone: '254700000001' }];
    const cancel = (language: 'en' | 'sw') => buildCancellationMail({ to: 'a@example.com', username: 'Amani', language, event, reason: 'Rain', tickets: 2, refunds, publicUrl });
    expect(cancel('en').text).toBe(
      'Hello Amani,\n\n"Sauti za Busara" (2026-12-05 18:30 Nairobi time, Uhuru Gardens, Nairobi) has been cancelled.\nReason given: Rain\n\n' +
        'Your 2 tickets are no longer valid.\nYour refund of Ksh.2,000 is on its way back to M-Pesa 254712345678 and 254700000001: you need to do nothing, and we will keep trying until it arrives.\n\n' +
        `Event page: ${publicUrl}/events/${event.id}\n`,
    );
    expect(cancel('en').subject).toBe('Cancelled: Sauti za Busara');
    expect(cancel('sw').text).toContain('Tiketi zako 2 hazitumiki tena.\nPesa zako Ksh.2,000 zinarudishwa kwa M-Pesa 254712345678 na 254700000001');

    const selfCancel = (language: 'en' | 'sw', tickets: number) =>
      buildSelfCancelMail({ to: 'a@example.com', username: 'Amani', language, event, tickets, refunds: tickets > 1 ? [] : [refunds[0]!], publicUrl });
    expect(selfCancel('en', 1).text).toBe(
      'Hello Amani,\n\nYou cancelled a ticket for "Sauti za Busara" (2026-12-05 18:30 Nairobi time, Uhuru Gardens, Nairobi): it no longer admits anyone, and the seat is free for someone else.\n' +
        'Your refund of Ksh.1,500 is on its way back to M-Pesa 254712345678: you need to do nothing. Transaction History on your profile shows when it arrives.\n\n' +
        `Event page: ${publicUrl}/events/${event.id}\n`,
    );
    expect(selfCancel('en', 3).text).toContain('You cancelled 3 tickets for "Sauti za Busara" (2026-12-05 18:30 Nairobi time, Uhuru Gardens, Nairobi): they no longer admit anyone, and the seats are free for someone else.\nNothing is refunded for these tickets.\n');
    expect(selfCancel('sw', 3).subject).toBe('Tiketi zimeghairiwa: Sauti za Busara');

    const expiresAt = new Date('2026-12-01T09:05:00Z');
    const offer = (language: 'en' | 'sw') => buildWaitlistOfferMail({ to: 'a@example.com', username: 'Amani', language, event: { ...event, isPaid: true }, seats: 2, expiresAt, publicUrl });
    expect(offer('en').text).toBe(
      'Hello Amani,\n\n2 seats are free for "Sauti za Busara" (2026-12-05 18:30 Nairobi time, Uhuru Gardens, Nairobi), and you are next on the waitlist.\n' +
        'We hold them for you until Tue, 1 Dec, 12:05 (Nairobi time): pay with M-Pesa on the event page before then. After that the offer passes to the next person.\n\n' +
        `Event page: ${publicUrl}/events/${event.id}\n`,
    );
    expect(offer('en').html).toContain(`<a href="${publicUrl}/events/${event.id}">Get your tickets</a>`);
    expect(offer('sw').text).toContain('hadi Jumanne, 1 Des, 12:05 (saa za Nairobi): lipa kwa M-Pesa kwenye ukurasa wa tukio');
    expect(offer('sw').html).toContain('>Nunua tiketi</a>');

    const sms = { title: 'Sauti za Busara', seats: 1, expiresAt, url: `${publicUrl}/events/${event.id}` };
    expect(waitlistOfferText({ ...sms, language: 'en' })).toBe(`Tukio: A seat for Sauti za Busara is held for you until Tue, 1 Dec, 12:05. Get it: ${sms.url}`);
    expect(waitlistOfferText({ ...sms, language: 'sw' })).toBe(`Tukio: Nafasi moja ya Sauti za Busara imeshikiliwa kwa ajili yako hadi Jumanne, 1 Des, 12:05. Ichukue: ${sms.url}`);
    expect(reminderText(event, publicUrl, 'en')).toBe(`Tukio reminder: Sauti za Busara is on Sat 5 Dec, 18:30 at Uhuru Gardens, Nairobi. Your ticket: ${publicUrl}/profile`);
    expect(reminderText(event, publicUrl, 'sw')).toMatch(/^Kumbusho la Tukio: Sauti za Busara ni Jumamosi/);
  });

  it('sends a Kiswahili guest (Accept-Language, passed on by the payment service) their SMS and email in Kiswahili', async () => {
    expect(languageFromAcceptLanguage('sw-KE,sw;q=0.9,en;q=0.8')).toBe('sw');
    expect(languageFromAcceptLanguage('en-GB,sw;q=0.5')).toBe('en');
    expect(languageFromAcceptLanguage('fr-FR,sw;q=0.5')).toBe('sw');
    expect(languageFromAcceptLanguage(undefined)).toBe('en');

    const organiser = await t.createUser('guestlanguage');
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 10, price: 700, capacity: 20, title: 'Koroga Festival' });
    const phone = '254733123456';
    const order = await t.api('POST', '/api/internal/payments/guest-orders', {
      headers: internalHeaders(t),
      body: { eventId, quantity: 1, phone, guestEmail: 'mgeni@example.com', language: 'sw' },
    });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect((await t.db.select({ language: users.language }).from(users).where(eq(users.guestPhone, phone)))[0]?.language).toBe('sw');
    // The purchase itself, as payFor makes it (a new order for the same phone, which keeps its language).
    await payFor(t, undefined, eventId, { phone, guestEmail: 'mgeni@example.com' });

    const gateway = t.config.sms.gateway;
    if (gateway.kind !== 'simulator') throw new Error('this test runs on the SMS simulator');
    let messages: Array<{ message: string }> = [];
    await vi.waitFor(
      async () => {
        messages = (await t.api('GET', `/simulator/sms/messages?phone=${phone}`, { headers: { 'x-simulator-key': gateway.key } })).body;
        expect(messages).toHaveLength(1);
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(messages[0]!.message).toMatch(/^Tiketi yako ya Tukio kwa Koroga Festival: http\S+\/t\/\S+ Onyesha msimbo wa QR mlangoni\.$/);
    const mail = await t.smtp.waitFor('mgeni@example.com', /Tiketi yako ya Tukio: Koroga Festival/);
    expect(mail.text).toMatch(/^Habari,\n\nUna tiketi 1 ya "Koroga Festival"\./);
  });
});
