// Checks that bench/suites/inbox-list.mjs mirrors the repository: for each of its scenarios, the
// statement the server prepares (name and text, from pg_prepared_statements) and its values must
// equal listStatements()'s, and both must answer the same ids and count.
// Run: npx tsx bench/profile/check-list-sql.ts [database url] (default: the seeded inbox).
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { ZConversationListQuery } from '@titan/contracts';
import * as schema from '../../apps/server/src/db/schema';
import type { Db } from '../../apps/server/src/db/client';
import { listConversations } from '../../apps/server/src/modules/conversations/conversations.repository';
// @ts-expect-error: a plain .mjs module without types
import { listStatements, scenarios } from '../suites/inbox-list.mjs';

type Statement = { name: string; text: string; values: unknown[]; rowMode: 'array' };

const url = process.argv[2] ?? 'postgres://root@127.0.0.1:5432/titan_inbox_seed';
const pool = new pg.Pool({ connectionString: url, max: 1 });
let lastParams: unknown[] = [];
// The repository runs its list statement on the pool itself (past drizzle): note its values there.
const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
(pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
  const config = args[0] as { values?: unknown[] } | string;
  if (typeof config === 'object' && config.values) lastParams = config.values;
  return query(...args);
};
const db = drizzle({ client: pool, schema }) as unknown as Db;
const {
  rows: [meta],
} = await pool.query(
  'select business_id, max(last_message_at) as now from conversations group by business_id order by count(*) desc limit 1',
);
const businessId = Number(meta.business_id);
let failures = 0;
for (const sc of scenarios(new Date(meta.now)) as { query: string; params: Record<string, string> }[]) {
  const { page, page_size, ...filter } = ZConversationListQuery.parse(sc.params);
  const scope = { businessId, groupIds: null };
  const got = await listConversations(db, scope, filter, page_size, (page - 1) * page_size);
  const { rows: prepared } = await pool.query<{ name: string; statement: string }>(
    'select name, statement from pg_prepared_statements where name like $1',
    ['conversations_list_%'],
  );
  const { statement } = listStatements(businessId, sc.params) as { statement: Statement };
  const server = prepared.find((p) => p.name === statement.name);
  const problems: string[] = [];
  if (!server)
    problems.push(`no statement named ${statement.name}: ${prepared.map((p) => p.name).join(', ')}`);
  else if (server.statement !== statement.text)
    problems.push(`text differs:\n  server ${server.statement}\n  bench  ${statement.text}`);
  if (JSON.stringify(lastParams) !== JSON.stringify(statement.values))
    problems.push(
      `values differ:\n  server ${JSON.stringify(lastParams)}\n  bench  ${JSON.stringify(statement.values)}`,
    );
  const {
    rows: [[count, json]],
  } = await pool.query(statement);
  // The same text from both, byte for byte: the rows, their order and their encoding.
  if (Number(count) !== got.count || json !== got.resultsJson)
    problems.push(`answers differ: server ${got.count} ${got.resultsJson}; bench ${count} ${json}`);
  console.log(`${problems.length ? 'FAIL' : 'ok  '} ${sc.query} (${statement.name}, count ${got.count})`);
  for (const p of problems) console.log(`  ${p}`);
  failures += problems.length ? 1 : 0;
}
await pool.end();
process.exitCode = failures ? 1 : 0;
