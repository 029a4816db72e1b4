// The variables Titan reads, `.env.example` and docs/configuration.md name the same ones: a variable
// added to the schema but not documented (or documented after it was removed) fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ZConfigEnv } from '../config';
import { serverRoot } from '../paths';

const repoFile = (path: string) => readFileSync(join(serverRoot, '../..', path), 'utf8');
const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

/** The web app's one build-time variable is documented beside the server's, but read by Vite. */
const BUILD_TIME = ['VITE_AUTH_SITE_URL'];

describe('configuration docs', () => {
  const schema = sorted(Object.keys(ZConfigEnv.shape));

  it('.env.example lists every variable of the config schema, and no other', () => {
    const example = repoFile('.env.example');
    const names = [...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!);
    expect(sorted(names)).toEqual(schema);
  });

  it('docs/configuration.md documents every variable of the config schema, and no other', () => {
    const doc = repoFile('docs/configuration.md');
    const names = [...doc.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!);
    expect(sorted(names)).toEqual(sorted([...schema, ...BUILD_TIME]));
  });
});
