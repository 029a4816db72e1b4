// Child processes for the servers under test: spawn, wait until they answer, stop them for sure.
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
// Every server runs in its own process, never in the load generator's.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** Every child still alive, so an exit or an interrupt can kill what is left. */
const live = new Set();

process.on('exit', () => {
  for (const child of live) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** A port nothing listens on right now (the OS picks it); for servers that cannot bind port 0. */
export function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port: 0, host }, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Spawns `node <script>` with a bounded memory of its output (shown when it fails).
 * Returns { child, output(), exited } where `exited` resolves with { code, signal }.
 */
export function spawnNode(label, script, { args = [], env, cwd, ipc = false } = {}) {
  // CHILD_NODE_ARGS: node flags for every server the bench starts (profiling: see profile/account.mjs).
  const nodeArgs = process.env.CHILD_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe', ...(ipc ? ['ipc'] : [])],
  });
  live.add(child);
  const lines = [];
  const keep = (chunk) => {
    for (const line of String(chunk).split('\n')) {
      if (!line.trim()) continue;
      lines.push(line);
      if (lines.length > 40) lines.shift();
    }
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  // BENCH_CHILD_LOG=<directory>: every line each server writes, kept whole (<label>-<pid>.log).
  if (process.env.BENCH_CHILD_LOG) {
    const file = createWriteStream(
      join(process.env.BENCH_CHILD_LOG, `${label.replace(/\W+/g, '-')}-${child.pid}.log`),
    );
    child.stdout.pipe(file, { end: false });
    child.stderr.pipe(file, { end: false });
    child.once('exit', () => file.end());
  }
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
    child.once('error', (err) => {
      live.delete(child);
      lines.push(String(err));
      resolve({ code: null, signal: null, error: err });
    });
  });
  return { label, child, exited, output: () => lines.join('\n') };
}

/** SIGTERM, then SIGKILL if it has not exited after `graceMs`. Safe to call twice. */
export async function stopProcess(proc, graceMs = 10_000) {
  const { child, exited } = proc;
  if (child.exitCode !== null || child.signalCode !== null) return exited;
  child.kill('SIGTERM');
  let timer;
  const killed = new Promise((resolve) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, graceMs);
  });
  await Promise.race([exited, killed]);
  clearTimeout(timer);
  return exited;
}

/**
 * Polls `url` until `accept(status, body)` is true. Fails early when the process exits, and after
 * `timeoutMs`, with the process's last output in the message.
 */
export async function waitUntilReady(
  proc,
  url,
  { timeoutMs = 90_000, accept = (status) => status === 200 } = {},
) {
  const deadline = Date.now() + timeoutMs;
  let exited = null;
  proc.exited.then((e) => (exited = e));
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (exited) {
      throw new ProcessFailedError(
        `${proc.label} exited (code ${exited.code}, signal ${exited.signal}) before it was ready`,
        proc.output(),
      );
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      const text = await res.text();
      let body = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      if (accept(res.status, body)) return body;
      last = `HTTP ${res.status} ${text.slice(0, 300)}`;
    } catch (err) {
      last = err.cause?.code ?? err.message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new ProcessFailedError(
    `${proc.label} was not ready after ${timeoutMs / 1000} s (last: ${last})`,
    proc.output(),
  );
}

export class ProcessFailedError extends Error {
  constructor(message, output) {
    super(output ? `${message}\n--- its last output ---\n${output}\n---` : message);
    this.name = 'ProcessFailedError';
    this.output = output;
  }
}
