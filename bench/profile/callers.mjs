// Who calls a function, by self time: node bench/profile/callers.mjs <file>.cpuprofile <function name>
// (e.g. writev, writeString) — the 8 frames above it, heaviest stacks first.
import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const target = process.argv[3];
const nodes = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map();
for (let i = 0; i < p.samples.length; i++)
  self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
const stacks = new Map();
for (const [id, t] of self) {
  const n = nodes.get(id);
  if (n.callFrame.functionName !== target) continue;
  let chain = [];
  let cur = parent.get(id);
  for (let d = 0; d < Number(process.env.DEPTH ?? 8) && cur; d++) {
    const c = nodes.get(cur).callFrame;
    chain.push(`${c.functionName || '(anon)'}@${c.url.split('/').slice(-1)[0]}:${c.lineNumber}`);
    cur = parent.get(cur);
  }
  const k = chain.join(' < ');
  stacks.set(k, (stacks.get(k) ?? 0) + t);
}
for (const [k, t] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 8))
  console.log((t / 1000).toFixed(0).padStart(6), 'ms', k);
