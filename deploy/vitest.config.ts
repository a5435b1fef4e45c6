import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Each file runs a whole cluster (HAProxy, several API and payment-service processes): one at a time.
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
