import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousErrors, startHarness, type Harness } from './helpers/harness.js';

/*
 * The API reference at /api/docs is Swagger UI served by the API server itself: it must render in a
 * real browser under the app's Content-Security-Policy (scripts from 'self' only, no CDN), list the
 * operations of the generated document, and expand one to show its request body.
 */

let h: Harness;

beforeAll(async () => {
  h = await startHarness({}, { payments: false });
});

afterAll(async () => {
  await h?.close();
});

describe('API reference', () => {
  it('renders every tag and opens the register operation with its body schema, with no CSP refusal and no request leaving the server', async () => {
    const { context, page, errors } = await h.newPage({ width: 1280, height: 900 });
    const foreign: string[] = [];
    context.on('request', (request) => {
      const url = new URL(request.url());
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== h.server.url) foreign.push(url.href);
    });
    await page.goto('/api/docs');

    const document = (await (await fetch(`${h.server.url}/api/docs/openapi.json`)).json()) as { tags: Array<{ name: string }> };
    await page.getByRole('heading', { name: 'Tukio API' }).waitFor();
    // Swagger UI renders operations as they scroll into view: scroll on until each tag has appeared.
    for (const { name } of document.tags) {
      const tag = page.locator('.opblock-tag', { hasText: name }).first();
      await expect
        .poll(async () => (await tag.isVisible()) || (await page.mouse.wheel(0, 1200), false), { timeout: 30_000, interval: 200 })
        .toBe(true);
    }
    await page.evaluate(() => window.scrollTo(0, 0));

    const register = page.locator('.opblock-post', { hasText: '/api/auth/register' }).first();
    await register.locator('.opblock-summary').first().click();
    await register.getByText('Request body').waitFor();
    await expect(register.locator('.opblock-body').innerText()).resolves.toContain('username');

    expect(seriousErrors(errors)).toEqual([]);
    expect(foreign).toEqual([]);
  });
});
