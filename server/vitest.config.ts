import { defineConfig } from 'vitest/config';

/**
 * @tukio/shared runs from its TypeScript source here, as in typecheck (tsconfig.json's customConditions) and the
 * client's Vite build: its package.json maps each export's "@tukio/source" condition to src/*.ts, so there is
 * nothing to build first. The built service (node dist/index.js) has no such condition and loads its dist.
 * The other conditions are Vitest's defaults for server code (which these replace).
 */
const conditions = ['@tukio/source', 'node', 'development|production'];

/** Files that replace a module for their own use (vi.mock): they need modules nobody imported before them. */
const ownModuleFiles = ['test/uploads-disk.test.ts'];

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own database; two workers suit the 2-core machines we run on.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      // A worker keeps the modules it loaded for its next file (isolate: false): loading the server's modules cost
      // about 2 s of CPU a file, and each file starts its own servers on its own databases anyway, so no state
      // carries over (docs/decisions/test-speed.md).
      { extends: true, test: { name: 'api', include: ['test/**/*.test.ts'], exclude: ownModuleFiles, isolate: false } },
      { extends: true, test: { name: 'api (own modules)', include: ownModuleFiles, isolate: true } },
    ],
  },
});
