import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../../server/test/helpers/test-server.js';

const clientDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');

export interface Harness {
  server: TestServer;
  browser: Browser;
  /** A fresh browser context (its own localStorage) with a page that records console errors. */
  newPage(options?: { width?: number; height?: number }): Promise<{ context: BrowserContext; page: Page; errors: string[] }>;
  close(): Promise<void>;
}

/** The real server (fresh database, real SMTP inbox) serving the built client, plus headless Chromium. */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const server = await startTestServer({ CLIENT_DIST: clientDist, ...env });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const contexts: BrowserContext[] = [];
  return {
    server,
    browser,
    async newPage(options = {}) {
      const context = await browser.newContext({
        baseURL: server.url,
        viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
      });
      contexts.push(context);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      return { context, page, errors };
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close();
      await server.close();
    },
  };
}

/** Console errors that mean the page is broken: script errors and Content-Security-Policy refusals. */
export function seriousErrors(errors: string[]): string[] {
  return errors.filter((error) => !/Failed to load resource: the server responded with a status of 4\d\d/.test(error));
}
