import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** Every file under `folder` whose bytes hold `needle`: what erasure tests look for after a compaction. */
export async function filesHolding(folder: string, needle: string | Buffer): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await fs.readdir(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if ((await fs.readFile(file)).includes(needle)) found.push(file);
  }
  return found;
}
