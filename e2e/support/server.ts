// Runs the built Titan server as a real process on a free port with its own data dir.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverMain } from './paths';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'titan-e2e-'));
}

export type ProcessHandle = {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

export function runNode(script: string, env: Record<string, string>): ProcessHandle {
  const child = spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => out, exited };
}

export type TitanServer = ProcessHandle & {
  url: string;
  port: number;
  dataDir: string;
  /** SIGTERM and wait; answers the exit code. */
  stop(): Promise<number | null>;
};

export async function startTitan(
  options: {
    dataDir?: string;
    env?: Record<string, string>;
    /** The host name PUBLIC_URL and `url` use (WebAuthn needs a domain such as localhost, not an IP). */
    host?: string;
  } = {},
): Promise<TitanServer> {
  const port = await freePort();
  const dataDir = options.dataDir ?? tempDataDir();
  const handle = runNode(serverMain, {
    NODE_ENV: 'production',
    APP_SECRET: randomBytes(32).toString('hex'),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    // Links in mail must point at the address the browser uses, so cookies stay on one origin.
    PUBLIC_URL: `http://${options.host ?? '127.0.0.1'}:${port}`,
    ...options.env,
  });
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  // Generous: a cold PGlite runs every migration first, which on a busy 2-core machine takes a minute.
  const deadline = Date.now() + 180_000;
  for (;;) {
    const early = await Promise.race([handle.exited, new Promise((r) => setTimeout(r, 200, null))]);
    if (early) throw new Error(`Titan exited during start:\n${handle.output()}`);
    try {
      const res = await fetch(`${url}/api/health/`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      handle.child.kill('SIGKILL');
      throw new Error(`Titan did not become healthy in time:\n${handle.output()}`);
    }
  }
  return {
    ...handle,
    url,
    port,
    dataDir,
    async stop() {
      if (handle.child.exitCode !== null) return handle.child.exitCode;
      handle.child.kill('SIGTERM');
      return (await handle.exited).code;
    },
  };
}
