import { defineConfig } from 'vitest/config';

/** @tukio/shared from its TypeScript source, as in server/vitest.config.ts (which says why). */
const conditions = ['@tukio/source', 'node', 'development|production'];

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
