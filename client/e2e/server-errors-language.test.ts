import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/**
 * A server refusal is shown in the reader's language by its `code` (client/src/lib/errors.ts): Kiswahili from
 * the `errors` catalog, English exactly as the server words it.
 */

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function refusedLogin(language: 'en' | 'sw') {
  const { context, page, errors } = await h.newPage({ width: 360, height: 740 });
  await context.addCookies([{ name: 'lang', value: language, url: h.server.url }]);
  await page.goto('/login');
  await page.locator('input[name="username"]').fill('hakuna_mtu');
  await page.locator('input[name="password"]').fill('secret123');
  await page.locator('input[name="password"]').press('Enter');
  return { page, errors };
}

describe('server errors in the reader language', () => {
  it('says a refused login in Kiswahili for a Kiswahili reader', async () => {
    const { page, errors } = await refusedLogin('sw');
    await page.getByText('Jina la mtumiaji au nenosiri si sahihi').waitFor();
    expect(await page.getByText('Incorrect Username or Password').count()).toBe(0);
    expect(seriousErrors(errors)).toEqual([]);
  });

  it("says it in the server's own words for an English reader", async () => {
    const { page, errors } = await refusedLogin('en');
    await page.getByText('Incorrect Username or Password').waitFor();
    expect(seriousErrors(errors)).toEqual([]);
  });
});
