import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { server } from './server.ts';

// An unexpected console error fails the test that caused it (tests that expect one mock console.error).
let consoleErrors: unknown[][] = [];
beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
});

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
  const errors = consoleErrors;
  vi.restoreAllMocks();
  if (errors.length > 0) {
    throw new Error(`console.error inesperado:\n${errors.map((a) => a.map(String).join(' ')).join('\n')}`);
  }
});
afterAll(() => server.close());
