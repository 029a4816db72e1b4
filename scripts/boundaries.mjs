#!/usr/bin/env node
// The server's boundaries as numbers: imports that bypass a module's face (modules/<m>/index.ts),
// imports of modules/ from channels/, platform/ or db/, module pairs that import each other, and
// tables written by more than one module (drizzle insert/update/delete and raw SQL alike).
// `node scripts/boundaries.mjs` prints them (`--verbose` lists each); `--check` exits 1 unless the
// held counts (face bypasses, lower-layer imports, mutual pairs) are 0 — the shared tables are
// printed for information.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { faceProblem, isTestFile, placeOf } from '../apps/server/eslint-rules/module-faces.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'apps', 'server', 'src');

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* walk(full);
    else if (/\.ts$/.test(name) && !/\.d\.ts$/.test(name)) yield full;
  }
}
const files = [...walk(src)].filter((f) => !isTestFile(f));

/** Table variable names of the drizzle schema → SQL table names. */
const tableNames = new Map();
for (const file of walk(path.join(src, 'db', 'schema'))) {
  for (const m of readFileSync(file, 'utf8').matchAll(/export const (\w+)\s*=\s*pgTable\(\s*'([\w]+)'/g)) {
    tableNames.set(m[1], m[2]);
  }
}

const bypassing = [];
const lowerLayer = [];
const edges = new Map(); // module → modules it imports
const writers = new Map(); // table → Set of writers
const writerOf = (file) => {
  const place = placeOf(file);
  return place?.area === 'modules' ? place.module : place?.area || 'src';
};
const addWriter = (table, who) => {
  if (!writers.has(table)) writers.set(table, new Set());
  writers.get(table).add(who);
};

for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const rel = path.relative(root, file);
  const own = placeOf(file);
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)'([^']+)'/g)) {
    const specifier = m[1];
    const problem = faceProblem(file, specifier);
    if (problem?.messageId === 'privateFile') bypassing.push(`${rel} → ${specifier}`);
    if (problem?.messageId === 'lowerLayer') lowerLayer.push(`${rel} → ${specifier}`);
    const target = specifier.startsWith('.') ? placeOf(path.resolve(path.dirname(file), specifier)) : null;
    if (
      own?.area === 'modules' &&
      target?.area === 'modules' &&
      target.module &&
      target.module !== own.module
    ) {
      if (!edges.has(own.module)) edges.set(own.module, new Set());
      edges.get(own.module).add(target.module);
    }
  }
  const who = writerOf(file);
  // db/connection-rows.ts writes the table its owning repository hands it.
  for (const m of text.matchAll(/(?:\.(?:insert|update|delete)|\bconnectionRows)\(\s*(\w+)\s*\)/g)) {
    if (tableNames.has(m[1])) addWriter(tableNames.get(m[1]), who);
  }
  for (const m of text.matchAll(/\b(?:insert\s+into|update|delete\s+from)\s+"?([a-z_][a-z0-9_]*)"?[\s(]/gi)) {
    const table = m[1].toLowerCase();
    if ([...tableNames.values()].includes(table)) addWriter(table, who);
  }
}

const mutual = [];
for (const [a, targets] of edges) {
  for (const b of targets) if (a < b && edges.get(b)?.has(a)) mutual.push(`${a} ⇄ ${b}`);
}
const shared = [...writers]
  .filter(([, w]) => w.size > 1)
  .map(([t, w]) => `${t}: ${[...w].sort().join(', ')}`);

// [title, rows, held]: a held count fails `--check` unless it is 0.
const sections = [
  ['imports bypassing a module face', bypassing, true],
  ['imports of modules/ from channels/, platform/ or db/', lowerLayer, true],
  ['module pairs importing each other', mutual, true],
  ['tables written by more than one module', shared.sort(), false],
];
const check = process.argv.includes('--check');
const verbose = process.argv.includes('--verbose');
for (const [title, rows, held] of sections) {
  console.log(`${title}: ${rows.length}${check && !held ? ' (informative)' : ''}`);
  // A failing count lists its rows even without --verbose: the CI log says what to fix.
  if (verbose || (check && held && rows.length > 0)) for (const row of rows) console.log(`  ${row}`);
}
if (check && sections.some(([, rows, held]) => held && rows.length > 0)) process.exit(1);
