import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn } from './helpers/smtp.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const register = (body: Record<string, unknown>) => t.api('POST', '/api/auth/register', { body });

describe('POST /api/auth/register', () => {
  it.each([
    [{ username: 'ab', email: 'ab@example.com', password: 'secret123' }, 'Username should be greater than 3 characters.', 'username'],
    [{ username: 'abcd', email: 'abcd@example.com', password: '12345' }, 'Password should be equal or greater than 6 characters.', 'password'],
    [{ username: 'abcd', email: '', password: 'secret123' }, 'Email is required.', 'email'],
    [{ username: 'abcd', password: 'secret123' }, 'Email is required.', 'email'],
    [{ username: 'abcd', email: 'not-an-email', password: 'secret123' }, 'Please enter a valid email address.', 'email'],
    [{ username: 'ab<script>', email: 'x@example.com', password: 'secret123' }, 'Username may only contain letters, numbers, dots, dashes and underscores.', 'username'],
    [{ username: 'x'.repeat(31), email: 'x@example.com', password: 'secret123' }, 'Username must be at most 30 characters.', 'username'],
    [{ username: 123, email: 'x@example.com', password: 'secret123' }, 'Username is required.', 'username'],
  ])('refuses %j with a 2xx {status:false, msg}', async (body, msg, field) => {
    const res = await register(body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: false, msg, field });
  });

  it('registers, mails a verification link and refuses duplicates case-insensitively', async () => {
    const res = await register({ username: 'Achieng', email: 'Achieng@Example.com', password: 'secret123' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true, msg: 'Registration successful. Please check your email to verify your account.' });
    const mail = await t.smtp.waitFor('achieng@example.com', /Verify your Tukio email/);
    expect(mail.text).toContain(`${t.config.publicUrl}/verify/`);

    const sameName = await register({ username: 'achieng', email: 'other@example.com', password: 'secret123' });
    expect(sameName.body).toEqual({ status: false, msg: 'Username already used', code: 'username_taken', field: 'username' });
    const sameEmail = await register({ username: 'achieng2', email: 'ACHIENG@example.com', password: 'secret123' });
    expect(sameEmail.body).toEqual({ status: false, msg: 'Email already used', code: 'email_taken', field: 'email' });
  });
});

describe('email verification and login', () => {
  it('refuses login before verification, re-sends the link, then logs in after following it', async () => {
    await register({ username: 'kamau', email: 'kamau@example.com', password: 'secret123' });
    const firstMail = await t.smtp.waitFor('kamau@example.com', /Verify/);

    const early = await t.api('POST', '/api/auth/login', { body: { username: 'kamau', password: 'secret123' } });
    expect(early.status).toBe(200);
    expect(early.body.status).toBe(false);
    expect(early.body.msg).toMatch(/verify your email/i);
    expect(early.body.unverified).toBe(true);

    const bad = await t.api('GET', '/api/auth/verify-email/not-a-real-token-at-all');
    expect(bad.status).toBe(400);

    const token = linkIn(firstMail, 'verify');
    const verified = await t.api('GET', `/api/auth/verify-email/${token}`);
    expect(verified.status).toBe(200);
    // Opening the same link again still reports success rather than confusing the user.
    expect((await t.api('GET', `/api/auth/verify-email/${token}`)).status).toBe(200);

    const res = await t.api('POST', '/api/auth/login', { body: { username: 'kamau', password: 'secret123' } });
    expect(res.body).toMatchObject({ status: true, msg: 'Login successful' });
    expect(typeof res.body.token).toBe('string');
    expect(res.body.user).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      username: 'kamau',
      email: 'kamau@example.com',
      avatarImage: '',
      isAvatarImageSet: false,
      role: 'user',
      language: 'en',
    });
    expect(JSON.stringify(res.body)).not.toContain('password');
  });

  it('logs in with the email address too, case-insensitively', async () => {
    await t.createUser('njeri');
    const res = await t.api('POST', '/api/auth/login', { body: { username: 'NJERI@example.com', password: 'secret123' } });
    expect(res.body.status).toBe(true);
  });

  it.each([
    [{ username: '', password: 'x' }, 'Username is required.'],
    [{ password: 'x' }, 'Username is required.'],
    [{ username: 'someone' }, 'Password is required.'],
    [{ username: 'someone', password: '' }, 'Password is required.'],
    [{ username: 'nobody-here', password: 'secret123' }, 'Incorrect Username or Password'],
  ])('refuses %j', async (body, msg) => {
    const res = await t.api('POST', '/api/auth/login', { body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: false, msg });
  });

  it('refuses a wrong password with the same message as an unknown user', async () => {
    await t.createUser('otieno');
    const res = await t.api('POST', '/api/auth/login', { body: { username: 'otieno', password: 'wrong-password' } });
    expect(res.body).toEqual({ status: false, msg: 'Incorrect Username or Password', code: 'bad_login' });
  });

  it('resend-verification answers the same whether or not the account exists', async () => {
    const unknown = await t.api('POST', '/api/auth/resend-verification', { body: { username: 'ghost-user' } });
    expect(unknown.body.status).toBe(true);
    const missing = await t.api('POST', '/api/auth/resend-verification', { body: {} });
    expect(missing.body).toMatchObject({ status: false, msg: 'Username or email is required.' });
  });
});

