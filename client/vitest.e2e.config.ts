import { defineConfig } from 'vitest/config';

/*
 * The harness runs the API server and the payment service from their source, and @tukio/shared from its
 * TypeScript source too (its exports' "@tukio/source" condition, as in server/vitest.config.ts), so a new
 * shared module works here without building the package first.
 */
const conditions = ['@tukio/source', 'node', 'development|production'];

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['e2e/**/*.test.ts'],
    // Once per run: the migrated PGlite the API test servers start from, and the Chromium every file connects to.
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 90_000,
    pool: 'forks',
    // Each file runs its own server, payment service and browser. Two files at a time: most of a browser test is
    // waiting (for a page, a poll, a socket), so the suite took 350 s instead of 497 s one file at a time on a quiet
    // 2-core machine (docs/decisions/test-speed.md); tests wait for conditions, never for a fixed time.
    maxWorkers: 2,
    fileParallelism: true,
    // A worker keeps the API server's, the payment service's and Playwright's modules for its next file: each file
    // starts its own servers and contexts anyway, and no file replaces a module (vi.mock). 3 files in one worker:
    // 39 -> 36 s of CPU, all passing (docs/decisions/test-speed.md).
    isolate: false,
  },
});
