// For each inbox-list scenario: the statement's planning and execution time on its 1st (custom)
// and 8th call (by then PostgreSQL has chosen between a custom and the generic plan), run alone.
import pg from 'pg';
import { listStatements, scenarios } from '../suites/inbox-list.mjs';

const url = process.argv[2] ?? 'postgres://root@127.0.0.1:5432/titan_inbox_seed';
const client = new pg.Client({ connectionString: url, options: '-c jit=off' });
await client.connect();
const {
  rows: [meta],
} = await client.query(
  'select business_id, max(last_message_at) as now from conversations group by business_id order by count(*) desc limit 1',
);
const lit = (v) =>
  typeof v === 'number' || typeof v === 'boolean' ? String(v) : client.escapeLiteral(String(v));
for (const sc of scenarios(new Date(meta.now))) {
  const { statement } = listStatements(Number(meta.business_id), sc.params);
  await client.query(`prepare q as ${statement.text}`);
  const times = [];
  for (let i = 1; i <= 8; i++) {
    const { rows } = await client.query(
      `explain (analyze) execute q(${statement.values.map(lit).join(', ')})`,
    );
    const lines = rows.map((r) => r['QUERY PLAN']);
    const t = (label) => Number(lines.find((l) => l.startsWith(label))?.replace(/[^\d.]/g, '') ?? NaN);
    if (i === 1 || i >= 7)
      times.push(`#${i} plan ${t('Planning Time').toFixed(2)} exec ${t('Execution Time').toFixed(2)}`);
    if (i === 8 && process.env.PLANS) console.log(lines.join('\n'));
  }
  await client.query('deallocate q');
  console.log(`${sc.query.padEnd(45)} ${times.join(' | ')}`);
}
await client.end();
