import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../src/db/ids.js';
import { accountDeletions, events, payments, payoutAccounts, tickets, users } from '../src/db/schema.js';
import { insertEventRow } from './helpers/events.js';
import { auditBooks, payFor, providerView as providerBooks } from './helpers/refunds.js';
import { linkIn } from './helpers/smtp.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/*
 * "Delete my account" over HTTP (docs/decisions/data-rights.md, "Deleting an account"): asked for with the
 * password, confirmed by an emailed link, deactivated at once, undoable for the grace period, then erased from
 * every table the personal-data map names, after which no text column anywhere in the database holds the
 * person's name, email, phone or avatar, and the payments audit still finds nothing wrong.
 */

const DAY = 24 * 60 * 60 * 1000;
const PASSWORD = 'secret123';
const AKINYI_PHONE = '254711223344';
const AVATAR = 'PHN2ZyBha2lueWktYXZhdGFyLW1hcmtlcg';

let t: TestServer;
type Session = Awaited<ReturnType<TestServer['createUser']>>;
let akinyi: Session;
let otieno: Session;
let mwangi: Session;
let admin: Session;
let pastEvent: string;
let futureEvent: string;

/** The newest mail to `to` whose subject matches, with a link `route` other than those in `seen`. */
async function newLink(to: string, subject: RegExp, route: string, seen: string[] = []): Promise<string> {
  return vi.waitFor(
    () => {
      const links = t.smtp.inbox.filter((mail) => mail.to === to && subject.test(mail.subject)).map((mail) => linkIn(mail, route));
      const fresh = links.reverse().find((link) => !seen.includes(link));
      if (!fresh) throw new Error(`no new ${route} link to ${to}`);
      return fresh;
    },
    { timeout: 20_000, interval: 50 },
  );
}

const confirm = (token: string, as?: Session) => t.api('POST', '/api/account-deletion/confirm', { token: as?.token, body: { token } });
const undo = (token: string, as?: Session) => t.api('POST', '/api/account-deletion/undo', { token: as?.token, body: { token } });
const ask = (as: Session, body: Record<string, unknown>) => t.api('POST', '/api/me/account-deletion', { token: as.token, body });
const loginStatus = async (username: string) => (await t.api('POST', '/api/auth/login', { body: { username, password: PASSWORD } })).body as { status?: boolean; code?: string };

/** M-Pesa's books, captured before erasure: M-Pesa's side does not change. */
const providerView = () => providerBooks(t);
const audit = (body: unknown) => auditBooks(t, body);

/** Every text, varchar, json and jsonb column of every table in every schema (pg-boss's too) that holds `value`. */
async function everywhere(value: string): Promise<string[]> {
  const rows = async (text: string) => (await t.db.execute(sql.raw(text))) as unknown as { rows: Array<Record<string, string>> };
  const columns = (
    await rows(`
      select c.table_schema, c.table_name, c.column_name from information_schema.columns c
        join information_schema.tables tb on tb.table_schema = c.table_schema and tb.table_name = c.table_name
       where tb.table_type = 'BASE TABLE' and c.table_schema not in ('pg_catalog', 'information_schema')
         and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb')`)
  ).rows;
  const found: string[] = [];
  for (const column of columns) {
    const name = `"${column.table_schema}"."${column.table_name}"`;
    const hits = await rows(`select count(*)::int as n from ${name} where "${column.column_name}"::text ilike '%${value.replace(/'/g, "''")}%'`);
    if (Number(hits.rows[0]!.n) > 0) found.push(`${column.table_schema}.${column.table_name}.${column.column_name}`);
  }
  return found;
}

