import { unzipSync, strFromU8 } from 'fflate';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataExports, users } from '../src/db/schema.js';
import { giveTicket, insertEvent } from './helpers/community.js';
import { linkIn } from './helpers/smtp.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/*
 * "Download my data" over HTTP (docs/decisions/data-rights.md): the request queues a job, the job mails a
 * single-use link, the link answers a ZIP of the user's own rows as JSON and CSV, and nothing of anyone else's.
 */

let t: TestServer;
type Session = Awaited<ReturnType<TestServer['createUser']>>;
let wanjiku: Session;
let otieno: Session;
const OTIENO_PHONE = '0722000111';

beforeAll(async () => {
  t = await startTestServer();
  wanjiku = await t.createUser('wanjiku');
  otieno = await t.createUser('otieno');
  // A ticket to an event that took place, a forum thread and post there, and a conversation both ways.
  const eventId = await insertEvent(t, { daysFromNow: -2, title: 'Nyali Beach Clean-up' });
  await giveTicket(t, eventId, wanjiku.user._id);
  const thread = await t.api('POST', '/api/forums/add-thread', { token: wanjiku.token, body: { title: 'Turtle nests we marked', eventId, userId: wanjiku.user._id } });
  expect(thread.status).toBeLessThan(300);
  const post = await t.api('POST', '/api/forums/add-post', {
    token: wanjiku.token,
    body: { content: 'Wanjiku wrote this forum post', threadId: thread.body.thread._id, parentId: null, userId: wanjiku.user._id },
  });
  expect(post.status).toBeLessThan(300);
  const mine = await t.api('POST', '/api/messages/addmsg', { token: wanjiku.token, body: { from: wanjiku.user._id, to: otieno.user._id, message: 'Wanjiku says habari' } });
  expect(mine.status).toBeLessThan(300);
  const theirs = await t.api('POST', '/api/messages/addmsg', { token: otieno.token, body: { from: otieno.user._id, to: wanjiku.user._id, message: `Otieno here, call me on ${OTIENO_PHONE}` } });
  expect(theirs.status).toBeLessThan(300);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function requestAndReceive(session: Session) {
  const requested = await t.api('POST', '/api/me/data-export', { token: session.token });
  expect(requested.status).toBe(202);
  expect(requested.body).toMatchObject({ state: 'requested', nextRequestAt: expect.any(String) });
  const mail = await t.smtp.waitFor(session.user.email, /Tukio data is ready/, 20_000);
  return { requested, mail, token: linkIn(mail, 'my-data') };
}

/** The download the /my-data/<token> page makes: signed in as `session`. */
const download = (token: string, session: Session) => fetch(`${t.url}/api/me/data-export/${token}`, { headers: { authorization: `Bearer ${session.token}` } });

function unzip(bytes: ArrayBuffer) {
  const files = unzipSync(new Uint8Array(bytes));
  return Object.fromEntries(Object.entries(files).map(([name, content]) => [name, strFromU8(content)]));
}

const rowsOf = (files: Record<string, string>, table: string) => (JSON.parse(files[`json/${table}.json`]!) as { rows: Array<Record<string, unknown>> }).rows;

describe('Download my data', () => {
  it('queues a job that mails a single-use link to a ZIP of the user’s own rows, as JSON and CSV', async () => {
    const { token } = await requestAndReceive(wanjiku);
    const status = await t.api('GET', '/api/me/data-export', { token: wanjiku.token });
    expect(status.body).toMatchObject({ state: 'ready', expiresAt: expect.any(String) });

    // Another account holding the link is refused, and the link stays usable by its owner.
    const stranger = await download(token, otieno);
    expect(stranger.status).toBe(404);
    expect(await stranger.json()).toMatchObject({ code: 'data_export_other_account' });
    expect((await fetch(`${t.url}/api/me/data-export/${token}`)).status).toBe(401);

    const res = await download(token, wanjiku);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="tukio-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    const files = unzip(await res.arrayBuffer());

    expect(Object.keys(files)).toEqual(expect.arrayContaining(['README.txt', 'json/users.json', 'csv/users.csv', 'json/tickets.json', 'csv/forum_posts.csv']));
    expect(rowsOf(files, 'users')).toEqual([expect.objectContaining({ id: wanjiku.user._id, username: 'wanjiku', email: wanjiku.user.email, language: 'en' })]);
    expect(rowsOf(files, 'tickets')).toHaveLength(1);
    expect(rowsOf(files, 'forum_threads')).toEqual([expect.objectContaining({ title: 'Turtle nests we marked' })]);
    expect(rowsOf(files, 'forum_posts')).toEqual([expect.objectContaining({ content: 'Wanjiku wrote this forum post' })]);
    // Her own message, with the conversation (the other side's id) but not what the other side wrote.
    expect(rowsOf(files, 'chat_messages')).toEqual([expect.objectContaining({ text: 'Wanjiku says habari', recipient_id: otieno.user._id })]);
    expect(files['csv/forum_posts.csv']).toContain('"Wanjiku wrote this forum post"');

    const everything = Object.values(files).join('\n');
    const [hashes] = await t.db.select({ password: users.passwordHash }).from(users).where(eq(users.id, wanjiku.user._id));
    const [exported] = await t.db.select({ tokenHash: dataExports.tokenHash }).from(dataExports).where(eq(dataExports.userId, wanjiku.user._id));
    expect(everything).not.toContain(hashes!.password);
    expect(everything).not.toContain(exported!.tokenHash!);
    expect(everything).not.toMatch(/password_hash|token_hash/);
    expect(everything).not.toContain(otieno.user.email);
    expect(everything).not.toContain(OTIENO_PHONE);
  });

  it('refuses a second request the same day with 429 and when the next is possible', async () => {
    const again = await t.api('POST', '/api/me/data-export', { token: wanjiku.token });
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({ code: 'data_export_too_soon', nextRequestAt: expect.any(String) });
    expect(again.body.msg).toMatch(/once a day/);
    expect(new Date(again.body.nextRequestAt as string).getTime()).toBeGreaterThan(Date.now() + 23 * 60 * 60 * 1000);
  });

  it('answers 410 to a used link, a made-up one, and one that expired (whose ZIP the sweep removed)', async () => {
    const { token } = await requestAndReceive(otieno);
    const first = await download(token, otieno);
    expect(first.status).toBe(200);
    const otienoFiles = unzip(await first.arrayBuffer());
    expect(Object.values(otienoFiles).join('\n')).not.toContain(wanjiku.user.email);

    const reused = await download(token, otieno);
    expect(reused.status).toBe(410);
    expect(await reused.json()).toMatchObject({ code: 'data_export_link_gone' });
    expect((await download('A'.repeat(43), otieno)).status).toBe(410);

    // An export nobody downloaded in 24 hours: the sweep takes its ZIP and the link answers 410.
    const kamau = await t.createUser('kamau');
    const { token: late } = await requestAndReceive(kamau);
    await t.db.update(dataExports).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(dataExports.userId, kamau.user._id));
    expect(await t.services.dataExports.sweep()).toBe(1);
    const [row] = await t.db.select({ status: dataExports.status, archive: dataExports.archive }).from(dataExports).where(eq(dataExports.userId, kamau.user._id));
    expect(row).toEqual({ status: 'expired', archive: null });
    expect((await download(late, kamau)).status).toBe(410);
    expect((await t.api('GET', '/api/me/data-export', { token: kamau.token })).body).toMatchObject({ state: 'expired' });
  });

  it('needs a signed-in user to ask and to download', async () => {
    expect((await t.api('POST', '/api/me/data-export')).status).toBe(401);
    expect((await t.api('GET', '/api/me/data-export')).status).toBe(401);
  });
});
