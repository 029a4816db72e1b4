#!/usr/bin/env node
// `npm start`: check the configuration first (so a bad PORT fails in a second, not after a
// build), build what is stale, then run the server in this process.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { register } from 'tsx/esm/api';

const root = join(import.meta.dirname, '..');

const unregister = register();
const { parseConfigEnv, ConfigError } = await import('../apps/server/src/config.ts');
try {
  parseConfigEnv(process.env);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
await unregister();

function newest(dir) {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (
      !entry.isFile() ||
      entry.parentPath.includes('node_modules') ||
      entry.parentPath.includes('__tests__')
    )
      continue;
    latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}
const builtAt = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);

const contracts = newest(join(root, 'packages/contracts/src'));
const targets = [
  {
    name: '@titan/web',
    output: join(root, 'apps/web/dist/index.html'),
    inputs: [join(root, 'apps/web/src'), join(root, 'apps/web/index.html'), join(root, 'apps/web/public')],
  },
  {
    name: '@titan/widget',
    output: join(root, 'apps/widget/dist/widget.js'),
    inputs: [join(root, 'apps/widget/src'), join(root, 'apps/widget/frame.html')],
  },
  {
    name: '@titan/server',
    output: join(root, 'apps/server/dist/main.js'),
    inputs: [join(root, 'apps/server/src'), join(root, 'apps/server/drizzle')],
  },
];
for (const target of targets) {
  const sourcesAt = Math.max(
    contracts,
    ...target.inputs.map((p) => (existsSync(p) && statSync(p).isFile() ? statSync(p).mtimeMs : newest(p))),
  );
  if (builtAt(target.output) >= sourcesAt) continue;
  console.log(`Building ${target.name}…`);
  // Builds are always production builds, whatever NODE_ENV the server itself runs with.
  const res = spawnSync('npm', ['run', 'build', '-w', target.name], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

await import('../apps/server/dist/main.js');
