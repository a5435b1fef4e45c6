import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { catalogs } from './build/catalogs-plugin.js';

/*
 * The client's unit tier: reducers, pure functions and hooks or components rendered with Testing Library
 * in happy-dom, no server and no browser. Test files sit beside the code they test (src/**\/*.test.ts(x)).
 * Browser journeys are the e2e tier (vitest.e2e.config.ts).
 */
export default defineConfig({
  // The catalogs plugin registers each module's English texts, as the build does: tests read the real words.
  plugins: [react(), catalogs()],
  resolve: { conditions: ['@tukio/source'] },
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    setupFiles: ['src/test-setup.ts'],
  },
});
