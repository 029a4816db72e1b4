import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'whatsapp-cloud-sim', include: ['src/**/*.test.ts'], environment: 'node' },
});
