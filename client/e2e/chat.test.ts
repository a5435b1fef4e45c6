import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems, loginThroughUi, type Session, setAvatar, signIn, submitLogin } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

let h: Harness;
let amani: Session;
let baraka: Session;
let chebet: Session;

beforeAll(async () => {
  h = await startHarness();
  amani = await h.server.createUser('amani');
  baraka = await h.server.createUser('baraka');
  chebet = await h.server.createUser('chebet');
  await setAvatar(h, amani, '#0a7d3e');
  await setAvatar(h, baraka, '#c8102e');
  await setAvatar(h, chebet, '#f2a900');
});

afterAll(async () => {
  await h?.close();
});

describe('chat in the browser', () => {
  it('redirects visitors without a stored user to /login, and back to the conversation after logging in', async () => {
    // Contacts are the people one has talked with: these two have.
    const [imani, juma] = [await h.server.createUser('imani'), await h.server.createUser('juma')];
    await setAvatar(h, imani, '#0a7d3e');
    await setAvatar(h, juma, '#c8102e');
    await h.server.api('POST', '/api/messages/addmsg', { token: juma.token, body: { from: juma.user._id, to: imani.user._id, message: 'Habari Imani' } });
    const { page } = await h.newPage();
    await page.goto(`/chat?with=${juma.user._id}`);
    await page.waitForURL('**/login');
    await submitLogin(page, 'imani');
    await page.waitForURL((url) => url.pathname === '/chat' && url.search === `?with=${juma.user._id}`);
    await page.getByRole('log', { name: 'Messages with juma' }).waitFor();
  });

  it('opens a conversation by its link with a contact, and not with a stranger', async () => {
    const [zuri, wekesa, mgeni] = [await h.server.createUser('zuri'), await h.server.createUser('wekesa'), await h.server.createUser('mgeni')];
    await setAvatar(h, zuri, '#0a7d3e');
    await setAvatar(h, wekesa, '#c8102e');
    await setAvatar(h, mgeni, '#1f4e99');
    // Wekesa wrote once: a contact. Mgeni never did: an id is no way to a stranger's name (docs/decisions/chat.md).
    const first = await h.server.api('POST', '/api/messages/addmsg', { token: wekesa.token, body: { from: wekesa.user._id, to: zuri.user._id, message: 'Habari Zuri' } });
    expect(first.status).toBe(200);
    const { page, errors } = await h.newPage();
    await signIn(h, page, 'zuri');
    await page.goto(`/chat?with=${mgeni.user._id}`);
    await page.getByText('Please select a chat to Start Messaging').waitFor();
    expect(await page.getByText('mgeni').count()).toBe(0);
    await page.goto(`/chat?with=${wekesa.user._id}`);
    const log = page.getByRole('log', { name: 'Messages with wekesa' });
    await log.waitFor();
    await page.getByLabel('Message to wekesa').fill('Karibu Tukio!');
    await page.keyboard.press('Enter');
    await log.locator('.chat-msg--self.chat-msg--sent').getByText('Karibu Tukio!').waitFor();
    const theirs = await h.server.api('GET', `/api/messages/conversation/${zuri.user._id}`, { token: wekesa.token });
    expect(JSON.stringify(theirs.body.items)).toContain('Karibu Tukio!');
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('sends a user whose avatar is not set to /setAvatar', async () => {
    await h.server.createUser('esi');
    const { page } = await h.newPage();
    await page.goto('/login');
    await submitLogin(page, 'esi');
    await page.waitForURL('**/setAvatar');
    await page.goto('/chat');
    await page.waitForURL('**/setAvatar');
  });

  it('A finds B by username and writes first; B sees A appear with an unread badge, opens the conversation and replies with an emoji; A sees it live', async () => {
    const a = await h.newPage({ width: 1280, height: 800 });
    const b = await h.newPage({ width: 360, height: 740 });
    await loginThroughUi(a.page, 'amani');
    await signIn(h, b.page, 'baraka');

    // B waits on the contact list (phone layout: greeting, then contacts): nobody has written to B yet.
    await b.page.goto('/chat');
    await b.page.getByRole('heading', { name: 'Welcome, baraka!' }).waitFor();
    await b.page.getByText('Please select a chat to Start Messaging').waitFor();
    await b.page.getByText('No conversations yet. Find someone by username to send a first message.').waitFor();

    // A finds B by username and opens the conversation.
    await a.page.goto('/chat');
    await a.page.getByRole('heading', { name: 'Welcome, amani!' }).waitFor();
    expect(await a.page.getByRole('link', { name: 'Go to Chats' }).getAttribute('href')).toBe('/chat');
    await a.page.getByLabel('Find someone by username').fill('bar');
    await a.page.getByRole('button', { name: 'Chat with baraka' }).click();
    const aLog = a.page.getByRole('log', { name: 'Messages with baraka' });
    await aLog.getByText('No messages yet. Say hello to baraka!').waitFor();
    expect(await a.page.getByRole('button', { name: /^baraka/ }).getAttribute('aria-current')).toBe('true');
    // Presence is for contacts: before a first message A is not told whether B is online.
    expect(await a.page.getByText('Online', { exact: true }).count()).toBe(0);

    const aInput = a.page.getByLabel('Message to baraka');
    await expect.poll(() => aInput.evaluate((el) => el === document.activeElement)).toBe(true);
    // Blank text is never sent.
    await aInput.fill('   ');
    await aInput.press('Enter');
    expect(await aLog.locator('.chat-msg').count()).toBe(0);
    await aInput.fill('Habari Baraka! Tuonane Nairobi?');
    await aInput.press('Enter');
    expect(await aInput.inputValue()).toBe('');
    await aLog.locator('.chat-msg--self.chat-msg--sent').getByText('Habari Baraka! Tuonane Nairobi?').waitFor();
    // Now they are contacts, and B is on /chat: A sees B online.
    await a.page.getByText('Online', { exact: true }).waitFor();
    expect(await accessibilityProblems(a.page)).toEqual([]);

    // B, not in the conversation, gets an unread badge on A.
    const bContact = b.page.getByRole('button', { name: /^amani/ });
    await b.page.getByRole('button', { name: 'amani, online, 1 unread message' }).waitFor();
    expect(await bContact.locator('.chat-unread').innerText()).toBe('1');
    expect(await accessibilityProblems(b.page)).toEqual([]);

    // B opens it: the badge clears (on the server too) and the message is there.
    await bContact.click();
    const bLog = b.page.getByRole('log', { name: 'Messages with amani' });
    await bLog.getByText('Habari Baraka! Tuonane Nairobi?').waitFor();
    await expect
      .poll(async () => (await h.server.api('GET', '/api/messages/unread', { token: baraka.token })).body)
      .toEqual({});

    // B replies with text plus an emoji chosen from the picker.
    const bInput = b.page.getByLabel('Message to amani');
    await bInput.fill('Sawa sawa ');
    const toggle = b.page.getByRole('button', { name: 'Emoji picker' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    // Whichever emoji the grid shows first (native glyph support differs between machines).
    const emoji = b.page.locator('.chat-emoji button[data-epr-unified]').first();
    await emoji.waitFor();
    const unified = (await emoji.getAttribute('data-epr-unified'))!;
    const glyph = String.fromCodePoint(...unified.split('-').map((hex) => parseInt(hex, 16)));
    await emoji.click();
    await expect.poll(() => bInput.inputValue()).toBe(`Sawa sawa ${glyph}`);
    // The icon toggles the picker closed again.
    await toggle.click();
    await b.page.locator('.chat-emoji').waitFor({ state: 'detached' });
    await bInput.press('Enter');
    expect(await bInput.inputValue()).toBe('');
    await bLog.locator('.chat-msg--self.chat-msg--sent').getByText(`Sawa sawa ${glyph}`).waitFor();
    // The picker keeps its own recently used list.
    expect(await b.page.evaluate(() => localStorage.getItem('epr_suggested'))).toContain(unified);

    // A sees the reply live, in B's conversation, as B's message; no badge since it is open.
    await aLog.locator('.chat-msg--other').getByText(`Sawa sawa ${glyph}`).waitFor();
    expect(await a.page.getByRole('button', { name: /^baraka/ }).locator('.chat-unread').count()).toBe(0);

    // Back to the list on the phone; the badge stays cleared.
    await b.page.getByRole('button', { name: 'Back to contacts' }).click();
    await b.page.getByRole('heading', { name: 'Welcome, baraka!' }).waitFor();
    expect(await b.page.getByRole('button', { name: /^amani/ }).locator('.chat-unread').count()).toBe(0);
    // Keyboard focus returns to the contact that was open.
    await expect.poll(() => b.page.evaluate(() => document.activeElement?.getAttribute('data-contact-id'))).toBe(amani.user._id);

    // A message for a conversation that is not open lands only in its own conversation.
    await h.server.api('POST', '/api/messages/addmsg', {
      token: chebet.token,
      body: { from: chebet.user._id, to: amani.user._id, message: 'Niko Mombasa leo' },
    });
    await a.page.getByRole('button', { name: /^chebet.*1 unread message$/ }).waitFor();
    expect(await aLog.getByText('Niko Mombasa leo').count()).toBe(0);

    expect(seriousErrors(a.errors)).toEqual([]);
    expect(seriousErrors(b.errors)).toEqual([]);
  });

  it('a new user finds someone by username search and sends the first message; both then have each other as contacts', async () => {
    const [kamau, wairimu] = [await h.server.createUser('kamau'), await h.server.createUser('wairimu')];
    await setAvatar(h, kamau, '#1a56db');
    await setAvatar(h, wairimu, '#f2a900');
    const { page, errors } = await h.newPage({ width: 1280, height: 800 });
    await signIn(h, page, 'kamau');
    await page.goto('/chat');
    await page.getByText('No conversations yet. Find someone by username to send a first message.').waitFor();

    const search = page.getByLabel('Find someone by username');
    await search.fill('zzz');
    await page.getByText('No one found whose username starts with “zzz”.').waitFor();
    // Any case; the caller is never among the results.
    await search.fill('WAI');
    const results = page.getByRole('list', { name: 'Users starting with WAI' });
    await results.getByRole('button', { name: 'Chat with wairimu' }).waitFor();
    await search.fill('ka');
    await page.getByText('No one found whose username starts with “ka”.').waitFor();
    await search.fill('wai');
    await page.getByRole('button', { name: 'Chat with wairimu' }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Chat with wairimu' }).click();

    // The search is cleared and the conversation opens, with wairimu on top of the list.
    expect(await search.inputValue()).toBe('');
    const log = page.getByRole('log', { name: 'Messages with wairimu' });
    await log.getByText('No messages yet. Say hello to wairimu!').waitFor();
    expect(await page.getByRole('button', { name: /^wairimu/ }).getAttribute('aria-current')).toBe('true');
    await page.getByLabel('Message to wairimu').fill('Hujambo Wairimu, tuonane Kisumu?');
    await page.getByRole('button', { name: 'Send message' }).click();
    await log.locator('.chat-msg--self.chat-msg--sent').getByText('Hujambo Wairimu, tuonane Kisumu?').waitFor();

    // The server now counts them as each other's contacts.
    await page.reload();
    await page.getByRole('log', { name: 'Messages with wairimu' }).getByText('Hujambo Wairimu, tuonane Kisumu?').waitFor();
    const theirs = await h.server.api('GET', `/api/auth/allusers/${wairimu.user._id}`, { token: wairimu.token });
    expect(theirs.body).toEqual([{ _id: kamau.user._id, username: 'kamau', avatarImage: expect.any(String) }]);
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('pages back through history when scrolled up, with the count of the whole conversation', async () => {
    for (let i = 1; i <= 70; i += 1) {
      await h.server.api('POST', '/api/messages/addmsg', {
        token: chebet.token,
        body: { from: chebet.user._id, to: baraka.user._id, message: `Ujumbe ${i}` },
      });
    }
    const { page, errors } = await h.newPage({ width: 1280, height: 800 });
    await signIn(h, page, 'baraka');
    await page.goto('/chat');
    await page.getByRole('button', { name: /^chebet.*70 unread messages$/ }).click();
    const log = page.getByRole('log', { name: 'Messages with chebet' });
    await log.getByText('Ujumbe 70', { exact: true }).waitFor();
    // Newest in view, the first page holds 30 messages.
    await expect.poll(() => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(2);
    expect(await log.locator('.chat-msg').count()).toBe(30);
    await log.getByText('Showing 30 of 70').waitFor();
    await log.getByRole('button', { name: 'Load earlier messages' }).waitFor();

    // Scrolled to the top, the page before loads above, and the reading position is kept.
    await log.evaluate((el) => el.scrollTo({ top: 0 }));
    await log.getByText('Ujumbe 11', { exact: true }).waitFor();
    await log.getByText('Showing 60 of 70').waitFor();
    expect(await log.locator('.chat-msg').count()).toBe(60);
    expect(await log.evaluate((el) => el.scrollTop)).toBeGreaterThan(100);

    // The button loads the last (oldest) page (clicked where it is: scrolling it into view would load the page by itself).
    await log.getByRole('button', { name: 'Load earlier messages' }).dispatchEvent('click');
    await log.getByText('Ujumbe 1', { exact: true }).waitFor();
    await log.getByText('This is the start of your conversation with chebet.').waitFor();
    expect(await log.locator('.chat-msg').count()).toBe(70);
    expect(await log.getByText(/^Showing \d+ of \d+$/).count()).toBe(0);

    // A live message keeps arriving at the bottom.
    await h.server.api('POST', '/api/messages/addmsg', { token: chebet.token, body: { from: chebet.user._id, to: baraka.user._id, message: 'Ujumbe mpya' } });
    await log.getByText('Ujumbe mpya', { exact: true }).waitFor();
    expect(await log.locator('.chat-msg').last().textContent()).toContain('Ujumbe mpya');
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('shows failures: contacts that fail to load, and a message that fails to send, with retry', async () => {
    const dalila = await h.server.createUser('dalila');
    await setAvatar(h, dalila, '#1a56db');
    await h.server.api('POST', '/api/messages/addmsg', {
      token: chebet.token,
      body: { from: chebet.user._id, to: dalila.user._id, message: 'Karibu Tukio' },
    });
    const { page, errors } = await h.newPage({ width: 800, height: 700 });
    await loginThroughUi(page, 'dalila');

    let failContacts = true;
    await page.route('**/api/messages/contacts**', (route) =>
      failContacts
        ? route.fulfill({ status: 429, contentType: 'application/json', body: JSON.stringify({ msg: 'Too many requests, slow down.' }) })
        : route.continue(),
    );
    // No realtime connection: sending falls back to HTTP, whose first attempt fails.
    await page.route('**/socket.io/**', (route) => route.abort());
    let failSend = true;
    await page.route('**/api/messages/addmsg', (route) => {
      if (!failSend) return route.continue();
      failSend = false;
      return route.fulfill({ status: 429, contentType: 'application/json', body: JSON.stringify({ msg: 'Slow down.' }) });
    });

    await page.goto('/chat');
    await page.getByText('Too many requests, slow down.').waitFor();
    failContacts = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('button', { name: 'chebet, 1 unread message' }).click();
    await page.getByText(/Connection lost/).waitFor();

    const log = page.getByRole('log', { name: 'Messages with chebet' });
    await log.getByText('Karibu Tukio').waitFor();
    await page.getByLabel('Message to chebet').fill('Asante sana');
    await page.getByRole('button', { name: 'Send message' }).click();
    const failed = log.locator('.chat-msg--failed');
    await failed.getByText('Slow down.').waitFor();
    await failed.getByRole('button', { name: 'Retry' }).click();
    await log.locator('.chat-msg--self.chat-msg--sent').getByText('Asante sana').waitFor();
    expect(await log.locator('.chat-msg--failed').count()).toBe(0);

    const stored = await h.server.api('POST', '/api/messages/getmsg', {
      token: chebet.token,
      body: { from: chebet.user._id, to: dalila.user._id },
    });
    expect(stored.body.map((m: { message: string }) => m.message)).toEqual(['Karibu Tukio', 'Asante sana']);
    // Aborted socket requests are the test's doing.
    expect(seriousErrors(errors).filter((e) => !/ERR_FAILED/.test(e))).toEqual([]);
  });

  it('logout in the conversation header clears all local storage and goes to /login', async () => {
    const { page } = await h.newPage({ width: 1280, height: 800 });
    await loginThroughUi(page, 'amani');
    await page.evaluate(() => localStorage.setItem('epr_suggested', '[]'));
    await page.goto('/chat');
    await page.getByRole('button', { name: /^baraka/ }).click();
    // The conversation's own Logout, not the site header's (which keeps other keys): the
    // conversation may still be opening when the click is attempted.
    await page.getByRole('region', { name: 'baraka' }).getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    // A plain login afterwards goes home, not back into the old conversation.
    await loginThroughUi(page, 'amani');
  });
});
