// The servers under test, each started in its own child process on a free port.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, ProcessFailedError, spawnNode, stopProcess, waitUntilReady } from './processes.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = join(here, '..', '..');
export const TITAN_MAIN = join(REPO_ROOT, 'apps', 'server', 'dist', 'main.js');
const BARE_FASTIFY = join(here, '..', 'servers', 'bare-fastify.mjs');
const BARE_LIST = join(here, '..', 'servers', 'bare-list.mjs');
const WS_BROADCAST = join(here, '..', 'servers', 'ws-broadcast.mjs');
const BARE_TRACKING = join(here, '..', 'servers', 'bare-tracking.mjs');
const HOST = '127.0.0.1';

export function assertServerBuilt() {
  if (!existsSync(TITAN_MAIN)) {
    const err = new Error(
      `${relative(REPO_ROOT, TITAN_MAIN)} (in ${REPO_ROOT}) is missing: the Titan server has not been built. ` +
        'Run `npm run bench` (which builds first) or `npm run build -w @titan/server`.',
    );
    err.expected = true;
    throw err;
  }
}

/** Titan's env variables that the bench sets itself: any value in the caller's shell is dropped. */
const TITAN_ENV = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'LOG_LEVEL',
  'NODE_ENV',
  'APP_SECRET',
  'RUN_WORKERS',
  'PUBLIC_URL',
];

/**
 * Starts the built Titan server (apps/server/dist/main.js) on `database` (from provisionDatabase)
 * and waits until GET /api/health/ answers 200 on that kind of database.
 * Returns { label, url, pid, stop() }; `stop()` is safe to call twice.
 */
export async function startTitan(database, { env: extraEnv = {}, readyTimeoutMs = 120_000 } = {}) {
  assertServerBuilt();
  const dataDir =
    database.kind === 'pglite' ? database.dataDir : await mkdtemp(join(tmpdir(), 'titan-bench-data-'));
  const env = { ...process.env };
  for (const key of TITAN_ENV) delete env[key];
  Object.assign(env, {
    HOST,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    APP_SECRET: randomBytes(36).toString('base64url'), // 48 characters
    RUN_WORKERS: 'false',
    ...(database.kind === 'postgres' ? { DATABASE_URL: database.url } : {}),
    ...extraEnv,
  });

  // Titan cannot bind port 0 (PORT must be 1-65535): take a free port, and retry if it was taken
  // between our check and Titan's bind.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort(HOST);
    env.PORT = String(port);
    env.PUBLIC_URL = `http://${HOST}:${port}`;
    const proc = spawnNode('titan server', TITAN_MAIN, { env, cwd: REPO_ROOT });
    const url = `http://${HOST}:${port}`;
    const stop = async () => {
      await stopProcess(proc);
      if (database.kind !== 'pglite') await rm(dataDir, { recursive: true, force: true });
    };
    try {
      const health = await waitUntilReady(proc, `${url}/api/health/`, { timeoutMs: readyTimeoutMs });
      const kind = health?.result?.database?.kind;
      if (kind !== database.kind) {
        throw new Error(`Titan reports database kind ${JSON.stringify(kind)}, expected ${database.kind}`);
      }
      return { label: 'titan', url, pid: proc.child.pid, health, stop, output: proc.output };
    } catch (err) {
      await stop();
      const portTaken = err instanceof ProcessFailedError && /EADDRINUSE/.test(err.output ?? '');
      if (portTaken && attempt < 3) continue;
      throw err;
    }
  }
}

/** Starts the bare Fastify hello-world (GET / → {hello:'world'}); it binds port 0 itself. */
export function startBareFastify({ readyTimeoutMs = 30_000 } = {}) {
  return startIpcServer('bare fastify', BARE_FASTIFY, { readyTimeoutMs });
}

/**
 * Starts the inbox list's floor (bench/servers/bare-list.mjs): bare Fastify running one
 * registered SQL statement per GET on a pg pool over `databaseUrl`.
 */
export function startBareList(databaseUrl, { readyTimeoutMs = 30_000 } = {}) {
  return startIpcServer('bare list', BARE_LIST, {
    readyTimeoutMs,
    env: { BENCH_BARE_DATABASE_URL: databaseUrl },
  });
}

/**
 * Starts the bare `ws` broadcast server (bench/servers/ws-broadcast.mjs): clients connect to
 * ws://…/ws, POST /broadcast sends its body to all of them.
 */
export function startWsBroadcast({ readyTimeoutMs = 30_000 } = {}) {
  return startIpcServer('bare ws broadcast', WS_BROADCAST, { readyTimeoutMs });
}

/**
 * Starts the tracking endpoints' floor (bench/servers/bare-tracking.mjs): node:http answering the
 * open pixel's GIF and the click's 302, with no verification and no recording.
 */
export function startBareTracking({ readyTimeoutMs = 30_000 } = {}) {
  return startIpcServer('bare tracking', BARE_TRACKING, { readyTimeoutMs });
}

/** Starts the webhook receiver (bench/servers/webhook-receiver.mjs): 200 to every POST /hook. */
export function startWebhookReceiver({ readyTimeoutMs = 30_000 } = {}) {
  return startIpcServer('webhook receiver', join(REPO_ROOT, 'bench', 'servers', 'webhook-receiver.mjs'), {
    readyTimeoutMs,
  });
}

/** A baseline server script that binds port 0 and reports { type: 'listening', port } over IPC. */
async function startIpcServer(label, script, { readyTimeoutMs, env = {} }) {
  const proc = spawnNode(label, script, {
    env: { ...process.env, ...env, HOST },
    cwd: REPO_ROOT,
    ipc: true,
  });
  const stop = () => stopProcess(proc);
  try {
    const port = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new ProcessFailedError(`${label} did not report its port`, proc.output())),
        readyTimeoutMs,
      );
      proc.child.on('message', (m) => {
        if (m?.type === 'listening') {
          clearTimeout(timer);
          resolve(m.port);
        }
      });
      proc.exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(
          new ProcessFailedError(
            `${label} exited (code ${code}, signal ${signal}) before listening`,
            proc.output(),
          ),
        );
      });
    });
    const url = `http://${HOST}:${port}`;
    await waitUntilReady(proc, `${url}/`, { timeoutMs: readyTimeoutMs });
    return { label, url, pid: proc.child.pid, stop, output: proc.output };
  } catch (err) {
    await stop();
    throw err;
  }
}
