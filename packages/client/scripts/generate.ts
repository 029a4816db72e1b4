// Regenerates src/schema.ts from the server's OpenAPI document: the app is built in-process (on
// embedded PGlite, as the tests do), its /api/docs/json read and turned into types.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createTestRuntime } from '../../../apps/server/src/testing/test-runtime';
import { typesFor } from './openapi-types';

const rt = await createTestRuntime();
try {
  const res = await rt.app!.inject({ method: 'GET', url: '/api/docs/json' });
  if (res.statusCode !== 200) throw new Error(`GET /api/docs/json → ${res.statusCode}`);
  const out = fileURLToPath(new URL('../src/schema.ts', import.meta.url));
  writeFileSync(out, await typesFor(res.json()));
  console.log(`wrote ${out}`);
} finally {
  await rt.destroy();
}
