import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems, createApprovedPaidEvent, kenyanDay, screenshotsAtWidths, type Session, setAvatar, signIn } from './helpers/browser.js';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * Integrations on /payouts at phone width, against the real API server: an organiser creates an API key, sees
 * it once (then never again), the key opens /api/v1, and revoking it in the page shuts it out.
 */

let h: Harness;
let organiser: Session;

beforeAll(async () => {
  h = await startHarness();
  organiser = await h.server.createUser('keyorganiser');
  await setAvatar(h, organiser);
  await createApprovedPaidEvent(h, organiser, {
    title: 'Nairobi Integrations Night',
    description: 'Talks in the park.',
    date: `${kenyanDay(20)}T18:00`,
    location: 'Uhuru Park, Nairobi',
    ticketPrice: 1000,
    capacity: 100,
  });
});

afterAll(async () => {
  await h?.close();
});

const v1Events = (key: string) => h.server.api('GET', '/api/v1/events', { headers: { authorization: `Bearer ${key}` } });

describe('integrations in the browser', () => {
  it('an organiser creates an API key, sees it once and revokes it, at phone width', async () => {
    const { page, errors } = await h.newPage({ width: 393, height: 852 });
    await signIn(h, page, organiser.user.username);
    await page.goto('/payouts');
    const section = page.getByRole('region', { name: 'Integrations' });
    await section.getByRole('heading', { name: 'API keys' }).waitFor();

    await section.getByLabel('Key name').fill('Door scanner');
    await section.getByRole('button', { name: 'Create key' }).click();
    const shown = section.getByTestId('shown-once');
    await shown.waitFor();
    const key = (await shown.textContent())!.trim();
    expect(key).toMatch(/^tk_live_/);
    await section.getByText('Copy it now: it is shown only this once.').waitFor();
    expect((await v1Events(key)).status).toBe(200);
    await screenshotsAtWidths(page, 'integrations-key-shown', { fullPage: true });

    await section.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    // The list names the key by its start only.
    await section.getByText('Door scanner').waitFor();
    expect(await page.getByText(key).count()).toBe(0);

    await section.getByRole('button', { name: 'Revoke Door scanner' }).click();
    await section.getByText(/^Revoked /).waitFor();
    expect((await v1Events(key)).status).toBe(401);

    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(393);
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshotsAtWidths(page, 'integrations', { fullPage: true });
    expect(seriousErrors(errors)).toEqual([]);
  });
});
