import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../server/src/db/ids.js';
import { forumPosts, forumThreads } from '../../server/src/db/schema.js';
import { giveTicket, insertEvent } from '../../server/test/helpers/community.js';
import { type Session, setAvatar, signIn } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * A forum thread's busy post in the browser: the thread page shows the newest few replies and
 * "View N more replies", which loads the rest a page at a time; a reply just posted keeps its place.
 * The real server (fresh database) serving the built client. Build first: `npm run build -w client`.
 */

const REPLIES = 26;

let h: Harness;
let njeri: Session; // registered: may reply
let threadId: string;

beforeAll(async () => {
  h = await startHarness();
  const [author, reader] = await Promise.all([h.server.createUser('mwangi'), h.server.createUser('njeri')]);
  njeri = reader;
  await setAvatar(h, njeri);
  const eventId = await insertEvent(h.server, { daysFromNow: -3, title: 'Kisumu Lake Festival' });
  await giveTicket(h.server, eventId, njeri.user._id);
  threadId = newId();
  await h.server.db.insert(forumThreads).values({ id: threadId, eventId, userId: author.user._id, title: 'Lost property' });
  const busy = newId();
  const start = Date.UTC(2026, 3, 5, 8);
  await h.server.db.insert(forumPosts).values({ id: busy, threadId, userId: author.user._id, content: 'Who found a red umbrella?', createdAt: new Date(start) });
  // Reply 1 is the oldest, reply 26 the newest.
  await h.server.db.insert(forumPosts).values(
    Array.from({ length: REPLIES }, (_, index) => ({
      id: newId(),
      threadId,
      parentId: busy,
      userId: author.user._id,
      content: `Jibu ${index + 1}`,
      createdAt: new Date(start + (index + 1) * 60_000),
    })),
  );
});
afterAll(async () => {
  await h?.close();
});

const postArticle = (page: Page, text: string): Locator =>
  page.locator('li.post').filter({ has: page.locator(':scope > article', { hasText: text }) }).locator(':scope > article');
const shownReplies = (page: Page) => page.locator('li.post li.post > article .post__content').allInnerTexts();

describe('forum reply pages in the browser', () => {
  it('shows the newest replies, then the rest a page at a time, keeping a reply just posted in its place', async () => {
    const { page, errors } = await h.newPage({ width: 1280, height: 900 });
    await signIn(h, page, 'njeri');
    await page.goto(`/forum/${threadId}`);
    await page.getByRole('heading', { level: 1, name: 'Lost property' }).waitFor();
    await page.getByText('Jibu 26', { exact: true }).waitFor();
    expect(await shownReplies(page)).toEqual(['Jibu 26', 'Jibu 25', 'Jibu 24']);
    await page.getByRole('heading', { level: 2, name: /Replies \(27\)/ }).waitFor();

    // A reply of one's own goes to the top of the replies and counts.
    const parent = postArticle(page, 'Who found a red umbrella?');
    await parent.getByRole('button', { name: 'Reply' }).click();
    await parent.getByLabel('Reply to mwangi').fill('I saw one at the gate.');
    await parent.getByRole('button', { name: 'Post', exact: true }).click();
    await postArticle(page, 'I saw one at the gate.').waitFor();
    await page.getByRole('heading', { level: 2, name: /Replies \(28\)/ }).waitFor();
    const more = page.getByRole('button', { name: 'View 23 more replies' });
    await more.waitFor();

    // A failed load is told and changes nothing; the button stays to try again.
    let refuse = true;
    await page.route('**/api/forums/posts/*/replies*', (route) =>
      refuse ? route.fulfill({ status: 429, contentType: 'application/json', body: '{}' }) : route.continue(),
    );
    await more.click();
    await page.getByText('The replies could not be loaded. Please try again.').waitFor();
    expect(await shownReplies(page)).toEqual(['I saw one at the gate.', 'Jibu 26', 'Jibu 25', 'Jibu 24']);
    refuse = false;

    // The first page (20, newest first) holds the four shown already: 16 more appear after them.
    await page.getByRole('button', { name: 'View 23 more replies' }).click();
    await page.getByText('Jibu 8', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'View 7 more replies' }).waitFor();
    expect(await shownReplies(page)).toEqual(['I saw one at the gate.', ...Array.from({ length: 19 }, (_, index) => `Jibu ${26 - index}`)]);
    // Keyboard users continue at the first reply that appeared.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? '')).toContain('Jibu 23');

    await page.getByRole('button', { name: 'View 7 more replies' }).click();
    await page.getByText('Jibu 1', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: /more repl/ }).count()).toBe(0);
    expect(await shownReplies(page)).toEqual(['I saw one at the gate.', ...Array.from({ length: REPLIES }, (_, index) => `Jibu ${REPLIES - index}`)]);
    expect(seriousErrors(errors)).toEqual([]);
  });
});
