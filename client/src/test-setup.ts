import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  // Testing Library unmounts after each test by itself only when Vitest's globals are on; they are off here.
  cleanup();
  // A worker's page outlives a file (isolate: false in vitest.config.ts): nothing stored carries over to the next.
  // (Files that build with Vite run in Node, with no page.)
  if (typeof window === 'undefined') return;
  window.localStorage.clear();
  window.sessionStorage.clear();
});
