import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../server/src/db/ids.js';
import { comments as commentRows } from '../../server/src/db/schema.js';
import { giveTicket, insertEvent } from '../../server/test/helpers/community.js';
import { accessibilityProblems, loginThroughUi, type Session, setAvatar, signIn } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * Comments, reviews and forums in the browser: the real server (fresh database) serving the built
 * client. Build first: `npm run build -w client`.
 */

let h: Harness;
let wanjiku: Session; // registered
let otieno: Session; // registered
let eventId: string;

beforeAll(async () => {
  h = await startHarness();
  [wanjiku, otieno] = await Promise.all([h.server.createUser('wanjiku'), h.server.createUser('otieno')]);
  // With an avatar set, logging in lands on / instead of /setAvatar.
  for (const session of [wanjiku, otieno]) await setAvatar(h, session);
  eventId = await insertEvent(h.server, { daysFromNow: -2, title: 'Nairobi Jazz Night' });
  await giveTicket(h.server, eventId, wanjiku.user._id);
  await giveTicket(h.server, eventId, otieno.user._id);
});
afterAll(async () => {
  await h?.close();
});

const post = (page: Page, text: string): Locator => page.locator('li.post').filter({ has: page.locator(':scope > article', { hasText: text }) });
const postArticle = (page: Page, text: string): Locator => post(page, text).locator(':scope > article');

