import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['e2e/**/*.test.ts'],
    testTimeout: 90_000,
    hookTimeout: 90_000,
    pool: 'forks',
    // Each file runs its own server and browser; one at a time keeps a 2-core machine responsive.
    maxWorkers: 1,
    fileParallelism: false,
  },
});
