#!/usr/bin/env node
// Prints the widget's gzip sizes and fails when a budget is exceeded (issue 5 "Performance"):
// the loader ≤ 3 KB and the chat app's JavaScript ≤ 80 KB, both gzipped. The chat's message
// catalogues are one chunk per locale (issue 30) and a visitor loads one of them: the frame's
// JavaScript is every other chunk plus the largest catalogue.
// `--json` prints one JSON object instead, for benchmarks to read.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = join(import.meta.dirname, '..', 'dist');
const KB = 1024;
const BUDGET = { loader: 3 * KB, frame: 80 * KB };

const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;

if (!existsSync(join(dist, 'widget.js'))) {
  console.error('apps/widget/dist/widget.js is missing: run `npm run build -w @titan/widget` first');
  process.exit(1);
}
const assets = existsSync(join(dist, 'assets')) ? readdirSync(join(dist, 'assets')) : [];
const CATALOGUE = /widget-messages_([a-z]{2})-/;
const frameJs = assets
  .filter((f) => f.endsWith('.js') && !CATALOGUE.test(f))
  .map((f) => join(dist, 'assets', f));
const catalogues = Object.fromEntries(
  assets.filter((f) => CATALOGUE.test(f)).map((f) => [CATALOGUE.exec(f)[1], gz(join(dist, 'assets', f))]),
);
const largestCatalogue = Math.max(0, ...Object.values(catalogues));
const frameCss = assets.filter((f) => f.endsWith('.css')).map((f) => join(dist, 'assets', f));
const sizes = {
  loader_gzip_bytes: gz(join(dist, 'widget.js')),
  frame_js_gzip_bytes: frameJs.reduce((sum, f) => sum + gz(f), 0) + largestCatalogue,
  catalogue_gzip_bytes: catalogues,
  frame_css_gzip_bytes: frameCss.reduce((sum, f) => sum + gz(f), 0),
  frame_js_files: frameJs.length,
};
const over = [];
if (sizes.loader_gzip_bytes > BUDGET.loader) over.push('loader');
if (sizes.frame_js_gzip_bytes > BUDGET.frame) over.push('frame JavaScript');

if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ ...sizes, budget_ok: over.length === 0 }));
} else {
  const kb = (n) => `${(n / KB).toFixed(2)} KB`;
  console.log(
    `widget loader (widget.js)    ${kb(sizes.loader_gzip_bytes)} gzip  (budget ${kb(BUDGET.loader)})`,
  );
  console.log(
    `widget frame JavaScript      ${kb(sizes.frame_js_gzip_bytes)} gzip  (budget ${kb(BUDGET.frame)}, ${sizes.frame_js_files} files + the largest catalogue)`,
  );
  console.log(
    `widget catalogues            ${Object.entries(catalogues)
      .map(([locale, n]) => `${locale} ${kb(n)}`)
      .join(', ')} gzip (one loaded per visitor)`,
  );
  console.log(`widget frame CSS             ${kb(sizes.frame_css_gzip_bytes)} gzip`);
}
if (over.length > 0) {
  console.error(`Over budget: ${over.join(', ')}`);
  process.exit(1);
}
