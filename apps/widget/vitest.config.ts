// The widget's Vitest project (jsdom): listed by the root vitest.config.ts, runnable alone from here.
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';
import { widgetMessages } from './widget-messages.plugin.ts';

export default defineProject({
  // Pinned so `vitest --config apps/widget/vitest.config.ts` from the repo root finds the same files.
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [widgetMessages()],
  test: {
    name: 'widget',
    environment: 'jsdom',
    include: ['src/**/__tests__/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    unstubGlobals: true,
  },
});