describe('tokens', () => {
  it('logout invalidates the token', async () => {
    const { token, user } = await t.createUser('mutua');
    expect((await t.api('GET', `/api/auth/user/${user._id}`, { token })).status).toBe(200);
    const out = await t.api('POST', '/api/auth/logout', { token });
    expect(out.body).toEqual({ status: true });
    expect((await t.api('GET', `/api/auth/user/${user._id}`, { token })).status).toBe(401);
    expect((await t.api('POST', '/api/auth/logout')).status).toBe(401);
  });

  it('rejects forged, malformed and expired tokens', async () => {
    const { user } = await t.createUser('chebet');
    const forged = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl';
    expect((await t.api('GET', `/api/auth/user/${user._id}`, { token: forged })).status).toBe(401);
    expect((await t.api('GET', `/api/auth/user/${user._id}`, { headers: { authorization: 'Basic abc' } })).status).toBe(401);

    // Long enough to be used once on a busy machine (exp counts from the whole second of issue).
    const short = await startTestServer({ JWT_EXPIRES_IN: '4s' });
    try {
      const { token, user: shortUser } = await short.createUser('kiprop');
      expect((await short.api('GET', `/api/auth/user/${shortUser._id}`, { token })).status).toBe(200);
      await expect.poll(async () => (await short.api('GET', `/api/auth/user/${shortUser._id}`, { token })).status, { timeout: 10_000, interval: 250 }).toBe(401);
      const expired = await short.api('GET', `/api/auth/user/${shortUser._id}`, { token });
      expect(expired.status).toBe(401);
      expect(expired.body.msg).toBe('Please log in to continue.');
    } finally {
      await short.close();
    }
  });
});

describe('forgot and reset password', () => {
  it('answers the same for unknown emails and sends nothing', async () => {
    await t.createUser('nyambura');
    const before = t.smtp.inbox.length;
    const res = await t.api('POST', '/api/auth/forgot-password', { body: { email: 'nobody@example.com' } });
    expect(res.body.status).toBe(true);
    // Account emails go out one at a time in request order: once a later reset email has arrived, the
    // unknown address's turn has passed.
    await t.api('POST', '/api/auth/forgot-password', { body: { email: 'nyambura@example.com' } });
    await t.smtp.waitFor('nyambura@example.com', /Reset your Tukio password/);
    expect(t.smtp.inbox.slice(before).map((mail) => mail.to)).toEqual(['nyambura@example.com']);
  });

  it('refuses a missing or malformed email', async () => {
    expect((await t.api('POST', '/api/auth/forgot-password', { body: {} })).body).toMatchObject({ status: false, msg: 'Email is required.' });
    expect((await t.api('POST', '/api/auth/forgot-password', { body: { email: 'nope' } })).body).toMatchObject({
      status: false,
      msg: 'Please enter a valid email address.',
    });
  });

  it('resets through the emailed link once, signs out old sessions, and the new password works', async () => {
    const { token: oldToken, user } = await t.createUser('wekesa');
    await t.api('POST', '/api/auth/forgot-password', { body: { email: 'wekesa@example.com' } });
    const mail = await t.smtp.waitFor('wekesa@example.com', /Reset your Tukio password/);
    const resetToken = linkIn(mail, 'reset-password');

    const short = await t.api('POST', `/api/auth/reset-password/${resetToken}`, { body: { password: '123' } });
    expect(short.body).toMatchObject({ status: false, msg: 'Password must be at least 6 characters long.' });

    const ok = await t.api('POST', `/api/auth/reset-password/${resetToken}`, { body: { password: 'brand-new-pass' } });
    expect(ok.body.status).toBe(true);
    const again = await t.api('POST', `/api/auth/reset-password/${resetToken}`, { body: { password: 'another-pass' } });
    expect(again.body).toEqual({ status: false, msg: 'This link is invalid or has expired.', code: 'link_invalid' });

    expect((await t.api('GET', `/api/auth/user/${user._id}`, { token: oldToken })).status).toBe(401);
    expect((await t.api('POST', '/api/auth/login', { body: { username: 'wekesa', password: 'secret123' } })).body.status).toBe(false);
    expect((await t.api('POST', '/api/auth/login', { body: { username: 'wekesa', password: 'brand-new-pass' } })).body.status).toBe(true);
  });
});

