import { join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '..', '..');
export const serverMain = join(repoRoot, 'apps/server/dist/main.js');
export const serverWorker = join(repoRoot, 'apps/server/dist/worker.js');
export const startScript = join(repoRoot, 'scripts/start.mjs');
