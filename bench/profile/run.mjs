// Profiles the built server under list load: starts apps/server/dist/main.js with --cpu-prof on the
// seeded inbox, logs in, runs 500 warm-up + 3000 requests at concurrency C (10) then 1000 at
// concurrency 1, and prints latency percentiles and the server's CPU ms per request (from
// /proc/<pid>/stat, so start-up and warm-up are left out).
// Env: P (path, or several separated by spaces, taken in turn), LL (log level), C (concurrency),
// PORT (3999), PROF_DIR (/tmp/prof), PROF (0: no profile, for true CPU figures), N (3000),
// MAIN (apps/server/dist/main.js), SPLIT (1: print user and system CPU ticks).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { login, authHeaders } from '../lib/identity.mjs';
import { fixedLoad, httpClient } from '../lib/fixed-load.mjs';

const url = 'postgres://root@127.0.0.1:5432/titan_inbox_seed';
const port = process.env.PORT ?? '3999';
const profDir = process.env.PROF_DIR ?? '/tmp/prof';
const proc = spawn(
  process.execPath,
  [
    ...(process.env.PROF === '0' ? [] : ['--cpu-prof', `--cpu-prof-dir=${profDir}`]),
    process.env.MAIN ?? 'apps/server/dist/main.js',
  ],
  {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: url,
      PORT: port,
      HOST: '127.0.0.1',
      APP_SECRET: randomBytes(36).toString('base64url'),
      DATA_DIR: `${profDir}/data`,
      RUN_WORKERS: 'false',
      LOG_LEVEL: process.env.LL ?? 'info',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    cwd: '/work/main',
  },
);
const base = `http://127.0.0.1:${port}`;
for (let i = 0; i < 100; i++) {
  try {
    await fetch(`${base}/api/health/`);
    break;
  } catch {
    await new Promise((r) => setTimeout(r, 200));
  }
}
const c = new pg.Client(url);
await c.connect();
const {
  rows: [b],
} = await c.query('select unique_code from businesses limit 1');
await c.end();
const s = await login(base, 'bench.owner@example.test', 'bench correct horse battery staple');
const http = httpClient(base, { headers: authHeaders(s.access, b.unique_code), sockets: 10 });
const paths = (process.env.P ?? '/api/msg/conversations/').split(' ');
let i = 0;
const get = () => http.get(paths[i++ % paths.length]);
const ticks = () => {
  const f = readFileSync(`/proc/${proc.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  if (process.env.SPLIT) console.log('utime', f[11], 'stime', f[12]);
  return Number(f[11]) + Number(f[12]); // utime + stime, in clock ticks (100/s)
};
const first = JSON.parse((await http.get(paths[0])).body);
if (first.status !== 200) throw new Error(JSON.stringify(first).slice(0, 400));
const n = Number(process.env.N ?? 3000);
await fixedLoad({ total: 500, concurrency: 10, fn: get });
let t0 = ticks();
const r = await fixedLoad({ total: n, concurrency: Number(process.env.C ?? 10), fn: get });
const cpu = ((ticks() - t0) * 10) / n;
console.log(JSON.stringify({ p50: r.p50, p95: r.p95, p99: r.p99, rps: r.callsPerSec, cpuMsPerReq: cpu }));
t0 = ticks();
const r1 = await fixedLoad({ total: 1000, concurrency: 1, fn: get });
const cpu1 = ((ticks() - t0) * 10) / 1000;
console.log(
  'c=1',
  JSON.stringify({ p50: r1.p50, p95: r1.p95, p99: r1.p99, rps: r1.callsPerSec, cpuMsPerReq: cpu1 }),
);
http.close();
proc.kill('SIGINT');
await new Promise((r) => proc.on('exit', r));
