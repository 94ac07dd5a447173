import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';

/**
 * Every file under `folder` whose bytes hold `needle`: what erasure tests look for after a compaction.
 * Lance renames its temporary files while a background pass writes, and a compaction removes a whole
 * table folder, so a folder may vanish while it is listed and a file listed may be gone when it is
 * read: the folder is then walked again from the start, never skipped in part.
 */
export async function filesHolding(folder: string, needle: string | Buffer): Promise<string[]> {
  for (let walk = 0; walk < 20; walk++) {
    const found = await walkOnce(folder, needle);
    if (found) return found;
  }
  throw new Error(`${folder} kept changing under 20 walks`);
}

/** One walk, or null when a folder or file vanished before it was read. */
async function walkOnce(folder: string, needle: string | Buffer): Promise<string[] | null> {
  const found: string[] = [];
  const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
    // Only a folder below it may vanish: the folder asked about is the test's own.
    if (!existsSync(folder)) throw error;
    return nullWhenGone(error);
  });
  if (!entries) return null;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const bytes = await fs.readFile(file).catch(nullWhenGone);
    if (!bytes) return null;
    if (bytes.includes(needle)) found.push(file);
  }
  return found;
}

function nullWhenGone(error: unknown): null {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
  throw error;
}
