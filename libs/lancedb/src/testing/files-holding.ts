import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/**
 * Every file under `folder` whose bytes hold `needle`: what erasure tests look for after a compaction.
 * Lance renames its temporary files while a background pass writes, so a file listed may be gone
 * when it is read: the folder is then walked again from the start, never skipped in part.
 */
export async function filesHolding(folder: string, needle: string | Buffer): Promise<string[]> {
  for (let walk = 0; walk < 20; walk++) {
    const found = await walkOnce(folder, needle);
    if (found) return found;
  }
  throw new Error(`${folder} kept changing under 20 walks`);
}

/** One walk, or null when a listed file vanished before it was read. */
async function walkOnce(folder: string, needle: string | Buffer): Promise<string[] | null> {
  const found: string[] = [];
  for (const entry of await fs.readdir(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const bytes = await fs.readFile(file).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    });
    if (!bytes) return null;
    if (bytes.includes(needle)) found.push(file);
  }
  return found;
}