describe('comments, reviews and forums in the browser', () => {
  it('a visitor reads the comments but is sent to /login when trying to comment', async () => {
    const seeded = await h.server.api('POST', '/api/comments/add', {
      token: otieno.token,
      body: { content: 'Who else is going? <script>alert(1)</script>', eventId, userId: otieno.user._id },
    });
    expect(seeded.status).toBe(201);

    const { page, errors } = await h.newPage({ width: 360, height: 740 });
    await page.goto(`/events/${eventId}`);
    const comments = page.getByRole('region', { name: /Comments/ });
    // Rendered as text, never as HTML.
    await comments.getByText('Who else is going? <script>alert(1)</script>').waitFor();
    await comments.getByText('otieno').waitFor();
    await page.getByLabel('Add a comment').fill('Nimefika!');
    await page.getByRole('button', { name: 'Post Comment' }).click();
    await page.waitForURL('**/login');

    // The forum pages tell a visitor to log in instead of failing.
    await page.goto(`/forums/${eventId}`);
    await page.getByRole('heading', { level: 1, name: 'Majadiliano ya Tukio' }).waitFor();
    await page.getByText('Please log in to view the forum threads.').waitFor();
    await page.getByRole('link', { name: 'Login' }).last().waitFor();

    await h.server.api('DELETE', `/api/comments/${seeded.body.comment._id}/${otieno.user._id}`, { token: otieno.token });
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('a long comment list comes a page at a time, newest first; a new comment leads it and the count follows', async () => {
    const longEvent = await insertEvent(h.server, { daysFromNow: 5, title: 'Mombasa Dhow Race' });
    const start = Date.now() - 60 * 60 * 1000;
    await h.server.db.insert(commentRows).values(
      Array.from({ length: 23 }, (_, index) => ({ id: newId(), eventId: longEvent, userId: otieno.user._id, content: `Maoni ${index + 1}`, createdAt: new Date(start + index * 1000) })),
    );
    const { page, errors } = await h.newPage({ width: 1280, height: 900 });
    await signIn(h, page, 'wanjiku');
    await page.goto(`/events/${longEvent}`);
    const comments = page.getByRole('region', { name: /Comments/ });
    await comments.getByRole('heading', { name: 'Comments (23)' }).waitFor();
    await comments.getByText('Maoni 23', { exact: true }).waitFor();
    await comments.getByText('Showing 20 of 23').waitFor();
    expect(await comments.getByRole('article').count()).toBe(20);
    expect(await comments.getByText('Maoni 1', { exact: true }).count()).toBe(0);

    await comments.getByRole('button', { name: 'Load more' }).click();
    await comments.getByText('Maoni 1', { exact: true }).waitFor();
    expect(await comments.getByRole('article').count()).toBe(23);
    // The whole list is shown: no count line, no button.
    expect(await comments.getByText(/^Showing \d+ of \d+$/).count()).toBe(0);
    expect(await comments.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    await page.getByLabel('Add a comment').fill('Tutaonana pwani!');
    await page.getByRole('button', { name: 'Post Comment' }).click();
    await comments.getByRole('heading', { name: 'Comments (24)' }).waitFor();
    await expect.poll(() => comments.getByRole('article').first().textContent()).toContain('Tutaonana pwani!');
    const dialogs: string[] = [];
    page.once('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await comments.getByRole('article', { name: 'Comment by wanjiku' }).getByRole('button', { name: 'Delete comment' }).click();
    await comments.getByRole('heading', { name: 'Comments (23)' }).waitFor();
    expect(await comments.getByRole('article').count()).toBe(23);
    expect(dialogs).toHaveLength(1);
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('comment, edit, delete; review with 4 stars; start a thread; a second user replies and votes', async () => {
    const first = await h.newPage({ width: 1280, height: 900 });
    const page = first.page;
    await signIn(h, page, 'wanjiku');
    await page.goto(`/events/${eventId}`);

    // --- Comments: empty is refused, then post, edit (Edit becomes Save), delete with confirmation.
    const comments = page.getByRole('region', { name: /Comments/ });
    await comments.getByText('No comments yet. Start the conversation!').waitFor();
    await page.getByRole('button', { name: 'Post Comment' }).click();
    await comments.getByText('Comment field empty').waitFor();
    await page.getByLabel('Add a comment').fill('Karibu sana, see you there!');
    await page.getByRole('button', { name: 'Post Comment' }).click();
    const myComment = comments.getByRole('article', { name: 'Comment by wanjiku' });
    await myComment.getByText('Karibu sana, see you there!').waitFor();
    expect(await page.getByLabel('Add a comment').inputValue()).toBe('');

    await myComment.getByRole('button', { name: 'Edit comment' }).click();
    await myComment.getByLabel('Edit your comment').fill('Karibu sana! Gates open at 6pm.');
    await myComment.getByRole('button', { name: 'Save comment' }).click();
    await myComment.getByText('Karibu sana! Gates open at 6pm.').waitFor();
    await myComment.getByRole('button', { name: 'Edit comment' }).waitFor();
    let listed = await h.server.api('GET', `/api/comments/event/${eventId}`);
    expect(listed.body.comments.map((c: { content: string }) => c.content)).toEqual(['Karibu sana! Gates open at 6pm.']);

    const dialogs: string[] = [];
    page.once('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await myComment.getByRole('button', { name: 'Delete comment' }).click();
    await comments.getByText('No comments yet. Start the conversation!').waitFor();
    expect(dialogs).toEqual(['Are you sure you want to delete your comment?']);
    listed = await h.server.api('GET', `/api/comments/event/${eventId}`);
    expect(listed.body.comments).toEqual([]);

    // --- Review: rating radios default to 1; choose 4 stars.
    const reviews = page.getByRole('region', { name: 'Reviews' });
    const oneStar = reviews.getByRole('radio', { name: '1 star', exact: true });
    expect(await oneStar.isChecked()).toBe(true);
    // Keyboard: arrow keys move through the stars.
    await oneStar.focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    expect(await reviews.getByRole('radio', { name: '5 stars' }).isChecked()).toBe(true);
    await page.keyboard.press('ArrowLeft');
    expect(await reviews.getByRole('radio', { name: '4 stars' }).isChecked()).toBe(true);
    await reviews.getByLabel('Your review').fill('Great sound, long queues at the gate.');
    await reviews.getByRole('button', { name: 'Submit Review' }).click();
    const myReview = reviews.getByRole('article', { name: 'Review by wanjiku' });
    await myReview.getByRole('img', { name: 'Rated 4 out of 5' }).waitFor();
    await myReview.getByText('Great sound, long queues at the gate.').waitFor();
    await reviews.getByText('1 review').waitFor();
    // The average is asked again after the change (it was 0.0 with no review).
    await expect.poll(() => reviews.locator('.review-summary__average').innerText()).toBe('4.0');
    const reviewList = await h.server.api('GET', `/api/reviews/event/${eventId}`);
    expect(reviewList.body).toMatchObject({ average: 4, count: 1 });
    expect(reviewList.body.reviews[0]).toMatchObject({ rating: 4, user: { username: 'wanjiku' } });

    // --- Forum: from the event page's summary to the thread list; start a thread.
    await page.getByRole('link', { name: 'View Available Forums' }).click();
    await page.waitForURL(`**/forums/${eventId}`);
    await page.getByRole('heading', { level: 1, name: 'Majadiliano ya Tukio' }).waitFor();
    await page.getByText('No discussions yet for this event. Be the first to start a discussion!').waitFor();
    await page.getByRole('button', { name: 'Start Discussion' }).click();
    await page.getByText('Thread title is required.').waitFor();
    await page.getByLabel('Discussion title').fill('Who is carpooling from Westlands?');
    await page.getByRole('button', { name: 'Start Discussion' }).click();
    const card = page.locator('.thread-card', { hasText: 'Who is carpooling from Westlands?' });
    await card.getByText('Started by wanjiku').waitFor();
    await card.getByText('0 replies').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await card.getByRole('link', { name: 'View Discussion' }).click();
    await page.waitForURL('**/forum/*');
    const threadUrl = new URL(page.url()).pathname;
    await page.getByRole('heading', { level: 1, name: 'Who is carpooling from Westlands?' }).waitFor();
    await page.getByText('No replies yet. Be the first to join in!').waitFor();

    // A top-level post from the first user.
    const box = page.getByLabel('Join the discussion');
    expect(await box.getAttribute('placeholder')).toBe('Changia...');
    await box.fill('I have two seats, leaving at 5pm.');
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await postArticle(page, 'I have two seats, leaving at 5pm.').waitFor();
    expect(await box.inputValue()).toBe('');
    // The count follows what is posted here, on top of the count the thread was read with.
    await page.getByRole('heading', { level: 2, name: /Replies \(1\)/ }).waitFor();

    // --- Second registered user, own browser context, phone-sized screen.
    const second = await h.newPage({ width: 360, height: 740 });
    const page2 = second.page;
    await signIn(h, page2, 'otieno');
    await page2.goto(threadUrl);
    const parent = postArticle(page2, 'I have two seats, leaving at 5pm.');
    await parent.waitFor();
    // Not the author: no Delete.
    expect(await parent.getByRole('button', { name: 'Delete post' }).count()).toBe(0);
    await parent.getByRole('button', { name: 'Reply' }).click();
    const replyBox = parent.getByLabel('Reply to wanjiku');
    expect(await replyBox.getAttribute('placeholder')).toBe('Changia...');
    // Cancel Reply closes the box; Reply opens it again.
    await parent.getByRole('button', { name: 'Cancel Reply' }).click();
    expect(await parent.getByLabel('Reply to wanjiku').count()).toBe(0);
    await parent.getByRole('button', { name: 'Reply' }).click();
    await parent.getByLabel('Reply to wanjiku').fill('Count me in, nitakuja na rafiki.');
    await parent.getByRole('button', { name: 'Post', exact: true }).click();
    // The reply is nested under its parent, without a Reply button of its own (depth 1).
    const reply = post(page2, 'I have two seats, leaving at 5pm.').locator('.post-list').getByRole('article').filter({ hasText: 'Count me in, nitakuja na rafiki.' });
    await reply.waitFor();
    await page2.getByRole('heading', { level: 2, name: /Replies \(2\)/ }).waitFor();
    expect(await reply.getByRole('button', { name: 'Reply' }).count()).toBe(0);
    await reply.getByRole('button', { name: 'Delete post' }).waitFor();

    const upvote = parent.getByRole('button', { name: 'Upvote' });
    expect(await upvote.getAttribute('aria-pressed')).toBe('false');
    await upvote.click();
    await expect.poll(() => upvote.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => parent.locator('.vote__count').first().innerText()).toMatch(/^1\b/);
    expect(await accessibilityProblems(page2)).toEqual([]);

    // --- The first user reloads and sees the reply and the vote.
    await page.reload();
    const mine = postArticle(page, 'I have two seats, leaving at 5pm.');
    await mine.waitFor();
    await post(page, 'I have two seats, leaving at 5pm.').getByText('Count me in, nitakuja na rafiki.').waitFor();
    await expect.poll(() => mine.locator('.vote__count').first().innerText()).toMatch(/^1\b/);
    // Their own vote is none yet.
    expect(await mine.getByRole('button', { name: 'Upvote' }).getAttribute('aria-pressed')).toBe('false');
    await page.getByRole('heading', { level: 2, name: /Replies \(2\)/ }).waitFor();

    // --- Deep replies (made through the API: the UI only replies to top-level posts) come on request.
    const thread = await h.server.api('GET', `/api/forums/thread/${threadUrl.split('/').pop()}`, { token: otieno.token });
    const depth1 = thread.body.thread.posts[0].replies[0]._id as string;
    const addPost = async (content: string, parentId: string) => {
      const res = await h.server.api('POST', '/api/forums/add-post', { token: otieno.token, body: { content, threadId: thread.body.thread._id, parentId, userId: otieno.user._id } });
      expect(res.status).toBe(201);
      return res.body.post._id as string;
    };
    const depth2 = await addPost('Depth two: which stage?', depth1);
    const depth3 = await addPost('Depth three: the main one.', depth2);
    await addPost('Depth four: see you there.', depth3);
    await page.reload();
    await postArticle(page, 'Depth two: which stage?').waitFor();
    expect(await page.getByText('Depth three: the main one.').count()).toBe(0);
    await page.getByRole('button', { name: 'View 1 more reply' }).click();
    await postArticle(page, 'Depth three: the main one.').waitFor();
    // A loaded reply comes with the newest of its own replies.
    await postArticle(page, 'Depth four: see you there.').waitFor();
    expect(await page.getByRole('button', { name: /more repl/ }).count()).toBe(0);

    // --- The author deletes a post that has replies: it stays as a "[deleted]" placeholder.
    page.once('dialog', (dialog) => void dialog.accept());
    await postArticle(page, 'I have two seats, leaving at 5pm.').getByRole('button', { name: 'Delete post' }).click();
    await page.getByText('[deleted]', { exact: true }).waitFor();
    await post(page, '[deleted]').getByText('Count me in, nitakuja na rafiki.').waitFor();

    expect(seriousErrors(first.errors)).toEqual([]);
    expect(seriousErrors(second.errors)).toEqual([]);
  });

  it('errors are shown: a user without a ticket, a missing thread', async () => {
    const outsider = await h.server.createUser('kamau');
    await setAvatar(h, outsider);
    const { page, errors } = await h.newPage({ width: 360, height: 740 });
    await signIn(h, page, 'kamau');

    // Not registered: no posting form, a clear reason instead; the summary offers no forum link.
    await page.goto(`/forums/${eventId}`);
    await page.getByText("You can only post in the forum if you've registered for the event.").waitFor();
    expect(await page.getByLabel('Discussion title').count()).toBe(0);
    await page.locator('.thread-card').first().waitFor();

    // Without a ticket, the reason stands where the review form would be (nothing to fill in and see refused).
    await page.goto(`/events/${eventId}`);
    const reviews = page.getByRole('region', { name: 'Reviews' });
    await reviews.getByText('Only people who held a ticket to this event can review it.').waitFor();
    expect(await reviews.getByLabel('Your review').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'View Available Forums' }).count()).toBe(0);

    // Failed votes and posts are reported and change nothing; the typed text stays.
    const threads = await h.server.api('GET', `/api/forums/threads/${eventId}`, { token: otieno.token });
    const threadId = threads.body.thread[0]._id as string;
    const refuse = (message: string) => (route: { fulfill: (response: { status: number; contentType: string; body: string }) => Promise<void> }) =>
      route.fulfill({ status: 429, contentType: 'application/json', body: JSON.stringify({ status: false, msg: message, message }) });
    await page.route('**/api/forums/posts/upvote/**', refuse('Too many votes. Please slow down.'));
    await page.goto(`/forum/${threadId}`);
    const firstPost = postArticle(page, 'Count me in, nitakuja na rafiki.');
    const countBefore = await firstPost.locator('.vote__count').innerText();
    await firstPost.getByRole('button', { name: 'Upvote' }).click();
    await page.getByText('Too many votes. Please slow down.').waitFor();
    expect(await firstPost.getByRole('button', { name: 'Upvote' }).getAttribute('aria-pressed')).toBe('false');
    expect(await firstPost.locator('.vote__count').innerText()).toBe(countBefore);
    // Not registered: no reply box and no Reply buttons.
    expect(await page.getByPlaceholder('Changia...').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Reply', exact: true }).count()).toBe(0);

    const registered = await h.newPage({ width: 360, height: 740 });
    await loginThroughUi(registered.page, 'otieno');
    await registered.page.route('**/api/forums/add-post', refuse('Slow down: too many posts.'));
    await registered.page.goto(`/forum/${threadId}`);
    await registered.page.getByLabel('Join the discussion').fill('This should survive a failure.');
    await registered.page.getByRole('button', { name: 'Post', exact: true }).click();
    await registered.page.getByText('Slow down: too many posts.').first().waitFor();
    expect(await registered.page.getByLabel('Join the discussion').inputValue()).toBe('This should survive a failure.');
    expect(seriousErrors(registered.errors)).toEqual([]);

    // A thread that does not exist (or a malformed id) renders a clear state instead of crashing.
    await page.goto('/forum/0123456789abcdef01234567');
    await page.getByText('This discussion does not exist.').waitFor();
    await page.goto('/forum/not-a-thread');
    await page.getByText('This discussion does not exist.').waitFor();
    expect(seriousErrors(errors)).toEqual([]);
  });
});
