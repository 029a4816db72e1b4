// @titan/client's types (packages/client/src/schema.ts) are generated from this server's OpenAPI
// document: this fails when the checked-in file and the current document differ, so the client
// cannot drift. Regenerate with `npm run generate -w @titan/client`.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { typesFor } from '../../../../packages/client/scripts/openapi-types';
import { createTestRuntime, type TestRuntime } from '../testing/test-runtime';

let rt: TestRuntime;
beforeAll(async () => {
  rt = await createTestRuntime();
});
afterAll(() => rt?.destroy());

it("the client's checked-in types match the server's OpenAPI document", async () => {
  const res = await rt.app!.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  const file = fileURLToPath(new URL('../../../../packages/client/src/schema.ts', import.meta.url));
  const checkedIn = readFileSync(file, 'utf8');
  const current = await typesFor(res.json());
  expect(
    checkedIn === current,
    'packages/client/src/schema.ts is out of date: run `npm run generate -w @titan/client`',
  ).toBe(true);
});
