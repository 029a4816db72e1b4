// Locates files shipped beside the server (migrations, the built web app) from src/ or dist/.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

function findServerRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === '@titan/server') return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot locate the @titan/server package root');
    dir = parent;
  }
}

export const serverRoot = findServerRoot();
export const migrationsDir = join(serverRoot, 'drizzle');
export const defaultWebDistDir = resolve(serverRoot, '../web/dist');
