// The web app's Vitest project: listed by the root vitest.config.ts, runnable alone from here.
import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  // Pinned so `vitest --config apps/web/vitest.config.ts` from the repo root finds the same files.
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/__tests__/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    restoreMocks: true,
    // jsdom screens with user-event take a few seconds on a loaded 2-core machine; 5 s timed out.
    testTimeout: 30_000,
    unstubGlobals: true,
  },
});
