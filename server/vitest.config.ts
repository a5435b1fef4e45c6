import { defineConfig } from 'vitest/config';

/**
 * @tukio/shared runs from its TypeScript source here, as in typecheck (tsconfig.json's customConditions) and the
 * client's Vite build: its package.json maps each export's "@tukio/source" condition to src/*.ts, so there is
 * nothing to build first. The built service (node dist/index.js) has no such condition and loads its dist.
 * The other conditions are Vitest's defaults for server code (which these replace).
 */
const conditions = ['@tukio/source', 'node', 'development|production'];

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own database; two workers suit the 2-core machines we run on.
    pool: 'forks',
    maxWorkers: 2,
  },
});
