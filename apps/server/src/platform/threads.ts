// Starting a worker thread whose entry is a tsup entry of its own (tsup.config.ts): the built server
// runs `<name>.js` beside its chunks; from the TypeScript sources (tests, `tsx`) the thread
// registers tsx's loader before importing the `.ts` entry.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * `from`: the caller's import.meta.url; `built`: the entry's file name in dist (`inbound-thread.js`);
 * `source`: the entry's path relative to the caller's source file (`./email.inbound-thread.ts`).
 */
export function startThread(from: string, entry: { built: string; source: string }, data: unknown): Worker {
  if (!/\.ts$/.test(new URL(from).pathname)) {
    return new Worker(new URL(`./${entry.built}`, from), { workerData: data });
  }
  const tsx = createRequire(from)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const source = new URL(entry.source, from).href;
  const code =
    `import(${JSON.stringify(pathToFileURL(tsx).href)})` +
    `.then((api) => { api.register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(code, { eval: true, workerData: data });
}
