import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, smsMessages } from '../src/db/schema.js';
import { createMailOutboxRepository } from '../src/modules/mail/mail-outbox.repository.js';
import { createSmsRepository } from '../src/modules/sms/sms.repository.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * A mail or an SMS is due the moment it is queued, for a look whose clock reads that same millisecond.
 * Senders compare the due time with the app's clock (a Date: whole milliseconds); a due time taken from
 * the database's now() carried microseconds, so a look right after the insert found the row not yet due,
 * and with polling off (or until the next period) it waited: in a test run, a password-reset mail was
 * never sent. Each claim here reads the clock at the row's own due time, truncated as a Date truncates it.
 */

let t: TestServer;
const LONG_AGO = new Date(0);

beforeAll(async () => {
  // No sender of the server's own claims these rows first.
  t = await startTestServer({ MAIL_POLL_MS: '0', SMS_POLL_MS: '0', SMS_REMINDER_SWEEP_MS: '0' });
});
afterAll(async () => {
  await t?.close();
});

describe('outbox due times', () => {
  it('a queued mail is claimed by a look in the millisecond it was queued', async () => {
    const repo = createMailOutboxRepository(t.db);
    const [id] = await repo.enqueue([{ purpose: 'due-time test', recipient: 'nafula@example.com', kind: 'mail', body: { to: 'nafula@example.com', subject: 'Karibu', text: 'Hello' } }]);
    const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, id!));
    const claimed = await t.db.transaction((tx) => createMailOutboxRepository(tx).claim(20, new Date(row!.nextAttemptAt.getTime()), LONG_AGO));
    expect(claimed.map((mail) => mail.id)).toEqual([id]);
    expect(claimed[0]).toMatchObject({ status: 'sending', attempts: 1 });
  });

  it('a queued SMS is claimed by a look in the millisecond it was queued', async () => {
    const repo = createSmsRepository(t.db);
    expect(await repo.enqueue([{ purpose: 'due-time test', dedupeKey: null, phone: '254722000777', message: 'Karibu Tukio' }])).toBe(1);
    const [row] = await t.db.select().from(smsMessages).where(eq(smsMessages.phone, '254722000777'));
    const claimed = await t.db.transaction((tx) => createSmsRepository(tx).claim(20, new Date(row!.nextAttemptAt.getTime()), LONG_AGO));
    expect(claimed.map((sms) => sms.id)).toEqual([row!.id]);
    expect(claimed[0]).toMatchObject({ status: 'sending', attempts: 1 });
  });
});
