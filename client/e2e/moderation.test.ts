import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../server/src/db/ids.js';
import { tickets } from '../../server/src/db/schema.js';
import { giveTicket, insertEvent } from '../../server/test/helpers/community.js';
import { accessibilityProblems, type Session, setAvatar, signIn } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * Community safety in the browser: a user reports a forum post, an admin hides it from the moderation
 * queue on /admin, and a third user sees "[hidden by a moderator]" in its place while the author still
 * sees the words and the reason. Build first: `npm run build -w client`.
 */

let h: Harness;
let wanjiku: Session; // the author
let otieno: Session; // the reporter
let njeri: Session; // a third user
let threadId: string;
const SCAM = 'Cheap tickets here, pay to 0700 000 000 before the gate!';

const screenshotDir = process.env.SCREENSHOT_DIR;
const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

/** Saves the page at both widths (only with SCREENSHOT_DIR), then returns to the first size. */
async function screenshots(page: Page, name: string, target?: Locator) {
  if (!screenshotDir) return;
  mkdirSync(screenshotDir, { recursive: true });
  const original = page.viewportSize();
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await target?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(screenshotDir, `${name}-${size.name}.png`), animations: 'disabled' });
  }
  if (original) await page.setViewportSize(original);
}

beforeAll(async () => {
  h = await startHarness();
  const admin = await h.server.loginAdmin();
  [wanjiku, otieno, njeri] = await Promise.all([h.server.createUser('wanjiku'), h.server.createUser('otieno'), h.server.createUser('njeri')]);
  for (const session of [wanjiku, otieno, njeri, admin]) await setAvatar(h, session);
  const eventId = await insertEvent(h.server, { daysFromNow: -2, title: 'Kisumu Lakeside Festival' });
  await giveTicket(h.server, eventId, wanjiku.user._id);
  await giveTicket(h.server, eventId, otieno.user._id);
  const thread = await h.server.api('POST', '/api/forums/add-thread', { token: wanjiku.token, body: { title: 'Tickets at the gate?', eventId } });
  threadId = thread.body.thread._id;
  const posted = await h.server.api('POST', '/api/forums/add-post', { token: wanjiku.token, body: { content: SCAM, threadId, parentId: null } });
  expect(posted.status).toBe(201);
});
afterAll(async () => {
  await h?.close();
});

