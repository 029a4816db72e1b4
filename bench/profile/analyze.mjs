// Self time of a .cpuprofile by package and by function: node bench/profile/analyze.mjs <file>.cpuprofile
import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const nodes = new Map(p.nodes.map((n) => [n.id, n]));
const dt = new Map();
for (let i = 0; i < p.samples.length; i++)
  dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
const byFn = new Map(),
  byPkg = new Map();
let total = 0;
for (const [id, t] of dt) {
  const n = nodes.get(id);
  const cf = n.callFrame;
  total += t;
  const key = `${cf.functionName || '(anon)'} ${cf.url.split('/').slice(-2).join('/')}:${cf.lineNumber}`;
  byFn.set(key, (byFn.get(key) ?? 0) + t);
  let pkg = cf.url.includes('node_modules')
    ? cf.url
        .split('node_modules/')
        .pop()
        .split('/')
        .slice(0, cf.url.split('node_modules/').pop().startsWith('@') ? 2 : 1)
        .join('/')
    : cf.url.startsWith('node:')
      ? 'node:' + cf.url.slice(5).split('/')[0]
      : cf.url
        ? cf.url.split('/').slice(-1)[0]
        : cf.functionName;
  byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + t);
}
const top = (m, k) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(
      ([n, t]) =>
        `${(t / 1000).toFixed(0).padStart(6)}ms ${((100 * t) / total).toFixed(1).padStart(5)}% ${n}`,
    )
    .join('\n');
console.log(
  'total',
  (total / 1000).toFixed(0),
  'ms\n--- by package\n' + top(byPkg, 25) + '\n--- by function\n' + top(byFn, 30),
);
