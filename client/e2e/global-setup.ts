import { chromium, type BrowserServer } from 'playwright-core';
import serverSetup from '../../server/test/global-setup.js';
import { CHROMIUM_ARGS, CHROMIUM_WS_ENV } from './helpers/chromium.js';

/*
 * Once per run, before any test process starts (they inherit the environment): the API server's migrated PGlite,
 * and one headless Chromium every file connects to. Each file still gets fresh browser contexts (their own
 * cookies, storage and cache), which is all a test sees of a browser; launching Chromium per file cost about
 * 2 s and 0.6 s of CPU each on a 2-core machine (docs/decisions/test-speed.md).
 */
let browserServer: BrowserServer | undefined;

export default async function setup() {
  await serverSetup();
  browserServer = await chromium.launchServer({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  process.env[CHROMIUM_WS_ENV] = browserServer.wsEndpoint();
  return async () => {
    await browserServer?.close();
  };
}
