// What the row-throughput suites (a CSV out, a CSV in) share: their table's columns, number
// formats, and a process's resident memory and CPU time read from /proc.
import { readFileSync } from 'node:fs';

export const mb = (bytes) => (Number.isFinite(bytes) ? (bytes / 2 ** 20).toFixed(1) : '—');
export const secs = (v) => (Number.isFinite(v) ? v.toFixed(2) : '—');
export const ratio = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '—');

const mibColumn = (key, label) => ({
  key,
  label,
  align: 'right',
  format: (v) => (v === null ? '' : mb(v * 2 ** 20)),
});

/** side, rows, [extra], seconds, rows/s and peak RSS; a row of `kind: 'ratio'` shows ratios. */
export const rowsColumns = (extra = []) => [
  { key: 'side', label: 'side' },
  { key: 'rows', label: 'rows', align: 'right', format: (v) => v.toLocaleString('en-US') },
  ...extra,
  {
    key: 'seconds',
    label: 'seconds',
    align: 'right',
    format: (v, r) => (r.kind === 'ratio' ? ratio(v) : secs(v)),
  },
  {
    key: 'rowsPerSec',
    label: 'rows/s',
    align: 'right',
    format: (v, r) => (r.kind === 'ratio' ? ratio(v) : Math.round(v).toLocaleString('en-US')),
  },
  mibColumn('peakRssMiB', 'peak RSS MiB'),
];

export { mibColumn };

/** The process's resident memory in bytes, from /proc/<pid>/status. */
export function rssBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024;
}

/** CPU seconds (user + system) the process has used, from /proc/<pid>/stat (10 ms ticks). */
export function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