beforeAll(async () => {
  t = await startTestServer();
  akinyi = await t.createUser('AkinyiOdera7', PASSWORD);
  otieno = await t.createUser('OtienoKamau3', PASSWORD);
  mwangi = await t.createUser('MwangiNjoroge5', PASSWORD);
  admin = await t.loginAdmin();
  // Akinyi bought a ticket to Mwangi's festival, which has taken place since; and one to a concert still to come.
  pastEvent = await insertEventRow(t.db, { ownerId: mwangi.user._id, days: 10, price: 500, capacity: 50, title: 'Lamu Cultural Festival' });
  futureEvent = await insertEventRow(t.db, { ownerId: mwangi.user._id, days: 20, price: 300, capacity: 50, title: 'Kisumu Jazz Night' });
  await t.db.update(events).set({ refundPolicy: 'full' }).where(eq(events.id, futureEvent));
  await payFor(t, akinyi.token, pastEvent, { phone: AKINYI_PHONE });
  await payFor(t, akinyi.token, futureEvent, { phone: AKINYI_PHONE });
  await t.db.update(events).set({ startsAt: new Date(Date.now() - 2 * DAY) }).where(eq(events.id, pastEvent));
  // A forum thread and post, a conversation both ways, an avatar and a data export.
  const thread = await t.api('POST', '/api/forums/add-thread', { token: akinyi.token, body: { title: 'Dhow rides after the festival', eventId: pastEvent, userId: akinyi.user._id } });
  expect(thread.status).toBeLessThan(300);
  const post = await t.api('POST', '/api/forums/add-post', { token: akinyi.token, body: { content: 'The sunset dhow was the best part', threadId: thread.body.thread._id, parentId: null, userId: akinyi.user._id } });
  expect(post.status).toBeLessThan(300);
  expect((await t.api('POST', '/api/messages/addmsg', { token: akinyi.token, body: { from: akinyi.user._id, to: otieno.user._id, message: 'See you at the jazz night' } })).status).toBeLessThan(300);
  expect((await t.api('POST', '/api/messages/addmsg', { token: otieno.token, body: { from: otieno.user._id, to: akinyi.user._id, message: 'Sure, by the gate' } })).status).toBeLessThan(300);
  await t.db.update(users).set({ avatarImage: AVATAR, isAvatarImageSet: true }).where(eq(users.id, akinyi.user._id));
  expect((await t.api('POST', '/api/me/data-export', { token: akinyi.token })).status).toBe(202);
}, 180_000);

afterAll(async () => {
  await t?.close();
});

describe('Delete my account: what must be settled first', () => {
  it('refuses a wrong password, and an admin account', async () => {
    const wrong = await ask(akinyi, { password: 'not-my-password' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ code: 'account_deletion_password_wrong' });
    const adminAsks = await ask(admin, { password: 'admin-password' });
    expect(adminAsks.status).toBe(409);
    expect(adminAsks.body).toMatchObject({ code: 'account_deletion_admin_account' });
  });

  it('lists tickets to events still to come, with what cancelling each gives back, until they are cancelled or forfeited', async () => {
    const refused = await ask(akinyi, { password: PASSWORD });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'account_deletion_future_tickets',
      tickets: [{ eventId: futureEvent, title: 'Kisumu Jazz Night', pricePaid: 300, cancellable: true, refund: 300 }],
    });
    expect(refused.body.tickets).toHaveLength(1);
  });

  it('tells an organiser which events still to come and which balances to settle first', async () => {
    const refused = await ask(mwangi, { password: PASSWORD });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'account_deletion_organiser_unsettled', futureEvents: [{ eventId: futureEvent, title: 'Kisumu Jazz Night' }] });
    // The festival's sales are still owed to Mwangi (payouts come after the event).
    expect(refused.body.moneyOwed).toEqual(expect.arrayContaining([expect.objectContaining({ eventId: pastEvent, title: 'Lamu Cultural Festival' })]));
  });
});

