// One process per embedded data dir: PGlite has no lock of its own, and two writers corrupt it.
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const heldInThisProcess = new Set<string>();

export class DataDirInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database in ${dir} is already in use by another Titan process (pid ${pid}). ` +
        'Stop that process first, or point DATA_DIR at another folder.',
    );
    this.name = 'DataDirInUseError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock or throws DataDirInUseError; a lock left by a dead process is taken over. */
export function lockDataDir(dir: string): () => void {
  const file = join(dir, 'titan.pid');
  if (heldInThisProcess.has(file)) throw new DataDirInUseError(dir, process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      heldInThisProcess.add(file);
      return () => {
        heldInThisProcess.delete(file);
        try {
          unlinkSync(file);
        } catch {
          // already gone: nothing to release
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) {
        throw new DataDirInUseError(dir, pid);
      }
      unlinkSync(file); // stale: its process is gone
    }
  }
  throw new DataDirInUseError(dir, Number.NaN);
}
