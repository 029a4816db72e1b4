// Writes drizzle/meta/NNNN_snapshot.json for the newest migration in the journal: the drizzle
// schema as drizzle-kit sees it, chained to the snapshot before it. `npm run db:generate` diffs the
// schema against the newest snapshot, so after a hand-written migration (and its schema change) run
// `npm run db:snapshot -w @titan/server`; src/db/__tests__/schema-drift.test.ts proves the schema is
// what the migrations make and that the snapshot is the schema.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateDrizzleJson } from 'drizzle-kit/api';
import { migrationsDir } from '../src/paths';
import * as schema from '../src/db/schema';

const meta = join(migrationsDir, 'meta');
const journal = JSON.parse(readFileSync(join(meta, '_journal.json'), 'utf8')) as {
  entries: { idx: number; tag: string }[];
};
const newest = journal.entries.at(-1)!;
const number = newest.tag.slice(0, 4);
const file = join(meta, `${number}_snapshot.json`);
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { id: string; prevId: string };

// Refreshed in place, a snapshot keeps its id; it always follows the newest snapshot before it, so
// two branches that each added a migration and a snapshot are chained again after their merge.
const id = existsSync(file) ? read(file).id : undefined;
const earlier = readdirSync(meta)
  .filter((n) => n.endsWith('_snapshot.json') && n < `${number}_snapshot.json`)
  .sort()
  .at(-1);
const prevId = earlier ? read(join(meta, earlier)).id : '00000000-0000-0000-0000-000000000000';
const snapshot = generateDrizzleJson(schema, prevId);
writeFileSync(file, `${JSON.stringify(id ? { ...snapshot, id } : snapshot, null, 2)}\n`);
console.log(`wrote ${file}`);
