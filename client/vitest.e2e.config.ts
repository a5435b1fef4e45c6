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
    // The API server's test servers start from one migrated PGlite made once per run.
    globalSetup: ['../server/test/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 90_000,
    pool: 'forks',
    // Each file runs its own server and browser; one at a time keeps a 2-core machine responsive.
    maxWorkers: 1,
    fileParallelism: false,
  },
});
