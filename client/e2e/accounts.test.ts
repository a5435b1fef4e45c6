import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn } from '../../server/test/helpers/smtp.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('account journey in the browser', () => {
  it('register → emailed link → verify → login → avatar → profile → edit → logout', async () => {
    const { page, errors } = await h.newPage({ width: 360, height: 740 });
    await page.goto('/register');
    await page.getByLabel('Username').fill('wambui');
    await page.getByLabel('Email').fill('wambui@example.com');
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByLabel('Confirm Password').fill('secret12');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect.poll(() => page.getByText('Password and confirm password should be same.').isVisible()).toBe(true);

    await page.getByLabel('Confirm Password').fill('secret123');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.getByText('Registration successful. Please check your email to verify your account.').waitFor();

    // Logging in before verifying is refused with a way to resend the link.
    await page.goto('/login');
    await page.getByLabel('Username').fill('wambui');
    await page.getByLabel('Password').fill('secret123');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByRole('button', { name: 'Resend verification email' }).waitFor();

    const mail = await h.server.smtp.waitFor('wambui@example.com', /Verify your Tukio email/);
    await page.goto(`/verify/${linkIn(mail, 'verify')}`);
    await page.getByRole('heading', { name: 'Email Verified' }).waitFor();
    await page.getByRole('link', { name: 'Go to Login' }).click();

    await page.getByLabel('Username').fill('wambui');
    await page.getByLabel('Password').fill('secret123');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    // A new account has no avatar yet, so it is sent to choose one.
    await page.waitForURL('**/setAvatar');
    await page.getByRole('button', { name: 'Set as Profile Picture' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please select an avatar' }).waitFor();
    await page.getByRole('radio', { name: 'Avatar 3' }).check();
    // Choosing one answers the message, so it is gone before the save and never follows the user onto /profile.
    await page.getByText('Please select an avatar').waitFor({ state: 'detached' });
    const picked = await page.getByRole('img', { name: 'Avatar 3' }).getAttribute('src');
    expect(picked).toMatch(/^data:image\/svg\+xml;base64,/);
    await page.getByRole('button', { name: 'Set as Profile Picture' }).click();

    await page.waitForURL('**/profile');
    await page.getByText('wambui@example.com').waitFor();
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('Username').fill('wambui_k');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('heading', { name: 'wambui_k' }).waitFor();

    const login = await h.server.login('wambui_k', 'secret123');
    // The server stored the generated SVG that was shown (it passed the avatar check unchanged).
    expect(login.user).toMatchObject({
      username: 'wambui_k',
      isAvatarImageSet: true,
      avatarImage: picked?.replace('data:image/svg+xml;base64,', ''),
    });

    // Logout lives in the collapsible menu on a phone-sized screen.
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.goto('/profile');
    await page.waitForURL('**/login');
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('forgot password → emailed link → reset → login with the new password', async () => {
    await h.server.createUser('odhiambo');
    const { page, errors } = await h.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await page.getByLabel('Email').fill('odhiambo@example.com');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByText('Password reset link sent to your email!').waitFor();

    const mail = await h.server.smtp.waitFor('odhiambo@example.com', /Reset your Tukio password/);
    await page.goto(`/reset-password/${linkIn(mail, 'reset-password')}`);
    await page.getByLabel('New Password').fill('short');
    await page.getByLabel('Confirm Password').fill('short');
    await page.getByRole('button', { name: /reset/i }).click();
    await page.getByText('Password must be at least 6 characters long.').waitFor();
    await page.getByLabel('New Password').fill('a-new-secret');
    await page.getByLabel('Confirm Password').fill('a-new-secrex');
    await page.getByRole('button', { name: /reset/i }).click();
    await page.getByText('Passwords do not match.').waitFor();
    await page.getByLabel('Confirm Password').fill('a-new-secret');
    await page.getByRole('button', { name: /reset/i }).click();
    await page.getByText('Password has been reset successfully!').waitFor();
    await page.waitForURL('**/login');

    await page.getByLabel('Username').fill('odhiambo');
    await page.getByLabel('Password').fill('a-new-secret');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/setAvatar');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('shows the 404 page for unknown routes, served by the history fallback', async () => {
    const { page } = await h.newPage();
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await page.getByText('Sorry, the page you are looking for does not exist.').waitFor();
  });

  it('FAQ accordion keeps one item open at a time', async () => {
    const { page } = await h.newPage();
    await page.goto('/about');
    const triggers = page.locator('.faq__trigger');
    // The About page is loaded lazily: wait for it before counting.
    await triggers.first().waitFor();
    expect(await triggers.count()).toBe(5);
    await triggers.nth(0).click();
    expect(await triggers.nth(0).getAttribute('aria-expanded')).toBe('true');
    await triggers.nth(2).click();
    expect(await triggers.nth(0).getAttribute('aria-expanded')).toBe('false');
    expect(await triggers.nth(2).getAttribute('aria-expanded')).toBe('true');
    await triggers.nth(2).click();
    expect(await page.locator('.faq__trigger[aria-expanded="true"]').count()).toBe(0);
  });

  it('contact form sends the message to the admin mailbox and clears', async () => {
    const { page } = await h.newPage();
    await page.goto('/contact');
    await page.getByLabel('Name').fill('Baraka');
    await page.getByLabel('Email').fill('baraka@example.com');
    await page.getByLabel('Subject').fill('Partnership');
    await page.getByLabel('Message').fill('Karibu Eldoret!');
    await page.getByRole('button', { name: /send/i }).click();
    await page.getByText(/thank you for reaching out/i).waitFor();
    expect(await page.getByLabel('Name').inputValue()).toBe('');
    const mail = await h.server.smtp.waitFor('admin@example.com', /Partnership/);
    expect(mail.text).toContain('Karibu Eldoret!');
  });
});
