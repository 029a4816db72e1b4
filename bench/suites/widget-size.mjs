// What a host page pays for the chat widget: gzip sizes of the loader and of the iframe app's
// JavaScript, beside their budgets (issue 5: loader ≤ 3 KB, frame ≤ 80 KB). The frame's message
// catalogues are one chunk per locale and a visitor loads one (issue 30): the frame counts its other
// chunks plus the largest catalogue, as apps/widget/scripts/size.mjs does.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const name = 'widget-size';

const kb = (bytes) => (Number.isFinite(bytes) ? `${(bytes / 1024).toFixed(2)} KB` : '—');

export const columns = [
  { key: 'part', label: 'part' },
  { key: 'rawBytes', label: 'raw', align: 'right', format: kb },
  { key: 'gzipBytes', label: 'gzip', align: 'right', format: kb },
  { key: 'budgetBytes', label: 'budget (gzip)', align: 'right', format: kb },
  { key: 'ratio', label: 'gzip/budget', align: 'right', format: (v) => `${v.toFixed(2)}x` },
  { key: 'verdict', label: 'target' },
];

const dist = join(import.meta.dirname, '..', '..', 'apps', 'widget', 'dist');

async function sizeOf(files) {
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const bytes = await readFile(file);
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { raw, gzip };
}

function row(part, size, budget) {
  const ratio = size.gzip / budget;
  return {
    part,
    rawBytes: size.raw,
    gzipBytes: size.gzip,
    budgetBytes: budget,
    ratio,
    verdict: ratio <= 1 ? 'met' : 'MISS',
  };
}

export async function run() {
  if (!existsSync(join(dist, 'widget.js'))) {
    throw new Error('apps/widget/dist is missing: run `npm run build` first');
  }
  const assets = join(dist, 'assets');
  const CATALOGUE = /widget-messages_([a-z]{2})-/;
  const js = existsSync(assets) ? (await readdir(assets)).filter((f) => f.endsWith('.js')) : [];
  const frameJs = js.filter((f) => !CATALOGUE.test(f)).map((f) => join(assets, f));
  const catalogues = [];
  for (const f of js.filter((f) => CATALOGUE.test(f)))
    catalogues.push({ locale: CATALOGUE.exec(f)[1], ...(await sizeOf([join(assets, f)])) });
  const largest = catalogues.reduce((max, c) => (c.gzip > max.gzip ? c : max), { raw: 0, gzip: 0 });
  const frame = await sizeOf(frameJs);
  return {
    title: 'widget-size — what a host page downloads (gzip level 9)',
    rows: [
      row('loader /widget.js', await sizeOf([join(dist, 'widget.js')]), 3 * 1024),
      row(
        'iframe app JS (all chunks, one catalogue)',
        { raw: frame.raw + largest.raw, gzip: frame.gzip + largest.gzip },
        80 * 1024,
      ),
    ],
    notes: [
      'With the widget closed a host page loads only the loader; the iframe app loads on first open.',
      `Message catalogues (gzip, one loaded per visitor, the largest counted above): ${catalogues
        .map((c) => `${c.locale} ${kb(c.gzip)}`)
        .join(', ')}.`,
    ],
  };
}
