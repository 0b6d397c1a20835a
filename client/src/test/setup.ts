import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// findBy and waitFor give a screen up to 20 s (not 1 s) on a busy machine (the browser journeys run
// beside vitest in `npm test`); they return as soon as it shows.
configure({ asyncUtilTimeout: 20_000 });

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
});

// No network in tests: a screen that calls the API sees a failed request (the HTTP client's own
// tests install their small fake server instead).
beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      throw new TypeError('No network in tests');
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});
