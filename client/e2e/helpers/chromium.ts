import { chromium, type Browser } from 'playwright-core';

/** Where the run's shared Chromium listens (client/e2e/global-setup.ts); set for every test process. */
export const CHROMIUM_WS_ENV = 'TUKIO_TEST_CHROMIUM_WS';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The run's shared Chromium when the global setup started one, else a Chromium of this file's own. */
export function openBrowser(): Promise<Browser> {
  const shared = process.env[CHROMIUM_WS_ENV];
  if (shared) return chromium.connect(shared);
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}
