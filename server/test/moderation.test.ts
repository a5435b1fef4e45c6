import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../src/db/ids.js';
import { moderationActions, reports, tickets, users } from '../src/db/schema.js';
import { giveTicket, insertEvent } from './helpers/community.js';
import { emitWithAck, nextEvent, socketTracker } from './helpers/chat-sockets.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

type Session = Awaited<ReturnType<TestServer['createUser']>>;

const HIDDEN = '[hidden by a moderator]';

let t: TestServer;
let admin: Session;
let eventId: string;
const sockets = socketTracker();
let serial = 0;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.loginAdmin();
  eventId = await insertEvent(t, { daysFromNow: -1, title: 'Jazz at the Arboretum' });
});
afterAll(async () => {
  sockets.closeAll();
  await t?.close();
});

/** A fresh verified user with a ticket to the test event (each test makes its own people). */
async function person(name: string): Promise<Session> {
  serial += 1;
  const session = await t.createUser(`${name}${serial}${Math.random().toString(36).slice(2, 6)}`);
  await giveTicket(t, eventId, session.user._id);
  return session;
}

async function comment(session: Session, content = 'Great music!') {
  const res = await t.api('POST', '/api/comments/add', { token: session.token, body: { content, eventId } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.comment._id as string;
}

async function thread(session: Session, title = 'Parking?') {
  const res = await t.api('POST', '/api/forums/add-thread', { token: session.token, body: { title, eventId } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.thread._id as string;
}

async function post(session: Session, threadId: string, content: string) {
  const res = await t.api('POST', '/api/forums/add-post', { token: session.token, body: { content, threadId, parentId: null } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.post._id as string;
}

const report = (session: Session | undefined, body: Record<string, unknown>) => t.api('POST', '/api/moderation/reports', { token: session?.token, body });
const act = (session: Session | undefined, kind: string, id: string, body: Record<string, unknown>) =>
  t.api('POST', `/api/moderation/items/${kind}/${id}/actions`, { token: session?.token, body });

async function queueItem(kind: string, id: string) {
  const res = await t.api('GET', '/api/moderation/queue', { token: admin.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.items as Array<Record<string, any>>).find((item) => item.kind === kind && item.id === id);
}

const reportCount = async (targetId: string) => (await t.db.select().from(reports).where(eq(reports.targetId, targetId))).length;

describe('reporting', () => {
  it('lets a signed-in user report a comment once, and never shows the reporter to the author', async () => {
    const [author, reporter] = await Promise.all([person('author'), person('reporter')]);
    const id = await comment(author, 'Buy cheap followers at spam.example');
    const res = await report(reporter, { kind: 'comment', id, reason: 'spam' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ status: true, report: { kind: 'comment', id, reason: 'spam', status: 'open', outcome: null } });

    const again = await report(reporter, { kind: 'comment', id, reason: 'harassment' });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('You have already reported this.');
    expect(await reportCount(id)).toBe(1);

    // What the author can read about their comment says nothing about reports.
    const list = await t.api('GET', `/api/comments/event/${eventId}`, { token: author.token });
    expect(JSON.stringify(list.body)).not.toContain(reporter.user.username);
    const mine = await t.api('GET', '/api/moderation/reports/mine', { token: reporter.token });
    expect(mine.body.reports).toEqual([expect.objectContaining({ id, status: 'open' })]);
    const authorsReports = await t.api('GET', '/api/moderation/reports/mine', { token: author.token });
    expect(authorsReports.body.reports).toEqual([]);
  });

  it('refuses reporting your own item, yourself, unknown items and bad input, and stores nothing', async () => {
    const author = await person('selfie');
    const id = await comment(author);
    const own = await report(author, { kind: 'comment', id, reason: 'spam' });
    expect(own.status).toBe(400);
    expect(own.body.msg).toBe('You cannot report your own content.');
    const self = await report(author, { kind: 'user', id: author.user._id, reason: 'spam' });
    expect(self.status).toBe(400);
    expect(self.body.msg).toBe('You cannot report yourself.');
    const missing = await report(author, { kind: 'post', id: '0123456789abcdef01234567', reason: 'spam' });
    expect(missing.status).toBe(404);
    const badKind = await report(author, { kind: 'event', id, reason: 'spam' });
    expect(badKind.status).toBe(400);
    expect(badKind.body.msg).toMatch(/^kind must be one of/);
    const badReason = await report(author, { kind: 'comment', id, reason: 'boring' });
    expect(badReason.status).toBe(400);
    expect(badReason.body.msg).toMatch(/^reason must be one of/);
    const otherWithoutWords = await report(author, { kind: 'user', id: admin.user._id, reason: 'other' });
    expect(otherWithoutWords.status).toBe(400);
    expect(otherWithoutWords.body.msg).toMatch(/details/);
    const visitor = await report(undefined, { kind: 'comment', id, reason: 'spam' });
    expect(visitor.status).toBe(401);
    expect(await reportCount(id)).toBe(0);
    expect(await reportCount(author.user._id)).toBe(0);
  });

  it('lets only the recipient report a chat message', async () => {
    const [sender, recipient, stranger] = await Promise.all([person('sender'), person('recipient'), person('stranger')]);
    const sent = await t.api('POST', '/api/messages/addmsg', { token: sender.token, body: { from: sender.user._id, to: recipient.user._id, message: 'send me your M-Pesa PIN' } });
    expect(sent.status).toBe(200);
    const id = sent.body._id as string;
    expect((await report(sender, { kind: 'message', id, reason: 'scam' })).status).toBe(400);
    expect((await report(stranger, { kind: 'message', id, reason: 'scam' })).status).toBe(404);
    expect((await report(recipient, { kind: 'message', id, reason: 'scam' })).status).toBe(201);
  });
});

describe('the moderation queue', () => {
  it('is for admins only', async () => {
    const user = await person('curious');
    expect((await t.api('GET', '/api/moderation/queue', { token: user.token })).status).toBe(403);
    expect((await t.api('GET', '/api/moderation/queue')).status).toBe(401);
    expect((await t.api('GET', '/api/moderation/log', { token: user.token })).status).toBe(403);
  });

  it('groups open reports by item and shows a reported post with its thread', async () => {
    const [author, r1, r2] = await Promise.all([person('troll'), person('r1'), person('r2')]);
    const threadId = await thread(author, 'Who is going?');
    await post(r1, threadId, 'Me, with friends');
    const postId = await post(author, threadId, 'You are all idiots');
    expect((await report(r1, { kind: 'post', id: postId, reason: 'harassment' })).status).toBe(201);
    expect((await report(r2, { kind: 'post', id: postId, reason: 'hate', details: 'Insults everyone' })).status).toBe(201);

    const item = await queueItem('post', postId);
    expect(item).toMatchObject({
      reportCount: 2,
      item: { text: 'You are all idiots', hidden: false },
      event: { _id: eventId, title: 'Jazz at the Arboretum' },
      thread: { _id: threadId, title: 'Who is going?' },
      author: { _id: author.user._id, username: author.user.username, warnings: 0 },
    });
    expect(item!.reports.map((r: { reporter: { _id: string } }) => r.reporter._id).sort()).toEqual([r1.user._id, r2.user._id].sort());
    expect(item!.reports.map((r: { automatic: boolean }) => r.automatic)).toEqual([false, false]);
    expect(item!.context.posts.map((p: { content: string }) => p.content)).toEqual(['Me, with friends', 'You are all idiots']);
    expect(item!.context.messages).toEqual([]);
  });

  it("shows the last messages of the conversation for a reported chat message", async () => {
    const [sender, recipient] = await Promise.all([person('pest'), person('target')]);
    const send = (from: Session, to: Session, message: string) => t.api('POST', '/api/messages/addmsg', { token: from.token, body: { from: from.user._id, to: to.user._id, message } });
    await send(recipient, sender, 'Hi, is the ticket still for sale?');
    const bad = await send(sender, recipient, 'Pay me first, then I tell you');
    expect((await report(recipient, { kind: 'message', id: bad.body._id, reason: 'scam' })).status).toBe(201);
    const item = await queueItem('message', bad.body._id);
    expect(item!.context.messages.map((m: { message: string; reported: boolean }) => [m.message, m.reported])).toEqual([
      ['Hi, is the ticket still for sale?', false],
      ['Pay me first, then I tell you', true],
    ]);
  });
});

describe('moderator actions', () => {
  it('hides a comment: others see the placeholder, the author the text and reason; reports resolve and reporters are told', async () => {
    const [author, reporter, third] = await Promise.all([person('spammer'), person('watcher'), person('third')]);
    const id = await comment(author, 'Visit my shop at spam.example');
    expect((await report(reporter, { kind: 'comment', id, reason: 'spam' })).status).toBe(201);

    const res = await act(admin, 'comment', id, { action: 'hide', reason: 'Advertising is not allowed.' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.action).toMatchObject({ action: 'hide', kind: 'comment', id, resolvedReports: 1 });

    const seenBy = async (session: Session | undefined) =>
      ((await t.api('GET', `/api/comments/event/${eventId}`, { token: session?.token })).body.comments as Array<Record<string, unknown>>).find((c) => c._id === id);
    expect(await seenBy(third)).toMatchObject({ content: HIDDEN, hidden: true });
    expect(await seenBy(third)).not.toHaveProperty('hiddenReason');
    expect(await seenBy(undefined)).toMatchObject({ content: HIDDEN, hidden: true });
    expect(await seenBy(author)).toMatchObject({ content: 'Visit my shop at spam.example', hidden: true, hiddenReason: 'Advertising is not allowed.' });

    const told = await t.smtp.waitFor(reporter.user.email, /Your report on Tukio was reviewed/);
    expect(told.text).toContain('hid it');
    expect(told.text).not.toContain(author.user.username);
    const authorMail = await t.smtp.waitFor(author.user.email, /hid your post/);
    expect(authorMail.text).toContain('Advertising is not allowed.');
    expect(authorMail.text).not.toContain(reporter.user.username);

    expect(await queueItem('comment', id)).toBeUndefined();
    const mine = await t.api('GET', '/api/moderation/reports/mine', { token: reporter.token });
    expect(mine.body.reports[0]).toMatchObject({ id, status: 'resolved', outcome: 'hide' });

    const log = await t.api('GET', '/api/moderation/log', { token: admin.token });
    expect(log.body.actions[0]).toMatchObject({
      action: 'hide',
      kind: 'comment',
      id,
      reason: 'Advertising is not allowed.',
      excerpt: 'Visit my shop at spam.example',
      admin: { _id: admin.user._id, username: 'admin' },
      user: { _id: author.user._id },
    });

    // Unhide puts it back for everyone.
    expect((await act(admin, 'comment', id, { action: 'unhide', reason: 'Appeal accepted.' })).status).toBe(200);
    expect(await seenBy(third)).toMatchObject({ content: 'Visit my shop at spam.example', hidden: false });
  });

  it('hides forum threads, posts and reviews for others', async () => {
    const [author, reader] = await Promise.all([person('poster'), person('reader')]);
    const threadId = await thread(author, 'Rude title');
    const postId = await post(author, threadId, 'Rude words');
    expect((await act(admin, 'thread', threadId, { action: 'hide', reason: 'Offensive title.' })).status).toBe(200);
    expect((await act(admin, 'post', postId, { action: 'hide', reason: 'Offensive words.' })).status).toBe(200);
    const asReader = await t.api('GET', `/api/forums/thread/${threadId}`, { token: reader.token });
    expect(asReader.body.thread).toMatchObject({ title: HIDDEN, hidden: true });
    expect(asReader.body.thread.posts[0]).toMatchObject({ _id: postId, content: HIDDEN, hidden: true, user: { _id: author.user._id } });
    const asAuthor = await t.api('GET', `/api/forums/thread/${threadId}`, { token: author.token });
    expect(asAuthor.body.thread).toMatchObject({ title: 'Rude title', hidden: true, hiddenReason: 'Offensive title.' });
    expect(asAuthor.body.thread.posts[0]).toMatchObject({ content: 'Rude words', hiddenReason: 'Offensive words.' });

    const reviewed = await t.api('POST', '/api/reviews/add', { token: author.token, body: { eventId, rating: 1, content: 'Worst ever, the organiser is a thief' } });
    expect(reviewed.status).toBe(201);
    const reviewId = reviewed.body.review._id as string;
    expect((await act(admin, 'review', reviewId, { action: 'hide', reason: 'Defamation.' })).status).toBe(200);
    const reviews = await t.api('GET', `/api/reviews/event/${eventId}`, { token: reader.token });
    expect(reviews.body.reviews.find((r: { _id: string }) => r._id === reviewId)).toMatchObject({ content: HIDDEN, hidden: true, rating: 1 });
  });

  it('deletes a reported comment and dismisses reports, telling each reporter', async () => {
    const [author, reporter, other] = await Promise.all([person('deleteme'), person('flagger'), person('flagger2')]);
    const id = await comment(author, 'Threatening words');
    expect((await report(reporter, { kind: 'comment', id, reason: 'harassment' })).status).toBe(201);
    expect((await act(admin, 'comment', id, { action: 'delete', reason: 'Threats.' })).status).toBe(200);
    const list = await t.api('GET', `/api/comments/event/${eventId}`, { token: other.token });
    expect(list.body.comments.some((c: { _id: string }) => c._id === id)).toBe(false);
    expect((await t.smtp.waitFor(reporter.user.email, /Your report on Tukio was reviewed/)).text).toContain('removed it');
    // The log keeps what was said.
    const [logged] = await t.db.select().from(moderationActions).where(eq(moderationActions.targetId, id));
    expect(logged).toMatchObject({ action: 'delete', excerpt: 'Threatening words', reason: 'Threats.' });

    const fine = await comment(author, 'An ordinary remark');
    expect((await report(other, { kind: 'comment', id: fine, reason: 'other', details: 'I just dislike it' })).status).toBe(201);
    expect((await act(admin, 'comment', fine, { action: 'dismiss', reason: 'Not against the rules.' })).status).toBe(200);
    expect((await t.smtp.waitFor(other.user.email, /Your report on Tukio was reviewed/)).text).toContain('does not break the community rules');
    const stillThere = await t.api('GET', `/api/comments/event/${eventId}`, { token: other.token });
    expect(stillThere.body.comments.find((c: { _id: string }) => c._id === fine)).toMatchObject({ content: 'An ordinary remark', hidden: false });
  });

  it('refuses non-admins, bad input and actions that do not apply, changing nothing', async () => {
    const [author, user] = await Promise.all([person('safe'), person('wannabe')]);
    const id = await comment(author, 'Harmless');
    const asUser = await act(user, 'comment', id, { action: 'hide', reason: 'I say so' });
    expect(asUser.status).toBe(403);
    expect((await act(undefined, 'comment', id, { action: 'hide', reason: 'I say so' })).status).toBe(401);
    const noReason = await act(admin, 'comment', id, { action: 'hide' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.msg).toMatch(/reason/);
    const badAction = await act(admin, 'comment', id, { action: 'nuke', reason: 'Because' });
    expect(badAction.status).toBe(400);
    expect(badAction.body.msg).toMatch(/^action must be one of/);
    const noDays = await act(admin, 'comment', id, { action: 'suspend', reason: 'Because' });
    expect(noDays.status).toBe(400);
    expect(noDays.body.msg).toBe('days is required to suspend.');
    const hideUser = await act(admin, 'user', author.user._id, { action: 'hide', reason: 'Because' });
    expect(hideUser.status).toBe(400);
    const banAdmin = await act(admin, 'user', admin.user._id, { action: 'ban', reason: 'Because' });
    expect(banAdmin.status).toBe(400);
    expect((await act(admin, 'comment', '0123456789abcdef01234567', { action: 'hide', reason: 'Because' })).status).toBe(404);

    const list = await t.api('GET', `/api/comments/event/${eventId}`, { token: user.token });
    expect(list.body.comments.find((c: { _id: string }) => c._id === id)).toMatchObject({ content: 'Harmless', hidden: false });
    const [row] = await t.db.select().from(users).where(eq(users.id, author.user._id));
    expect(row).toMatchObject({ suspendedUntil: null, bannedAt: null });
    expect(await t.db.select().from(moderationActions).where(eq(moderationActions.targetId, id))).toEqual([]);
  });

  it('hides a chat message from its recipient but not its sender', async () => {
    const [sender, recipient] = await Promise.all([person('chatter'), person('listener')]);
    const sent = await t.api('POST', '/api/messages/addmsg', { token: sender.token, body: { from: sender.user._id, to: recipient.user._id, message: 'nasty words' } });
    expect((await act(admin, 'message', sent.body._id, { action: 'hide', reason: 'Abusive.' })).status).toBe(200);
    const forRecipient = await t.api('POST', '/api/messages/getmsg', { token: recipient.token, body: { from: recipient.user._id, to: sender.user._id } });
    expect(forRecipient.body[0]).toMatchObject({ message: HIDDEN, hidden: true });
    expect(forRecipient.body[0]).not.toHaveProperty('hiddenReason');
    const forSender = await t.api('POST', '/api/messages/getmsg', { token: sender.token, body: { from: sender.user._id, to: recipient.user._id } });
    expect(forSender.body[0]).toMatchObject({ message: 'nasty words', hidden: true, hiddenReason: 'Abusive.' });
  });
});

describe('warnings, suspensions and bans', () => {
  it('warns the author by email and counts it on their record', async () => {
    const [author, reporter] = await Promise.all([person('warned'), person('reporter')]);
    const id = await comment(author, 'Borderline joke');
    expect((await report(reporter, { kind: 'comment', id, reason: 'hate' })).status).toBe(201);
    expect((await act(admin, 'comment', id, { action: 'warn', reason: 'Keep it respectful.' })).status).toBe(200);
    expect((await t.smtp.waitFor(author.user.email, /A warning from the Tukio moderators/)).text).toContain('Keep it respectful.');
    expect((await t.smtp.waitFor(reporter.user.email, /Your report on Tukio was reviewed/)).text).toContain('warned its author');

    const other = await comment(author, 'Another one');
    expect((await report(reporter, { kind: 'comment', id: other, reason: 'hate' })).status).toBe(201);
    expect((await queueItem('comment', other))!.author).toMatchObject({ warnings: 1, suspensions: 0, bans: 0 });
  });

  it("suspends for N days: the open socket is dropped, old tokens stop working, posting, chatting and buying are refused", async () => {
    const [author, friend] = await Promise.all([person('suspendee'), person('friend')]);
    const socket = await sockets.open(t.url, author.token);
    const ended = nextEvent<{ msg: string }>(socket, 'session:ended', 5000);
    const disconnected = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));

    const res = await act(admin, 'user', author.user._id, { action: 'suspend', days: 3, reason: 'Repeated spam.' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const until = new Date(res.body.action.suspendedUntil as string).getTime();
    expect(until).toBeGreaterThan(Date.now() + 2.9 * 24 * 3600 * 1000);

    await ended;
    await disconnected;
    expect(socket.connected).toBe(false);
    // The old token's 401 says why the session ended: suspended until when (Nairobi time) and the reason.
    const nairobiUntil = new Date(until + 3 * 3600 * 1000).toISOString().slice(0, 16).replace('T', ' ');
    for (const refused of [
      await t.api('POST', '/api/comments/add', { token: author.token, body: { content: 'still here?', eventId } }),
      await t.api('GET', '/api/tickets/mine', { token: author.token }),
    ]) {
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({
        code: 'session_ended_suspended',
        params: { until: nairobiUntil, reason: 'Repeated spam.' },
        restricted: true,
        suspendedUntil: new Date(until).toISOString(),
        reason: 'Repeated spam.',
      });
      expect(refused.body.msg).toBe(
        `Your account is suspended until ${nairobiUntil} (Nairobi time), so you were signed out. You may log in again to read, but not to post, chat, buy tickets or publish events until then. The moderators' reason: Repeated spam.`,
      );
    }
    // A token that is merely stale (logged out elsewhere, no measure) still just asks to log in.
    expect((await t.api('GET', '/api/tickets/mine', { token: 'not-a-token' })).body.code).toBe('login_required');
    expect((await t.smtp.waitFor(author.user.email, /Your Tukio account is suspended/)).text).toContain('Repeated spam.');

    // A new login may read but not write.
    const again = await t.login(author.user.username, 'secret123');
    expect((await t.api('GET', `/api/comments/event/${eventId}`, { token: again.token })).status).toBe(200);
    const refusals = await Promise.all([
      t.api('POST', '/api/comments/add', { token: again.token, body: { content: 'hello', eventId } }),
      t.api('POST', '/api/forums/add-thread', { token: again.token, body: { title: 'hello', eventId } }),
      t.api('POST', '/api/messages/addmsg', { token: again.token, body: { from: again.user._id, to: friend.user._id, message: 'hello' } }),
      t.api('POST', `/api/events/register/${eventId}`, { token: again.token, body: { tickets: 1 } }),
      t.api('POST', '/api/events/addevnt', { token: again.token, body: {} }),
      // Buying: the payment service asks for the order with the buyer's token.
      t.api('POST', '/api/internal/payments/orders', { token: again.token, headers: { 'x-internal-key': 'test-internal-key' }, body: { eventId, quantity: 1, phone: '254712345678' } }),
    ]);
    for (const refused of refusals) {
      expect(refused.status).toBe(403);
      expect(refused.body.msg).toMatch(/^Your account is suspended until \d{4}-\d\d-\d\d \d\d:\d\d \(Nairobi time\)/);
    }
    const chatSocket = await sockets.open(t.url, again.token);
    const ack = await emitWithAck(chatSocket, 'send-msg', { from: again.user._id, to: friend.user._id, message: 'hello' });
    expect(ack).toMatchObject({ ok: false, msg: expect.stringMatching(/^Your account is suspended/) });

    // Lifting restores everything.
    expect((await act(admin, 'user', author.user._id, { action: 'lift', reason: 'Served.' })).status).toBe(200);
    const freed = await t.login(author.user.username, 'secret123');
    expect((await t.api('POST', '/api/comments/add', { token: freed.token, body: { content: 'back again', eventId } })).status).toBe(201);
  });

  it('bans an account: it cannot log in, and its content can be hidden in the same step', async () => {
    const [author, reader] = await Promise.all([person('bannable'), person('reader')]);
    const id = await comment(author, 'Scam link');
    const res = await act(admin, 'comment', id, { action: 'ban', reason: 'Fraud.', hideContent: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const login = await t.api('POST', '/api/auth/login', { body: { username: author.user.username, password: 'secret123' } });
    // Account calls answer failures as 200 {status:false, msg} (the contract).
    expect(login.body.status).toBe(false);
    expect(login.body.msg).toBe('This account has been banned for breaking the community rules.');
    expect((await t.api('GET', `/api/comments/event/${eventId}`, { token: author.token })).status).toBe(200);
    const list = await t.api('GET', `/api/comments/event/${eventId}`, { token: reader.token });
    expect(list.body.comments.find((c: { _id: string }) => c._id === id)).toMatchObject({ content: HIDDEN, hidden: true });
    await vi.waitFor(() => expect(t.smtp.inbox.some((mail) => mail.to === author.user.email && /banned/.test(mail.subject))).toBe(true));
  });
});

describe('reviews that can be trusted', () => {
  it('marks reviews from people whose ticket was scanned as verified attendees', async () => {
    const organiser = await person('organiser');
    const event = await insertEvent(t, { daysFromNow: -1, ownerId: organiser.user._id });
    const [scanned, unscanned] = await Promise.all([person('scanned'), person('unscanned')]);
    await giveTicket(t, event, unscanned.user._id);
    await t.db.insert(tickets).values({ id: newId(), eventId: event, userId: scanned.user._id, code: `test-${newId()}`, checkedInAt: new Date(), checkedInBy: organiser.user._id });
    for (const session of [scanned, unscanned]) {
      expect((await t.api('POST', '/api/reviews/add', { token: session.token, body: { eventId: event, rating: 5, content: 'Great' } })).status).toBe(201);
    }
    const list = await t.api('GET', `/api/reviews/event/${event}`);
    const byAuthor = Object.fromEntries(list.body.reviews.map((r: { user: { _id: string }; verifiedAttendee: boolean }) => [r.user._id, r.verifiedAttendee]));
    expect(byAuthor).toEqual({ [scanned.user._id]: true, [unscanned.user._id]: false });
  });

  it('lets the organiser answer a review once, publicly, and nobody else', async () => {
    const organiser = await person('host');
    const event = await insertEvent(t, { daysFromNow: -1, ownerId: organiser.user._id });
    const [reviewer, stranger] = await Promise.all([person('critic'), person('stranger')]);
    await giveTicket(t, event, reviewer.user._id);
    const added = await t.api('POST', '/api/reviews/add', { token: reviewer.token, body: { eventId: event, rating: 2, content: 'The sound was bad' } });
    const reviewId = added.body.review._id as string;
    const reply = (session: Session, content: unknown) => t.api('POST', `/api/reviews/${reviewId}/reply`, { token: session.token, body: { content } });

    const byReviewer = await reply(reviewer, 'I answer myself');
    expect(byReviewer.status).toBe(403);
    expect(byReviewer.body.msg).toBe('Only the organiser of this event can answer its reviews.');
    expect((await reply(stranger, 'Hi')).status).toBe(403);
    expect((await reply(admin, 'On behalf of the organiser')).status).toBe(403);
    const empty = await reply(organiser, '   ');
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('Answer cannot be empty.');

    const answered = await reply(organiser, 'Sorry! We are changing the sound company next time.');
    expect(answered.status).toBe(201);
    expect(answered.body.review.organiserReply).toEqual({ content: 'Sorry! We are changing the sound company next time.', createdAt: expect.any(String) });
    const again = await reply(organiser, 'Another answer');
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('You have already answered this review.');

    const publicList = await t.api('GET', `/api/reviews/event/${event}`);
    expect(publicList.body.reviews[0].organiserReply.content).toBe('Sorry! We are changing the sound company next time.');
  });
});
