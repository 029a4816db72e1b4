// Titan benchmarks: runs every suite in bench/suites/ (file-name order), prints a table per suite
// and writes everything to bench/results/latest.json.
//
// A suite is a module exporting
//   name                      short id, e.g. 'health'
//   columns (optional)        [{ key, label, align?: 'left'|'right', format?(value, row) }]
//   async run(ctx)            returns rows, or { title, rows, notes? } (rows: plain objects, kept
//                             whole in the JSON; the table shows `columns`, else every key; notes
//                             are printed under the table)
// ctx gives the suite: settings, database() (a fresh database, dropped afterwards),
// startTitan(database, opts), startBareFastify(), use(server) (stopped after the suite even on
// failure), defer(fn), measure({ url, ... }) (warm-up + measured autocannon run), note(text),
// progress(text), startWsBroadcast() (bare `ws` fan-out baseline), startBareList(databaseUrl) (bare
// Fastify + pg running one registered statement: the inbox list's floor), startBareTracking() (bare
// node:http answering the tracking pixel and redirect: the email-tracking floor), inboxSeed() (the seeded inbox database of bench/seed/inbox.mjs: seeded once per
// run on first use, shared by the suites, dropped when the run ends; see lib/inbox-seed.mjs).
//
// Env: BENCH_DURATION (measured seconds per target, default 10), BENCH_WARMUP (seconds, default 3),
// BENCH_CONNECTIONS (default 50), BENCH_SUITES (comma-separated names, default all),
// DATABASE_URL (admin URL of a PostgreSQL to create the bench databases in),
// BENCH_INBOX_DATABASE_URL (a kept database for the seeded inbox; seeded if empty, reused after).
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { provisionDatabase } from './lib/database.mjs';
import { stopFixedLoad } from './lib/fixed-load.mjs';
import { prepareInboxSeed } from './lib/inbox-seed.mjs';
import { measure, stopAllLoad } from './lib/load.mjs';
import {
  assertServerBuilt,
  startBareFastify,
  startBareList,
  startBareTracking,
  startTitan,
  startWsBroadcast,
} from './lib/servers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const SUITES_DIR = join(here, 'suites');
const RESULTS_FILE = join(here, 'results', 'latest.json');

function numberFromEnv(name, fallback, { min, integer = false }) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new UsageError(
      `${name} must be ${integer ? 'an integer' : 'a number'} >= ${min} (got ${JSON.stringify(raw)})`,
    );
  }
  return value;
}

class UsageError extends Error {
  expected = true;
}

// ---------------------------------------------------------------- output

function formatTable(columns, rows) {
  const cells = rows.map((row) =>
    columns.map((c) => {
      const v = row[c.key];
      if (v === null || v === undefined) return '';
      return c.format ? c.format(v, row) : String(v);
    }),
  );
  const widths = columns.map((c, i) => Math.max(c.label.length, ...cells.map((r) => r[i].length)));
  const line = (values) =>
    values
      .map((v, i) => (columns[i].align === 'right' ? v.padStart(widths[i]) : v.padEnd(widths[i])))
      .join('   ')
      .trimEnd();
  return [line(columns.map((c) => c.label)), ...cells.map(line)].join('\n');
}

function inferColumns(rows) {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return keys.map((key) => ({
    key,
    label: key,
    format: (v) => (typeof v === 'object' ? JSON.stringify(v) : String(v)),
  }));
}

function machineInfo() {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpuCount: cpus.length,
    availableParallelism: os.availableParallelism?.() ?? cpus.length,
    cpuModel: cpus[0]?.model?.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    hostname: os.hostname(),
  };
}

// ---------------------------------------------------------------- cleanup

/** Cleanups of the suite running now, run last-in first-out; each runs once. */
let cleanups = [];
/** Cleanups of what the suites share (the seeded inbox), run when the whole run ends. */
const runCleanupsList = [];
async function runCleanups({ all = false } = {}) {
  const pending = cleanups.splice(0).reverse();
  if (all) pending.push(...runCleanupsList.splice(0).reverse());
  for (const fn of pending) {
    try {
      await fn();
    } catch (err) {
      console.error(`  cleanup failed: ${err.message}`);
    }
  }
}

let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) {
    console.error('\nSecond interrupt: killing the servers and exiting now.');
    process.exit(130); // the exit hook in lib/processes.mjs SIGKILLs any child left
  }
  interrupted = true;
  console.error('\nInterrupted: stopping the load, the servers and removing the bench database…');
  stopAllLoad();
  stopFixedLoad();
  runCleanups({ all: true }).finally(() => process.exit(130));
});
process.on('SIGTERM', () => {
  interrupted = true;
  stopAllLoad();
  stopFixedLoad();
  runCleanups({ all: true }).finally(() => process.exit(143));
});

/** The seeded inbox, prepared once for the run by the first suite that asks. */
let inboxSeedPromise = null;
function inboxSeed(ctx) {
  inboxSeedPromise ??= prepareInboxSeed({
    provisionDatabase,
    startTitan: (database, opts) => ctx.startTitan(database, opts),
    progress: (text) => ctx.progress(text),
    deferRun: (fn) => runCleanupsList.push(fn),
  });
  return inboxSeedPromise;
}

