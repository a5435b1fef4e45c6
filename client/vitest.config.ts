import react from '@vitejs/plugin-react';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { catalogs } from './build/catalogs-plugin.js';

/*
 * The client's unit tier: reducers, pure functions and hooks or components rendered with Testing Library
 * in happy-dom, no server and no browser. Test files sit beside the code they test (src/**\/*.test.ts(x)).
 * Browser journeys are the e2e tier (vitest.e2e.config.ts).
 */

/** Files that replace a module for their own use (vi.mock): they need modules nobody imported before them. */
const ownModuleFiles = [
  'src/features/tickets/components/check-in-page.test.tsx',
  'src/features/tickets/hooks/use-ticket-payment.test.tsx',
  'src/features/tickets/hooks/use-ticket-payment-push.test.tsx',
  'src/features/tickets/hooks/use-staff-access.test.ts',
  'src/features/tickets/hooks/use-check-in-desk.test.ts',
];

export default defineConfig({
  // The catalogs plugin registers each module's English texts, as the build does: tests read the real words.
  plugins: [react(), catalogs()],
  // The shared package's sources, not its build, in happy-dom files and in files that run in Node (widget-build).
  resolve: { conditions: ['@tukio/source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['@tukio/source', ...defaultServerConditions] } },
  test: {
    root: new URL('.', import.meta.url).pathname,
    environment: 'happy-dom',
    setupFiles: ['src/test-setup.ts'],
    projects: [
      // A worker keeps its environment and the modules it loaded for its next file (isolate: false): a fresh
      // happy-dom and module graph per file was most of the tier's time (docs/decisions/test-speed.md).
      { extends: true, test: { name: 'units', include: ['src/**/*.test.{ts,tsx}'], exclude: ownModuleFiles, isolate: false } },
      { extends: true, test: { name: 'units (own modules)', include: ownModuleFiles, isolate: true } },
    ],
  },
});
