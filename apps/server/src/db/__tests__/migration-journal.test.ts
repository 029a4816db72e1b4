// The migrations journal (drizzle/meta/_journal.json) in the order drizzle's migrator needs. On a
// database already migrated, the migrator runs only the entries whose `when` is later than the last
// applied one's: an entry stamped earlier than the one before it is skipped there for ever (while a
// fresh database, as every test store, applies it, so nothing else would notice).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationsDir } from '../../paths';

type Entry = { idx: number; when: number; tag: string };
const journal = JSON.parse(readFileSync(join(migrationsDir, 'meta/_journal.json'), 'utf8')) as {
  entries: Entry[];
};

describe('the migrations journal', () => {
  it('numbers and stamps every entry later than the one before it', () => {
    const late = journal.entries.filter(
      (e, i) => i > 0 && (e.idx <= journal.entries[i - 1]!.idx || e.when <= journal.entries[i - 1]!.when),
    );
    expect(late.map((e) => e.tag)).toEqual([]);
  });

  it('names each entry by its number and has its SQL file', () => {
    const wrong = journal.entries.filter(
      (e) =>
        !e.tag.startsWith(`${String(e.idx).padStart(4, '0')}_`) ||
        !existsSync(join(migrationsDir, `${e.tag}.sql`)),
    );
    expect(wrong.map((e) => e.tag)).toEqual([]);
  });
});
