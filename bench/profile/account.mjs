// CPU accounting per list call, by process: Titan, the floor and the bench's raw SQL side, each
// loaded in turn like the inbox-list suite (10 concurrent), with /proc ticks read for the server,
// the PostgreSQL backends and this (client) process. Under a closed load on two shared cores the
// p95 ratio follows the ratio of these totals. Needs the seeded inbox and a built server:
//   node bench/profile/account.mjs
// Env: N (calls per side and round, 5000), ROUNDS (3), Q (the inbox-list row, 'no filter'),
// STRACE=1 (syscall counts of each server into /tmp/strace-<side>.txt), CHILD_NODE_ARGS (node flags
// for the servers, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"), BENCH_INBOX_DATABASE_URL.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { fixedLoad, httpClient } from '../lib/fixed-load.mjs';
import { authHeaders, login } from '../lib/identity.mjs';
import { startBareList, startTitan } from '../lib/servers.mjs';
import { listStatements, scenarios } from '../suites/inbox-list.mjs';

const url = process.env.BENCH_INBOX_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/titan_inbox_seed';
const n = Number(process.env.N ?? 5000);
const rounds = Number(process.env.ROUNDS ?? 3);
const query = process.env.Q ?? 'no filter';

const ticksOf = (pid) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
};
const postgresTicks = () => {
  let t = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let cmd;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (cmd.startsWith('postgres')) t += ticksOf(pid);
  }
  return t;
};

const titan = await startTitan({ kind: 'postgres', url });
const floor = await startBareList(url);
const pool = new pg.Pool({ connectionString: url, max: 10, options: '-c jit=off' });
const {
  rows: [seed],
} = await pool.query(
  `select b.id, b.unique_code, (select max(last_message_at) from conversations where business_id = b.id) as now from businesses b limit 1`,
);
const sc = scenarios(new Date(seed.now)).find((s) => s.query === query);
const stmts = listStatements(seed.id, sc.params);
const s = await login(titan.url, 'bench.owner@example.test', 'bench correct horse battery staple');
const qs = new URLSearchParams(sc.params).toString();
const titanHttp = httpClient(titan.url, { headers: authHeaders(s.access, seed.unique_code) });
const floorHttp = httpClient(floor.url);
await fetch(`${floor.url}/statements/0`, {
  method: 'PUT',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ ...stmts.statement, page: Number(sc.params.page ?? 1), pageSize: 10 }),
});
const sides = {
  titan: { pid: titan.pid, fn: () => titanHttp.get(`/api/msg/conversations/${qs ? `?${qs}` : ''}`) },
  floor: { pid: floor.pid, fn: () => floorHttp.get('/list/0') },
  sql: { pid: null, fn: () => pool.query(stmts.statement) },
};
const acc = Object.fromEntries(
  Object.keys(sides).map((k) => [k, { server: 0, pg: 0, client: 0, wall: 0, p95: [], latencies: [] }]),
);
for (const side of Object.values(sides)) await fixedLoad({ total: 1000, concurrency: 10, fn: side.fn });
for (let r = 0; r < rounds; r++) {
  for (const [name, side] of Object.entries(sides)) {
    const a = acc[name];
    const tracer =
      process.env.STRACE && side.pid
        ? spawn('strace', ['-c', '-f', '-p', String(side.pid), '-o', `/tmp/strace-${name}.txt`])
        : null;
    if (tracer) await new Promise((resolve) => setTimeout(resolve, 500));
    const s0 = side.pid ? ticksOf(side.pid) : 0;
    const p0 = postgresTicks();
    const c0 = process.cpuUsage();
    const timed = async () => {
      const t = performance.now();
      await side.fn();
      a.latencies.push(performance.now() - t);
    };
    const res = await fixedLoad({ total: n, concurrency: 10, fn: timed });
    const c1 = process.cpuUsage(c0);
    a.server += side.pid ? ticksOf(side.pid) - s0 : 0;
    a.pg += postgresTicks() - p0;
    a.client += (c1.user + c1.system) / 10_000; // µs → ticks
    a.wall += res.wallS;
    a.p95.push(res.p95.toFixed(2));
    if (tracer) {
      tracer.kill('SIGINT');
      await new Promise((resolve) => tracer.on('exit', resolve));
    }
  }
}
const p95 = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(0.95 * xs.length)].toFixed(2);
const per = (ticks) => ((ticks * 10) / (n * rounds)).toFixed(3);
console.log(
  `${query}: CPU ms per call (server / postgres / bench client / total), calls/s, p95 of all calls (per round)`,
);
for (const [name, a] of Object.entries(acc)) {
  console.log(
    `${name.padEnd(6)} ${per(a.server)} / ${per(a.pg)} / ${per(a.client)} / ${per(a.server + a.pg + a.client)}  ` +
      `${((n * rounds) / a.wall).toFixed(0)}/s  p95 ${p95(a.latencies)} (${a.p95.join(' ')})`,
  );
}
titanHttp.close();
floorHttp.close();
await pool.end();
await titan.stop();
await floor.stop();
