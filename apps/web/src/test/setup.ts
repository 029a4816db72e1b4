// Test setup for the web project: DOM matchers, a controllable matchMedia, clean DOM per test.
import '@testing-library/jest-dom/vitest';

import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';

import { installMatchMedia } from './match-media';

beforeEach(() => {
  installMatchMedia(false);
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  document.documentElement.className = '';
  document.documentElement.removeAttribute('style');
});
