import { promises as fs, readFileSync, unlinkSync } from 'node:fs';
import * as path from 'node:path';

/** Two processes on one data folder would both write its embedded database and indexes, and ruin them. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `another process (pid ${pid}) is using DATA_DIR=${dataDir}: stop it, or give this one another DATA_DIR. ` +
        `If no such process runs, delete ${path.join(dataDir, LOCK_FILE)}`,
    );
    this.name = 'DataDirInUseError';
  }
}

const LOCK_FILE = 'process.pid';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims the data folder for this process, as PostgreSQL's postmaster.pid does: a file naming
 * the holder's pid, taken over when that process is gone (a crash leaves it; the next start
 * goes on at once, where a lock that goes stale by age would make it wait). Released at exit.
 * Resolves once held; throws DataDirInUseError while a live process holds it.
 */
export async function claimDataDir(dataDir: string): Promise<() => void> {
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await fs.writeFile(file, `${process.pid}\n`, { flag: 'wx' });
      const release = () => {
        try {
          if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
        } catch {
          // Gone already.
        }
      };
      process.once('exit', release);
      return () => {
        process.removeListener('exit', release);
        release();
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number((await fs.readFile(file, 'utf8').catch(() => '')).trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isRunning(holder)) throw new DataDirInUseError(dataDir, holder);
    // Its holder is gone: take it over (two starting at once race on the create above, and one wins).
    await fs.rm(file, { force: true });
  }
  throw new Error(`could not claim ${file}: it keeps coming back`);
}
