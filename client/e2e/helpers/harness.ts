import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { onTestFinished } from 'vitest';
import { loadPaymentConfig } from '../../../payment-service/src/config.js';
import { startPaymentService, type RunningPaymentService } from '../../../payment-service/src/start.js';
import { startTestSimulator, type TestSimulator } from '../../../payment-service/test/helpers/daraja-simulator.js';
import { freePort, startTestServer, type TestServer } from '../../../server/test/helpers/test-server.js';
import { openBrowser } from './chromium.js';

const clientDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');

export interface HarnessOptions {
  /**
   * Also start the Daraja simulator and the payment service (no reconciler) on random ports, wired to the
   * server (PAYMENT_PORT, DARAJA_SIMULATOR_URL), which the browser reaches through the server's /pay and
   * /simulator; values override their configuration (SIMULATOR_* the simulator's, e.g. SIMULATOR_DELAY_MS).
   */
  payments?: boolean | Record<string, string>;
}

export interface Harness {
  server: TestServer;
  /** Present when started with `{ payments }`. */
  payments: RunningPaymentService | undefined;
  /** The Daraja simulator, present with `payments`. */
  simulator: TestSimulator | undefined;
  browser: Browser;
  /** A fresh browser context (its own localStorage) with a page that records console errors. */
  newPage(options?: { width?: number; height?: number; javaScriptEnabled?: boolean; serviceWorker?: boolean }): Promise<{ context: BrowserContext; page: Page; errors: string[] }>;
  close(): Promise<void>;
}

/** The real server (fresh database, real SMTP inbox) serving the built client, plus headless Chromium. */
export async function startHarness(env: Record<string, string> = {}, options: HarnessOptions = {}): Promise<Harness> {
  // Random ports for both (the API server's comes from startTestServer): nothing may assume 5000 or 27684.
  const paymentPort = options.payments ? String(await freePort()) : undefined;
  const paymentEnv = typeof options.payments === 'object' ? options.payments : {};
  const paymentsDir = options.payments ? mkdtempSync(path.join(os.tmpdir(), 'tukio-e2e-pay-')) : undefined;
  const simulator = paymentsDir
    ? await startTestSimulator(paymentsDir, {
        SIMULATOR_DELAY_MS: '1000',
        SIMULATOR_CALLBACK_ORIGINS: `http://127.0.0.1:${paymentPort}`,
        ...Object.fromEntries(Object.entries(paymentEnv).filter(([name]) => name.startsWith('SIMULATOR_'))),
      })
    : undefined;
  const server = await startTestServer({
    CLIENT_DIST: clientDist,
    ...(paymentPort ? { PAYMENT_PORT: paymentPort } : {}),
    ...(simulator ? { DARAJA_SIMULATOR_URL: simulator.url } : {}),
    STK_RATE_LIMIT_PER_IP: '1000',
    STK_RATE_LIMIT_PER_USER: '1000',
    STK_RATE_LIMIT_PER_USER_DAY: '1000',
    STK_RATE_LIMIT_PER_PHONE: '1000',
    ...env,
  });
  let payments: RunningPaymentService | undefined;
  if (paymentsDir && simulator) {
    const config = loadPaymentConfig({
      NODE_ENV: 'test',
      PAYMENT_PORT: server.config.paymentPort.toString(),
      DATA_DIR: paymentsDir,
      API_URL: server.url,
      // The key startTestServer gives the API server.
      INTERNAL_API_KEY: server.config.internalApiKey,
      CORS_ORIGINS: server.url,
      CALLBACK_SECRET: 'e2e-callback-secret-0123456789',
      ...simulator.paymentEnv,
      RECONCILE_INTERVAL_MS: '0',
      LOG_LEVEL: 'silent',
      ...paymentEnv,
    });
    try {
      payments = await startPaymentService(config, { host: '127.0.0.1' });
    } catch (error) {
      await simulator.close();
      await server.close();
      rmSync(paymentsDir, { recursive: true, force: true });
      throw error;
    }
  }
  const browser = await openBrowser();
  const contexts: BrowserContext[] = [];
  return {
    server,
    payments,
    simulator,
    browser,
    async newPage(options = {}) {
      const context = await browser.newContext({
        baseURL: server.url,
        viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
        javaScriptEnabled: options.javaScriptEnabled ?? true,
      });
      contexts.push(context);
      // The app's service worker precaches every file of the build in each new context: most of a page's CPU in
      // Chromium, for tests that are not about working offline. Its registration fails here as a browser without
      // room for it would (the app carries on online-only); `serviceWorker: true` keeps it.
      if (!options.serviceWorker) {
        await context.addInitScript(() => {
          if ('serviceWorker' in navigator) navigator.serviceWorker.register = () => Promise.reject(new Error('service worker off in this test'));
        });
      }
      // A test's pages close when it ends: an open page keeps rendering and polling, and Chromium's CPU was most
      // of the browser suite's. Pages opened outside a test (beforeAll) close with the harness.
      try {
        onTestFinished(() => context.close().catch(() => undefined));
      } catch {
        // not inside a test
      }
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
      // A shared Chromium is only disconnected from (its contexts of this file close); one of our own is closed.
      await browser.close();
      await payments?.close();
      await simulator?.close();
      await server.close();
      if (paymentsDir) rmSync(paymentsDir, { recursive: true, force: true });
    },
  };
}

/** Console errors that mean the page is broken: script errors and Content-Security-Policy refusals. */
export function seriousErrors(errors: string[]): string[] {
  return errors.filter((error) => !/Failed to load resource: the server responded with a status of 4\d\d/.test(error));
}