describe('reporting and moderating a forum post in the browser', () => {
  it('a user reports the post, an admin hides it from the queue, a third user sees it hidden', async () => {
    // --- The reporter: Report on the post, a reason, a few words.
    const reporter = await h.newPage({ width: 390, height: 844 });
    await signIn(h, reporter.page, 'otieno');
    await reporter.page.goto(`/forum/${threadId}`);
    const post = reporter.page.getByRole('article', { name: 'wanjiku' });
    await post.getByText(SCAM).waitFor();
    await post.getByRole('button', { name: "Report wanjiku's post" }).click();
    const dialog = reporter.page.getByRole('dialog', { name: "Report wanjiku's post" });
    await dialog.getByRole('radio', { name: 'Scam or fraud' }).check();
    await dialog.getByLabel('Anything to add? (optional)').fill('Asks for money outside Tukio.');
    await screenshots(reporter.page, 'moderation-report-dialog');
    expect(await accessibilityProblems(reporter.page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await post.getByRole('button', { name: "Report wanjiku's post" }).and(reporter.page.getByText('Reported')).waitFor();
    expect(seriousErrors(reporter.errors)).toEqual([]);

    // --- The admin: the report in /admin › Reports with the thread, then Hide with a reason.
    const moderator = await h.newPage({ width: 1280, height: 900 });
    await signIn(h, moderator.page, 'admin', 'admin-password');
    await moderator.page.goto('/admin');
    const reports = moderator.page.getByRole('region', { name: /^Reports/ });
    const card = reports.getByRole('article', { name: 'Reported post by wanjiku' });
    await card.getByText(SCAM).first().waitFor();
    await card.getByText('Asks for money outside Tukio.', { exact: false }).waitFor();
    await card.getByText('Tickets at the gate?').waitFor();
    await screenshots(moderator.page, 'moderation-queue', card);
    await card.getByRole('button', { name: 'Hide', exact: true }).click();
    const confirm = moderator.page.getByRole('dialog', { name: 'Hide: post by wanjiku' });
    await confirm.getByLabel('Reason').fill('Payment requests outside Tukio are scams.');
    await confirm.getByRole('button', { name: 'Hide', exact: true }).click();
    await reports.getByText('No open reports.').waitFor();
    await moderator.page.getByText('Moderation log').click();
    await moderator.page.getByText('admin hid a post by wanjiku', { exact: false }).waitFor();
    expect(seriousErrors(moderator.errors)).toEqual([]);

    // --- The reporter is told the outcome.
    const told = await h.server.smtp.waitFor(otieno.user.email, /Your report on Tukio was reviewed/);
    expect(told.text).toContain('hid it from other users');
    await reporter.page.goto('/profile');
    const myReports = reporter.page.getByRole('region', { name: 'My reports' });
    await myReports.getByText('Hidden by a moderator').waitFor();
    await screenshots(reporter.page, 'moderation-my-reports', myReports);

    // --- A third user sees the placeholder, never the words.
    const third = await h.newPage({ width: 390, height: 844 });
    await signIn(h, third.page, 'njeri');
    await third.page.goto(`/forum/${threadId}`);
    const hidden = third.page.getByRole('article', { name: 'wanjiku' });
    await hidden.getByText('[hidden by a moderator]').waitFor();
    expect(await third.page.getByText(SCAM).count()).toBe(0);
    await screenshots(third.page, 'moderation-hidden-post');

    // --- The author still sees the words, with the moderator's reason.
    const author = await h.newPage({ width: 390, height: 844 });
    await signIn(h, author.page, 'wanjiku');
    await author.page.goto(`/forum/${threadId}`);
    const own = author.page.getByRole('article', { name: 'wanjiku' });
    await own.getByText(SCAM).waitFor();
    await own.getByRole('note').getByText('Hidden by a moderator: Payment requests outside Tukio are scams.', { exact: false }).waitFor();
    await screenshots(author.page, 'moderation-author-view');
    expect(seriousErrors(third.errors)).toEqual([]);
    expect(seriousErrors(author.errors)).toEqual([]);
  });

  it('a user blocks someone in the chat header and unblocks them from the profile', async () => {
    const sent = await h.server.api('POST', '/api/messages/addmsg', { token: njeri.token, body: { from: njeri.user._id, to: otieno.user._id, message: 'Habari! Are you selling your ticket?' } });
    expect(sent.status).toBe(200);
    // Njeri has her conversation with otieno open.
    const blockedSide = await h.newPage({ width: 390, height: 844 });
    await signIn(h, blockedSide.page, 'njeri');
    await blockedSide.page.goto(`/chat?with=${otieno.user._id}`);
    const status = blockedSide.page.locator('.chat-conv__status');

    const { page, errors } = await h.newPage({ width: 390, height: 844 });
    await signIn(h, page, 'otieno');
    await page.goto('/chat');
    await page.getByRole('button', { name: /^njeri/ }).click();
    await page.getByRole('log', { name: 'Messages with njeri' }).getByText('Habari! Are you selling your ticket?').waitFor();
    await page.getByRole('button', { name: 'Report njeri\'s message' }).waitFor();
    await status.getByText('Online', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Block njeri' }).click();
    await page.getByRole('button', { name: 'Unblock njeri' }).waitFor();
    await screenshots(page, 'moderation-chat-blocked');

    // The block reaches njeri's open chat at once: otieno no longer shows online, and a message to him is
    // refused with the reason and no Retry that could never work (Delete stays).
    await status.getByText('Offline', { exact: true }).waitFor();
    await blockedSide.page.getByLabel('Message to otieno').fill('Are you there?');
    await blockedSide.page.keyboard.press('Enter');
    const failed = blockedSide.page.locator('.chat-msg--failed').filter({ hasText: 'Are you there?' });
    await failed.getByText('You cannot message this user.').waitFor();
    await failed.getByRole('button', { name: 'Delete' }).waitFor();
    expect(await failed.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    await screenshots(blockedSide.page, 'moderation-chat-blocked-other-side');
    expect(seriousErrors(blockedSide.errors)).toEqual([]);
    await blockedSide.context.close();
    const refused = await h.server.api('POST', '/api/messages/addmsg', { token: njeri.token, body: { from: njeri.user._id, to: otieno.user._id, message: 'Hello?' } });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('You cannot message this user.');

    await page.goto('/profile');
    const blocked = page.getByRole('region', { name: 'Blocked in chat' });
    await blocked.getByRole('listitem').filter({ hasText: 'njeri' }).waitFor();
    await screenshots(page, 'moderation-profile-blocked', blocked);
    await blocked.getByRole('button', { name: 'Unblock njeri' }).click();
    await blocked.waitFor({ state: 'detached' });
    const again = await h.server.api('POST', '/api/messages/addmsg', { token: njeri.token, body: { from: njeri.user._id, to: otieno.user._id, message: 'Hello again' } });
    expect(again.status).toBe(200);
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('the organiser answers a review once, publicly; a scanned ticket shows "Verified attendee"', async () => {
    const eventId = await insertEvent(h.server, { daysFromNow: -3, title: 'Naivasha Sunset Run', ownerId: wanjiku.user._id });
    await h.server.db.insert(tickets).values({ id: newId(), eventId, userId: otieno.user._id, code: `e2e-${newId()}`, checkedInAt: new Date(), checkedInBy: wanjiku.user._id });
    const review = await h.server.api('POST', '/api/reviews/add', { token: otieno.token, body: { eventId, rating: 3, content: 'Great route, but water ran out at 15 km.' } });
    expect(review.status).toBe(201);

    const { page, errors } = await h.newPage({ width: 1280, height: 900 });
    await signIn(h, page, 'wanjiku');
    await page.goto(`/events/${eventId}`);
    const reviews = page.getByRole('region', { name: 'Reviews' });
    const entry = reviews.getByRole('article', { name: 'Review by otieno' });
    await entry.getByText('Verified attendee').waitFor();
    await entry.getByRole('button', { name: 'Answer publicly the review by otieno' }).click();
    await entry.getByLabel('Your public answer (one per review, cannot be changed)').fill('Thank you! Two more water points next year.');
    await entry.getByRole('button', { name: 'Publish answer' }).click();
    await entry.getByText('Organiser’s answer').waitFor();
    await entry.getByText('Thank you! Two more water points next year.').waitFor();
    expect(await entry.getByRole('button', { name: /Answer publicly/ }).count()).toBe(0);
    await screenshots(page, 'moderation-review-answer', entry);
    expect(seriousErrors(errors)).toEqual([]);
  });
});
