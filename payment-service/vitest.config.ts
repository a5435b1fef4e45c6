import { defineConfig } from 'vitest/config';

/** @tukio/shared from its TypeScript source, as in server/vitest.config.ts (which says why). */
const conditions = ['@tukio/source', 'node', 'development|production'];

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    include: ['test/**/*.test.ts'],
    // Once per run: the migrated database every stack's API server starts from (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each file starts its own API server, database and payment service; two workers suit 2 cores.
    pool: 'forks',
    maxWorkers: 2,
    // A worker keeps the modules it loaded for its next file: each file starts its own stack anyway, and no file
    // replaces a module (vi.mock). 4 files in one worker: 18.8 -> 10.3 s of CPU (docs/decisions/test-speed.md).
    isolate: false,
  },
});