// ---------------------------------------------------------------- main

async function main() {
  const settings = {
    durationS: numberFromEnv('BENCH_DURATION', 10, { min: 1, integer: true }),
    warmupS: numberFromEnv('BENCH_WARMUP', 3, { min: 0, integer: true }),
    connections: numberFromEnv('BENCH_CONNECTIONS', 50, { min: 1, integer: true }),
    pipelining: 1,
  };
  assertServerBuilt();

  const wanted = (process.env.BENCH_SUITES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const files = (await readdir(SUITES_DIR)).filter((f) => f.endsWith('.mjs')).sort();
  const suites = [];
  for (const file of files) {
    const mod = await import(pathToFileURL(join(SUITES_DIR, file)).href);
    if (typeof mod.name !== 'string' || typeof mod.run !== 'function') {
      throw new UsageError(`bench/suites/${file} must export \`name\` and \`async run(ctx)\``);
    }
    if (wanted.length === 0 || wanted.includes(mod.name)) suites.push({ file, mod });
  }
  const unknown = wanted.filter((w) => !suites.some((s) => s.mod.name === w));
  if (unknown.length) throw new UsageError(`BENCH_SUITES names unknown suites: ${unknown.join(', ')}`);

  const machine = machineInfo();
  const report = { startedAt: new Date().toISOString(), finishedAt: null, machine, settings, suites: [] };

  console.log('Titan benchmarks');
  console.log(`  node ${machine.node} on ${machine.platform}`);
  console.log(`  ${machine.cpuCount} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB RAM`);
  console.log(
    `  load: autocannon in this process, ${settings.connections} connections, pipelining ${settings.pipelining}, ` +
      `${settings.warmupS} s warm-up + ${settings.durationS} s measured per server`,
  );
  console.log(
    '  every server runs in its own child process; all were measured on this machine in this run, one at a time,\n' +
      `  sharing its ${machine.cpuCount} CPUs with the load generator: compare the ratios, not figures from other machines.`,
  );

  let failures = 0;
  for (const { mod } of suites) {
    if (interrupted) break;
    const notes = [];
    const entry = { name: mod.name, title: mod.name, notes, rows: [], error: null };
    report.suites.push(entry);
    console.log(`\n▶ ${mod.name}`);
    const ctx = {
      settings,
      machine,
      note: (text) => {
        notes.push(text);
        console.log(`  ${text}`);
      },
      progress: (text) => console.log(`  … ${text}`),
      defer: (fn) => cleanups.push(fn),
      use: (server) => {
        cleanups.push(() => server.stop());
        return server;
      },
      database: async () => {
        const db = await provisionDatabase();
        cleanups.push(() => db.drop());
        return db;
      },
      startTitan: (database, opts) => {
        if (interrupted) throw new Error('interrupted');
        return startTitan(database, opts);
      },
      inboxSeed: () => inboxSeed(ctx),
      startWsBroadcast: (opts) => {
        if (interrupted) throw new Error('interrupted');
        return startWsBroadcast(opts);
      },
      startBareFastify: (opts) => {
        if (interrupted) throw new Error('interrupted');
        return startBareFastify(opts);
      },
      startBareTracking: (opts) => {
        if (interrupted) throw new Error('interrupted');
        return startBareTracking(opts);
      },
      startBareList: (databaseUrl, opts) => {
        if (interrupted) throw new Error('interrupted');
        return startBareList(databaseUrl, opts);
      },
      measure: async (opts) => {
        if (interrupted) throw new Error('interrupted');
        const m = await measure({
          connections: settings.connections,
          pipelining: settings.pipelining,
          durationS: settings.durationS,
          warmupS: settings.warmupS,
          ...opts,
        });
        // An interrupt cuts the run short: those figures are not a measurement.
        if (interrupted) throw new Error('interrupted');
        return m;
      },
    };
    try {
      const out = await mod.run(ctx);
      const result = Array.isArray(out) ? { rows: out } : out;
      entry.title = result.title ?? mod.name;
      entry.rows = result.rows ?? [];
      const columns = mod.columns ?? inferColumns(entry.rows);
      console.log(`\n${entry.title}`);
      console.log(formatTable(columns, entry.rows));
      for (const n of result.notes ?? []) {
        notes.push(n);
        console.log(n);
      }
    } catch (err) {
      failures++;
      entry.error = err.stack ?? String(err);
      console.error(`\n✗ suite ${mod.name} failed: ${interrupted ? 'interrupted' : (err.stack ?? err)}`);
    } finally {
      await runCleanups();
    }
  }

  await runCleanups({ all: true });
  report.finishedAt = new Date().toISOString();
  await mkdir(dirname(RESULTS_FILE), { recursive: true });
  await writeFile(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nResults written to ${RESULTS_FILE}`);
  return failures;
}

try {
  const failures = await main();
  process.exitCode = failures > 0 ? 1 : 0;
} catch (err) {
  await runCleanups({ all: true });
  // Expected problems (bad settings, server not built) get one line; anything else its stack.
  console.error(`bench: ${err.expected ? err.message : (err.stack ?? err)}`);
  process.exitCode = 1;
}