describe('Delete my account: confirm, undo, erase', () => {
  it('confirms by the emailed link, deactivates at once, restores by the undo link, and erases after the grace period', async () => {
    const status = async (session: typeof akinyi) => (await t.api('GET', '/api/me/account-deletion', { token: session.token })).body;
    expect(await status(akinyi)).toEqual({ state: 'none' });
    const asked = await ask(akinyi, { password: PASSWORD, forfeitTickets: true });
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ state: 'requested', email: akinyi.user.email });
    // After a reload /profile still shows the request awaiting its link (the link's 24 hours), to its owner only.
    const waiting = await status(akinyi);
    expect(waiting).toMatchObject({ state: 'requested', email: akinyi.user.email });
    expect(Math.abs(new Date(waiting.expiresAt as string).getTime() - (Date.now() + DAY))).toBeLessThan(60_000);
    expect(await status(otieno)).toEqual({ state: 'none' });
    expect((await t.api('GET', '/api/me/account-deletion')).status).toBe(401);
    const first = await newLink(akinyi.user.email, /Confirm you want to delete/, 'delete-account');

    // Another account holding the link is refused (and the link stays usable); a made-up link is gone.
    expect((await confirm(first, otieno)).body).toMatchObject({ code: 'account_deletion_other_account' });
    expect((await confirm(first, otieno)).status).toBe(404);
    expect((await confirm('A'.repeat(43))).status).toBe(410);

    // Followed signed out: scheduled 14 days out, every session ends, no login.
    const confirmed = await confirm(first);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.state).toBe('scheduled');
    expect(Math.abs(new Date(confirmed.body.eraseAt as string).getTime() - (Date.now() + 14 * DAY))).toBeLessThan(60_000);
    expect((await confirm(first)).status).toBe(410);
    expect((await t.api('GET', '/api/me/data-export', { token: akinyi.token })).status).toBe(401);
    expect(await loginStatus(akinyi.user.username)).toMatchObject({ code: 'account_deactivated' });

    // The undo link restores it (another account cannot use it).
    const undoLink = await newLink(akinyi.user.email, /will be deleted on/, 'delete-account/undo');
    expect((await undo(undoLink, otieno)).status).toBe(404);
    expect((await undo(undoLink)).body).toEqual({ state: 'cancelled' });
    expect((await undo(undoLink)).status).toBe(410);
    akinyi = await t.login(akinyi.user.username, PASSWORD);
    expect((await t.services.accountDeletions.sweep(new Date(Date.now() + 30 * DAY))) as number).toBe(0);

    // Asked and confirmed again; the erasure waits for the end of the grace period.
    expect((await ask(akinyi, { password: PASSWORD, forfeitTickets: true })).status).toBe(202);
    const second = await newLink(akinyi.user.email, /Confirm you want to delete/, 'delete-account', [first]);
    expect((await confirm(second)).status).toBe(200);
    const secondUndo = await newLink(akinyi.user.email, /will be deleted on/, 'delete-account/undo', [undoLink]);
    const books = await providerView();
    expect(await t.services.accountDeletions.sweep(new Date(Date.now() + 13 * DAY))).toBe(0);
    expect(await t.services.accountDeletions.sweep(new Date(Date.now() + 15 * DAY))).toBe(1);

    // Gone: no login, no undo, the ticket to the concert still to come void without refund.
    expect(await loginStatus(akinyi.user.username)).toMatchObject({ code: 'bad_login' });
    expect(await loginStatus(akinyi.user.email)).toMatchObject({ code: 'bad_login' });
    expect((await undo(secondUndo)).status).toBe(410);
    const held = await t.db.select().from(tickets).where(eq(tickets.userId, akinyi.user._id));
    expect(held.find((ticket) => ticket.eventId === futureEvent)).toMatchObject({ voidReason: 'self_cancel' });
    expect(held.find((ticket) => ticket.eventId === pastEvent)).toMatchObject({ voidedAt: null });
    const [row] = await t.db.select().from(users).where(eq(users.id, akinyi.user._id));
    expect(row).toMatchObject({ username: `deleted-${akinyi.user._id}`, email: `deleted-${akinyi.user._id}@invalid`, avatarImage: null, passwordHash: '' });
    const [record] = await t.db.select().from(accountDeletions).where(and(eq(accountDeletions.userId, akinyi.user._id), eq(accountDeletions.status, 'erased')));
    expect(record).toMatchObject({ undoTokenHash: null, erasedAt: expect.any(Date) });

    // Nothing personal left anywhere: every text column of every table (the search does find a living account).
    expect(await everywhere(otieno.user.email)).toEqual(expect.arrayContaining(['public.users.email', 'public.mail_outbox.recipient']));
    for (const value of [akinyi.user.username, akinyi.user.email, AKINYI_PHONE, AKINYI_PHONE.replace(/^254/, '0'), AVATAR]) {
      expect(await everywhere(value), `${value} is still in`).toEqual([]);
    }
    // Her payments and orders keep their place and amounts; the books still balance with M-Pesa's.
    const kept = await t.db.select().from(payments).where(eq(payments.userId, akinyi.user._id));
    expect(kept.map((payment) => payment.amount).sort()).toEqual([300, 500]);
    const found = await audit(books);
    expect(found.body).toMatchObject({ discrepancies: [] });
    // The forum post and the conversation keep their place, under "Deleted user" (the client renders the placeholder).
    const conversation = await t.api('POST', '/api/messages/getmsg', { token: otieno.token, body: { from: otieno.user._id, to: akinyi.user._id } });
    expect(JSON.stringify(conversation.body)).toContain('See you at the jazz night');
  });

  it('an admin deletes on a written request with a logged reason, and can undo it', async () => {
    const wanjiru = await t.createUser('WanjiruMuthoni2', PASSWORD);
    const path = `/api/admin/users/${wanjiru.user._id}/deletion`;
    // Found by username prefix or exact email (no avatar needed, unlike the chat search); admins only.
    const find = (q: string, as = admin) => t.api('GET', `/api/admin/account-deletions/accounts?q=${encodeURIComponent(q)}`, { token: as.token });
    expect((await find('wanjirumuth')).body.users).toEqual([{ _id: wanjiru.user._id, username: 'WanjiruMuthoni2', email: wanjiru.user.email }]);
    expect((await find(wanjiru.user.email.toUpperCase())).body.users.map((user: { _id: string }) => user._id)).toEqual([wanjiru.user._id]);
    expect((await find('wanjirumuth', otieno)).status).toBe(403);
    expect((await t.api('POST', path, { token: otieno.token, body: { reason: 'Asked by letter dated 1 March' } })).status).toBe(403);
    expect((await t.api('POST', path, { token: admin.token, body: { reason: 'short' } })).status).toBe(400);
    const scheduled = await t.api('POST', path, { token: admin.token, body: { reason: 'Asked by letter dated 1 March, ref DP-17' } });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.state).toBe('scheduled');
    expect((await t.api('POST', path, { token: admin.token, body: { reason: 'Asked by letter dated 1 March, ref DP-17' } })).body).toMatchObject({ code: 'account_deletion_already_scheduled' });
    expect(await loginStatus(wanjiru.user.username)).toMatchObject({ code: 'account_deactivated' });
    await newLink(wanjiru.user.email, /will be deleted on/, 'delete-account/undo');
    const log = await t.api('GET', '/api/admin/account-deletions', { token: admin.token });
    expect(log.body.deletions[0]).toMatchObject({ userId: wanjiru.user._id, username: wanjiru.user.username, status: 'scheduled', requestedBy: admin.user._id, reason: 'Asked by letter dated 1 March, ref DP-17' });

    expect((await t.api('DELETE', path, { token: otieno.token })).status).toBe(403);
    expect((await t.api('DELETE', path, { token: admin.token })).body).toEqual({ state: 'cancelled' });
    expect((await t.api('DELETE', path, { token: admin.token })).status).toBe(404);
    expect(await loginStatus(wanjiru.user.username)).toMatchObject({ status: true });
    expect((await t.api('GET', '/api/admin/account-deletions', { token: admin.token })).body.deletions[0]).toMatchObject({ status: 'cancelled', cancelledBy: admin.user._id });
  });

  it('anonymises a confirmed payout destination, which nothing else may change (the trigger allows it only inside an erasure)', async () => {
    const kamau = await t.createUser('KamauPayee8', PASSWORD);
    const phone = '254722998877';
    const id = newId();
    await t.db.insert(payoutAccounts).values({ id, userId: kamau.user._id, method: 'mpesa', phone, codePhone: phone, codeHash: 'h', codeExpiresAt: new Date(), status: 'confirmed', confirmedAt: new Date() });
    await expect(t.db.update(payoutAccounts).set({ phone: '254700000000' }).where(eq(payoutAccounts.id, id))).rejects.toThrow();
    expect((await t.api('POST', `/api/admin/users/${kamau.user._id}/deletion`, { token: admin.token, body: { reason: 'Asked by email from the registered address, ref DP-18' } })).status).toBe(200);
    expect(await t.services.accountDeletions.sweep(new Date(Date.now() + 15 * DAY))).toBe(1);
    const [row] = await t.db.select().from(payoutAccounts).where(eq(payoutAccounts.id, id));
    expect(row).toMatchObject({ method: 'mpesa', status: 'confirmed', phone: `deleted-${id}`, codePhone: `deleted-${id}`, codeHash: '' });
    expect(await everywhere(phone)).toEqual([]);
    expect(await everywhere(kamau.user.email)).toEqual([]);
  });
});
