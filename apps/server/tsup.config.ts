import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineConfig({
  entry: {
    main: 'src/main.ts',
    worker: 'src/worker.ts',
    // The SMTP threads' entry (channels/email-smtp/smtp-threads.ts starts it beside the chunks).
    'smtp-thread': 'src/channels/email-smtp/smtp-thread.ts',
    // The inbound mail threads' entry (modules/email/email.inbound-threads.ts starts it).
    'inbound-thread': 'src/modules/email/email.inbound-thread.ts',
    // The inbox list's statement builder, for the benchmarks (they run the server's very SQL).
    'conversations-list': 'src/modules/conversations/list/index.ts',
    // The inbox search's statement builder, for the same reason (bench/suites/inbox-search.mjs).
    'conversations-search': 'src/modules/conversations/search/index.ts',
  },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  splitting: true,
  // Workspace packages are inlined; everything from npm stays a runtime import.
  noExternal: [/^@titan\//],
  define: { __TITAN_VERSION__: JSON.stringify(version) },
});