describe('user profile and avatar', () => {
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#c00"/></svg>').toString('base64');

  it('lets a user read and edit only their own profile; admins may read and edit anyone', async () => {
    const a = await t.createUser('akinyi');
    const b = await t.createUser('baraka');
    const admin = await t.loginAdmin();

    const own = await t.api('GET', `/api/auth/user/${a.user._id}`, { token: a.token });
    expect(own.body.user).toMatchObject({ _id: a.user._id, username: 'akinyi', email: 'akinyi@example.com', role: 'user' });
    expect((await t.api('GET', `/api/auth/user/${a.user._id}`, { token: b.token })).status).toBe(403);
    expect((await t.api('GET', `/api/auth/user/${a.user._id}`)).status).toBe(401);
    expect((await t.api('GET', `/api/auth/user/${a.user._id}`, { token: admin.token })).status).toBe(200);
    expect((await t.api('GET', '/api/auth/user/not-an-id', { token: a.token })).status).toBe(400);

    const edited = await t.api('PUT', `/api/auth/user/${a.user._id}`, { token: a.token, body: { username: 'akinyi_o' } });
    expect(edited.status).toBe(200);
    expect(edited.body.user.username).toBe('akinyi_o');

    const stolen = await t.api('PUT', `/api/auth/user/${a.user._id}`, { token: b.token, body: { username: 'hacked' } });
    expect(stolen.status).toBe(403);
    const taken = await t.api('PUT', `/api/auth/user/${b.user._id}`, { token: b.token, body: { username: 'AKINYI_O' } });
    expect(taken.status).toBe(409);
    expect(taken.body.msg).toBe('Username already used');
    const adminEdit = await t.api('PUT', `/api/auth/user/${b.user._id}`, { token: admin.token, body: { username: 'baraka_k' } });
    expect(adminEdit.body.user.username).toBe('baraka_k');
  });

  it('a changed email must be verified again', async () => {
    const a = await t.createUser('halima');
    const res = await t.api('PUT', `/api/auth/user/${a.user._id}`, { token: a.token, body: { email: 'halima.new@example.com' } });
    expect(res.body.user.email).toBe('halima.new@example.com');
    await t.smtp.waitFor('halima.new@example.com', /Verify/);
    expect((await t.api('POST', '/api/auth/login', { body: { username: 'halima', password: 'secret123' } })).body.unverified).toBe(true);
  });

  it('sets an avatar for oneself only, and only a real SVG', async () => {
    const a = await t.createUser('zawadi');
    const b = await t.createUser('jabari');
    const res = await t.api('POST', `/api/auth/setavatar/${a.user._id}`, { token: a.token, body: { image: svg } });
    expect(res.body).toEqual({ isSet: true, image: svg });
    const user = await t.api('GET', `/api/auth/user/${a.user._id}`, { token: a.token });
    expect(user.body.user).toMatchObject({ avatarImage: svg, isAvatarImageSet: true });

    expect((await t.api('POST', `/api/auth/setavatar/${a.user._id}`, { token: b.token, body: { image: svg } })).status).toBe(403);
    expect((await t.api('POST', `/api/auth/setavatar/${a.user._id}`, { body: { image: svg } })).status).toBe(401);

    const png = Buffer.from('\x89PNG\r\n\x1a\n....').toString('base64');
    const notSvg = await t.api('POST', `/api/auth/setavatar/${a.user._id}`, { token: a.token, body: { image: png } });
    expect(notSvg.status).toBe(400);
    expect(notSvg.body.msg).toBe('The avatar must be a base64-encoded SVG image.');
    const scripted = Buffer.from('<svg onload="alert(1)"></svg>').toString('base64');
    expect((await t.api('POST', `/api/auth/setavatar/${a.user._id}`, { token: a.token, body: { image: scripted } })).body.msg).toBe(
      'The avatar contains content that is not allowed.',
    );
    const empty = await t.api('POST', `/api/auth/setavatar/${a.user._id}`, { token: a.token, body: {} });
    expect(empty.body.msg).toBe('Please select an avatar');
    const huge = await t.api('POST', `/api/auth/setavatar/${a.user._id}`, { token: a.token, body: { image: 'A'.repeat(200_000) } });
    expect(huge.status).toBe(400);
  });

  it('refuses an avatar with anything outside the drawing allow-list: handlers, javascript: and data:text/html links, however spelled', async () => {
    const a = await t.createUser('salama');
    const open = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4">';
    const payloads = [
      `${open}<rect width="4" height="4"/onload="alert(1)"/></svg>`,
      `${open}<rect width="4" height="4" onload="alert(1)"/></svg>`,
      `${open}<a href="jav&#x61;script:alert(1)"><rect width="4" height="4"/></a></svg>`,
      `${open}<a xlink:href="javascript:alert(1)" xmlns:xlink="http://www.w3.org/1999/xlink"><rect width="4" height="4"/></a></svg>`,
      `${open}<rect width="4" height="4" fill="url(javascript:alert(1))"/></svg>`,
      `${open}<image href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==" width="4" height="4"/></svg>`,
      `${open}<rect width="4" height="4" mask="url(data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;)"/></svg>`,
      `${open}<metadata><x:script xmlns:x="http://www.w3.org/2000/svg">alert(1)</x:script></metadata></svg>`,
    ];
    for (const markup of payloads) {
      const res = await t.api('POST', `/api/auth/setavatar/${a.user._id}`, { token: a.token, body: { image: Buffer.from(markup).toString('base64') } });
      expect(res.status, markup).toBe(400);
      expect(res.body).toMatchObject({ code: 'avatar_unsafe', field: 'image' });
    }
    // Nothing was stored.
    expect((await t.api('GET', `/api/auth/user/${a.user._id}`, { token: a.token })).body.user).toMatchObject({ avatarImage: '', isAvatarImageSet: false });

    // What our avatar picker draws (DiceBear thumbs, licence metadata and an internal mask) is accepted.
    const generated = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" fill="none" shape-rendering="auto" width="128" height="128">' +
        '<metadata xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/">' +
        '<rdf:RDF><rdf:Description><dc:title>Thumbs</dc:title><dcterms:license xsi:type="dcterms:URI">https://creativecommons.org/publicdomain/zero/1.0/</dcterms:license></rdf:Description></rdf:RDF></metadata>' +
        '<mask id="viewboxMask"><rect width="100" height="100" rx="0" ry="0" x="0" y="0" fill="#fff" /></mask>' +
        '<g mask="url(#viewboxMask)"><rect fill="#0a5b83" width="100" height="100" x="0" y="0" /><path d="M95 53.33C95 29.4 74.85 10 50 10S5 29.4 5 53.33V140h90V53.33Z" fill="#f1f4dc"/></g></svg>',
    ).toString('base64');
    const accepted = await t.api('POST', `/api/auth/setavatar/${a.user._id}`, { token: a.token, body: { image: generated } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  });
});

describe('contact form', () => {
  it('stores and mails the message to the admin address', async () => {
    const res = await t.api('POST', '/api/auth/sendMessage', {
      body: { name: 'Fatuma', email: 'fatuma@example.com', subject: 'Sponsorship', message: 'We would like to sponsor an event.' },
    });
    expect(res.status).toBe(200);
    expect(res.body.msg).toMatch(/thank you/i);
    const mail = await t.smtp.waitFor('admin@example.com', /Sponsorship/);
    expect(mail.text).toContain('We would like to sponsor an event.');
  });

  it('requires all four fields', async () => {
    const res = await t.api('POST', '/api/auth/sendMessage', { body: { name: 'Fatuma', email: 'fatuma@example.com', subject: 'Hi' } });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Message is required.');
  });
});

describe('rate limits', () => {
  it('limits login attempts per account with a clear 429', async () => {
    const limited = await startTestServer({ RATE_LIMIT_MAX: '3' });
    try {
      for (let i = 0; i < 3; i++) await limited.api('POST', '/api/auth/login', { body: { username: 'target', password: `guess-${i}` } });
      const res = await limited.api('POST', '/api/auth/login', { body: { username: 'target', password: 'guess' } });
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ status: false, msg: 'Too many attempts. Please wait a few minutes and try again.' });
    } finally {
      await limited.close();
    }
  });
});

describe('API hygiene', () => {
  it('answers bad JSON and unknown routes with clear 4xx bodies', async () => {
    const bad = await t.api('POST', '/api/auth/login', { raw: '{"username":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('The request body is not valid JSON.');
    const missing = await t.api('GET', '/api/does-not-exist');
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('This API route does not exist.');
  });

  it('reports health', async () => {
    expect((await t.api('GET', '/api/health')).body).toEqual({ status: 'ok' });
  });
});
