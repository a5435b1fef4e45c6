import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveTicket, insertEvent } from '../../server/test/helpers/community.js';
import { accessibilityProblems, loginThroughUi, screenshotsAtWidths, setAvatar } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * /admin › Account deletions on request at phone width (393px), in English and Kiswahili
 * (docs/decisions/data-rights.md, "Deleting an account"): an administrator finds the account of someone who asked
 * in writing, deletes it with a required reason through a confirmation dialog, sees it among the scheduled
 * deletions and undoes it; an account holding tickets to an event still to come is refused with the reason why.
 */

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ ACCOUNT_DELETION_GRACE_DAYS: '12' });
  // Without an avatar, signing in leads to /setAvatar first.
  await setAvatar(h, await h.server.loginAdmin());
  await h.server.createUser('wambui');
  const mutua = await h.server.createUser('mutua');
  await giveTicket(h.server, await insertEvent(h.server, { daysFromNow: 6, title: 'Naivasha Sound Fest' }), mutua.user._id);
});

afterAll(async () => {
  await h?.close();
});

/** 'ok' when the account can log in, else the refusal's code (`account_deactivated` while being deleted). */
const loginStatus = async (username: string) => {
  const answer = (await h.server.api('POST', '/api/auth/login', { body: { username, password: 'secret123' } })).body as { status?: boolean; code?: string };
  return answer.status === true ? 'ok' : answer.code;
};

describe('Account deletions on request (admin)', () => {
  it('deletes an account with a reason after confirming, lists it as scheduled, and undoes it', async () => {
    const { page, errors } = await h.newPage({ width: 393, height: 852 });
    await loginThroughUi(page, 'admin', 'admin-password');
    await page.goto('/admin');
    const section = page.getByRole('region', { name: 'Account deletions on request' });
    await section.getByText('is erased after 12 days', { exact: false }).first().waitFor();
    await section.getByText('No deletion is scheduled.').waitFor();

    // Refused with what to settle first: Mutua holds a ticket to a festival still to come.
    await section.getByLabel('Find an account').fill('mutu');
    await section.getByRole('button', { name: 'Delete the account of mutua on request' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the account of mutua?' });
    await dialog.getByLabel('Reason and reference of the written request').fill('Letter of 2 May, ref DP-31');
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await dialog.getByRole('alert').getByText('tickets to events still to come', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await section.getByLabel('Find an account').fill('wamb');
    await section.getByRole('button', { name: 'Delete the account of wambui on request' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete the account of wambui?' });
    // The reason is required: nothing happens without it.
    await confirm.getByRole('button', { name: 'Delete account' }).click();
    await confirm.getByRole('alert').getByText('Give the reason and the request', { exact: false }).waitFor();
    expect(await loginStatus('wambui')).toBe('ok');
    await confirm.getByLabel('Reason and reference of the written request').fill('Letter of 2 May, ref DP-30');
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshotsAtWidths(page, 'admin-account-deletion-dialog');
    await confirm.getByRole('button', { name: 'Delete account' }).click();
    await confirm.waitFor({ state: 'hidden' });

    const scheduled = section.getByRole('listitem').filter({ hasText: 'Letter of 2 May, ref DP-30' });
    await scheduled.getByText('wambui').waitFor();
    await expect.poll(() => loginStatus('wambui')).toBe('account_deactivated');
    await screenshotsAtWidths(page, 'admin-account-deletion-scheduled', { element: section });

    await section.getByRole('button', { name: 'Undo the deletion of wambui' }).click();
    await section.getByText('No deletion is scheduled.').waitFor();
    expect(await loginStatus('wambui')).toBe('ok');
    expect(seriousErrors(errors)).toEqual([]);
  });

  it('reads in Kiswahili', async () => {
    const { page, errors } = await h.newPage({ width: 393, height: 852 });
    await loginThroughUi(page, 'admin', 'admin-password');
    await page.getByRole('combobox', { name: /Language|Lugha/ }).selectOption('sw');
    await page.waitForFunction(() => document.documentElement.lang === 'sw');
    await page.goto('/admin');
    const section = page.getByRole('region', { name: 'Kufuta akaunti kwa ombi' });
    await section.getByText('kufutwa baada ya siku 12', { exact: false }).first().waitFor();
    await section.getByLabel('Tafuta akaunti').fill('wamb');
    await section.getByRole('button', { name: 'Futa akaunti ya wambui kwa ombi' }).click();
    await page.getByRole('dialog', { name: 'Ufute akaunti ya wambui?' }).waitFor();
    await screenshotsAtWidths(page, 'admin-account-deletion-dialog-sw');
    expect(seriousErrors(errors)).toEqual([]);
  });
});
