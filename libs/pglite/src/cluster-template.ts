import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';

/**
 * A new database's files come from initdb, which in WebAssembly takes 5 to 7 s of one core and
 * leaves about 600 MB in the WebAssembly heap, which never shrinks. Its output is the same for
 * every new database of one PGlite version, so it is made once, in a short-lived child process,
 * and kept in a cache: a folder that new data folders are copied from (0.3 s), and the same
 * cluster as a tarball for in-memory databases (PGlite's `loadDataDir`). The cache sits where
 * build tools keep theirs, in `node_modules/.cache`; where that cannot be written (a read-only
 * image), each new data folder runs initdb in a child, as before.
 */
export interface ClusterTemplate {
  /** The cluster's files, to copy into an empty data folder. */
  folder: string;
  /** The same files as a gzipped tarball. */
  tarball: string;
}

const PGLITE_ROOT = packageRoot(require.resolve('@electric-sql/pglite'));
/** `node_modules/.cache/candidate-search/pglite`, in the `node_modules` that holds PGlite. */
export const DEFAULT_CACHE = path.join(PGLITE_ROOT, '../../.cache/candidate-search/pglite');

/** `null`: no cache can be written under `cache`; initdb then runs in a child for each new folder. */
export async function clusterTemplate(startParams: readonly string[], cache = DEFAULT_CACHE): Promise<ClusterTemplate | null> {
  const { version } = JSON.parse(await fs.readFile(path.join(PGLITE_ROOT, 'package.json'), 'utf8')) as { version: string };
  const key = createHash('sha256').update(JSON.stringify(startParams)).digest('hex').slice(0, 12);
  const home = path.join(cache, `${version}-${key}`);
  const template = { folder: path.join(home, 'cluster'), tarball: path.join(home, 'cluster.tar.gz') };
  if (existsSync(template.tarball)) return template;
  // Made beside its final place and renamed there: a process that reads the cache never sees half
  // of one, and of two processes making it at once, the second to finish keeps the first's.
  const making = `${home}.${randomUUID()}`;
  try {
    await fs.mkdir(path.join(making, 'cluster'), { recursive: true });
  } catch {
    return null;
  }
  try {
    initialiseInChild(path.join(making, 'cluster'), startParams, path.join(making, 'cluster.tar.gz'));
    await fs.rename(making, home).catch((error: unknown) => {
      if (!existsSync(template.tarball)) throw error;
    });
    return template;
  } finally {
    await fs.rm(making, { recursive: true, force: true });
  }
}

/** initdb in a short-lived child process, so its heap is not the caller's; `tarball`: also dumped there. */
export function initialiseInChild(dir: string, startParams: readonly string[], tarball?: string): void {
  const entry = require.resolve('@electric-sql/pglite');
  const script = `const { PGlite } = require(${JSON.stringify(entry)});
    const fs = require('node:fs');
    (async () => {
      const db = new PGlite(${JSON.stringify(dir)}, { startParams: ${JSON.stringify(startParams)} });
      await db.waitReady;
      const tarball = ${JSON.stringify(tarball ?? null)};
      if (tarball) fs.writeFileSync(tarball, Buffer.from(await (await db.dumpDataDir('gzip')).arrayBuffer()));
      await db.close();
    })().catch((e) => { console.error(e); process.exit(1); });`;
  execFileSync(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } });
}

/** The folder of the package `entry` belongs to: the one below its last `node_modules`. */
function packageRoot(entry: string): string {
  const parts = entry.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  return parts.slice(0, at + (parts[at + 1].startsWith('@') ? 3 : 2)).join(path.sep);
}
