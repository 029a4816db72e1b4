// Checks that the bench runs the server's list SQL: for each inbox-list scenario, the statement the
// built list engine gives the bench (apps/server/dist/conversations-list.js) must equal the source's
// (a stale build fails here), and, given a database, the statement the server prepares there
// (pg_prepared_statements) must carry that name and text, and both must answer the same bytes.
// Run: npx tsx bench/profile/check-list-sql.ts [database url] (default: the seeded inbox).
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from '../../apps/server/src/db/schema';
import type { Db } from '../../apps/server/src/db/client';
import {
  listConversations,
  listStatementForQuery as fromSource,
} from '../../apps/server/src/modules/conversations/list';
import { ZConversationListQuery } from '@titan/contracts';
// @ts-expect-error: a plain .mjs module without types
import { listStatements, scenarios } from '../suites/inbox-list.mjs';

type Statement = { name: string; text: string; values: unknown[]; rowMode: 'array' };

const url = process.argv[2] ?? 'postgres://root@127.0.0.1:5432/titan_inbox_seed';
const pool = new pg.Pool({ connectionString: url, max: 1 });
const db = drizzle({ client: pool, schema }) as unknown as Db;
const {
  rows: [meta],
} = await pool.query(
  'select business_id, max(last_message_at) as now from conversations group by business_id order by count(*) desc limit 1',
);
const businessId = Number(meta.business_id);
let failures = 0;
for (const sc of scenarios(new Date(meta.now)) as { query: string; params: Record<string, string> }[]) {
  const problems: string[] = [];
  const { statement } = listStatements(businessId, sc.params) as { statement: Statement };
  const source = fromSource(businessId, sc.params);
  if (source.name !== statement.name || source.text !== statement.text)
    problems.push(`the built list engine differs from the source: rebuild (npm run build -w @titan/server)`);
  if (JSON.stringify(source.values) !== JSON.stringify(statement.values))
    problems.push(
      `values differ: source ${JSON.stringify(source.values)}, built ${JSON.stringify(statement.values)}`,
    );
  const { page, page_size, ...filter } = ZConversationListQuery.parse(sc.params);
  const got = await listConversations(
    db,
    { businessId, groupIds: null },
    filter,
    page_size,
    (page - 1) * page_size,
  );
  const { rows: prepared } = await pool.query<{ name: string; statement: string }>(
    'select name, statement from pg_prepared_statements where name = $1',
    [statement.name],
  );
  if (prepared[0]?.statement !== statement.text)
    problems.push(`the server prepared no statement ${statement.name} of this text`);
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
