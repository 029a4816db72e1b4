// Builds the app once so every e2e suite runs what `npm start` serves; in CI, insists on Chromium.
import { spawnSync } from 'node:child_process';
import { chromiumPath, hasChromium } from './browser';
import { repoRoot } from './paths';

export function setup(): void {
  // Locally the browser suites skip without Chromium (the summary says so); in CI that would hide
  // them, so the run fails instead.
  if (process.env.CI && !hasChromium) {
    throw new Error(`CI needs Chromium at ${chromiumPath} for the browser suites (apt-get install chromium)`);
  }
  if (process.env.E2E_SKIP_BUILD === '1') return;
  // Vitest sets NODE_ENV=test; a build inheriting it would bundle React's development build.
  const res = spawnSync('npm', ['run', 'build'], {
    cwd: repoRoot,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (res.status !== 0) throw new Error('`npm run build` failed; e2e suites need the built app');
}
