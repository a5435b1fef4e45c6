import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each file starts its own API server, database and payment service; two workers suit 2 cores.
    pool: 'forks',
    maxWorkers: 2,
  },
});
