// Test setup for the web project: DOM matchers, a controllable matchMedia, the msw network boundary,
// and a clean DOM, cookie jar and storage per test.
import '@testing-library/jest-dom/vitest';

import { act, cleanup, configure } from '@testing-library/react';
import { toast } from 'sonner';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

import { resetClientState } from '../lib/client-state';
import { deleteAllCookies } from '../lib/cookies';
import { installMatchMedia } from './match-media';
import { server } from './server';

// findBy*/waitFor wait up to 5 s: a loaded CI machine renders lazy screens slowly.
configure({ asyncUtilTimeout: 10_000 });

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
});

beforeEach(() => {
  installMatchMedia(false);
});

afterEach(async () => {
  // Sonner keeps toasts in module state: without this they reappear in the next test's toaster.
  act(() => {
    toast.dismiss();
  });
  // The toaster applies each toast event in a timer of its own (setTimeout 0): let those run while
  // it is still mounted, or one fires after the file's environment is gone (an unhandled error).
  await act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  cleanup();
  server.resetHandlers();
  resetClientState();
  deleteAllCookies();
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.documentElement.className = '';
  document.documentElement.removeAttribute('style');
});

afterAll(() => {
  server.close();
});
