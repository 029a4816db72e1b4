// Reading big downloads in the bench: a process's resident memory from /proc, and a byte stream
// drained to its end with its size and lines counted.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The resident set size of process `pid`, in bytes (Linux). */
export function rssBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return kb * 1024;
}

/** Reads a byte stream to the end: bytes and lines (CSV rows, header included). */
export async function drain(stream, onProgress) {
  let bytes = 0;
  let lines = 0;
  for await (const chunk of stream) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    onProgress?.(lines);
  }
  return { bytes, lines };
}

/**
 * GETs a big download from a server process and reads it to the end, sampling the process's
 * resident memory every 25 ms (the peak) and at each tenth of `expectedLines`. Answers
 * { out: { bytes, lines }, seconds, rssBefore, peak, tenths }.
 */
export async function downloadWatchingRss({ url, headers, pid, expectedLines }) {
  const rssBefore = rssBytes(pid);
  let peak = rssBefore;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssBytes(pid));
    } catch {
      // exited
    }
  }, 25);
  const tenths = [];
  const t0 = performance.now();
  try {
    const res = await fetch(url, { headers });
    if (res.status !== 200) throw new Error(`download answered HTTP ${res.status}: ${await res.text()}`);
    const out = await drain(res.body, (lines) => {
      const tenth = Math.floor((lines / expectedLines) * 10);
      if (tenth > tenths.length && tenths.length < 10) tenths.push(rssBytes(pid));
    });
    const seconds = (performance.now() - t0) / 1000;
    peak = Math.max(peak, rssBytes(pid));
    return { out, seconds, rssBefore, peak, tenths };
  } finally {
    clearInterval(sampler);
  }
}

/** Runs `COPY (…) TO STDOUT` through psql and reads its output: { out: { bytes, lines }, seconds }. */
export async function psqlCopy(databaseUrl, copySql) {
  const t0 = performance.now();
  const psql = spawn('psql', [databaseUrl, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', copySql], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let psqlErr = '';
  psql.stderr.on('data', (d) => (psqlErr += d));
  const out = await drain(psql.stdout);
  const code = await new Promise((r) => psql.on('close', r));
  if (code !== 0) throw new Error(`psql COPY failed (${code}): ${psqlErr}`);
  return { out, seconds: (performance.now() - t0) / 1000 };
}
