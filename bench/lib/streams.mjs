// Reading big downloads in the bench: a process's resident memory from /proc, and a byte stream
// drained to its end with its size and lines counted.
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
