import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * A new database's files come from initdb, which in WebAssembly takes 6 to 7 s of one core and
 * leaves about 600 MB in the WebAssembly heap, which never shrinks. Its output is the same for
 * every new database of one PGlite version, so it is made once, in a short-lived child process,
 * and kept in a cache: the cluster's files, shut down, that new data folders are copied from
 * (about 1 s with the open), and a dump of it made while it ran (PGlite's `dumpDataDir`, which
 * replays its WAL when loaded) for in-memory databases. The cache sits where build tools keep
 * theirs, in `node_modules/.cache`; where that cannot be written (the image, whose service user
 * does not own it), each new data folder runs initdb in a child, as before.
 */
export interface ClusterTemplate {
  /** The cluster's files, to copy into an empty data folder. */
  folder: string;
  /** The same cluster as a gzipped tarball, for PGlite's `loadDataDir`. */
  tarball: string;
}

const PGLITE_ENTRY = require.resolve('@electric-sql/pglite');
const PGLITE_ROOT = packageRoot(PGLITE_ENTRY);
const PGLITE_VERSION = (JSON.parse(readFileSync(path.join(PGLITE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** `node_modules/.cache/candidate-search/pglite`, in the `node_modules` that holds PGlite. */
export const DEFAULT_CACHE = path.join(PGLITE_ROOT, '../../.cache/candidate-search/pglite');
/** Counts changes to what the cache holds, so that caches made before are not read (2: owner-only modes; 3: in its name). */
const CACHE_FORMAT = 3;
/** What the names of this version's caches start with: the others' are removed. */
const CURRENT = `${PGLITE_VERSION}-f${CACHE_FORMAT}-`;
/**
 * A making folder this old was left by a process that died (a make takes seconds); an earlier
 * version's cache this old is read by no process still running from before an upgrade.
 */
const ABANDONED_AFTER_MS = 10 * 60_000;

/** The folder that holds, or will hold, the cache of a cluster started with `startParams`. */
export function templateHome(startParams: readonly string[], cache = DEFAULT_CACHE): string {
  const key = createHash('sha256').update(JSON.stringify(startParams)).digest('hex').slice(0, 12);
  return path.join(cache, `${CURRENT}${key}`);
}

/** `null`: no cache can be written under `cache`; initdb then runs in a child for each new folder. */
export async function clusterTemplate(startParams: readonly string[], cache = DEFAULT_CACHE): Promise<ClusterTemplate | null> {
  const home = templateHome(startParams, cache);
  const template = { folder: path.join(home, 'cluster'), tarball: path.join(home, 'cluster.tar.gz') };
  const whole = () => existsSync(template.tarball) && existsSync(path.join(template.folder, 'PG_VERSION'));
  if (whole()) return template;
  // Made beside its final place and renamed there: a process that reads the cache never sees half
  // of one, and of two processes making it at once, the second to finish keeps the first's.
  const making = `${home}.${randomUUID()}`;
  try {
    await fs.mkdir(path.join(making, 'cluster'), { recursive: true });
  } catch {
    return null;
  }
  try {
    await removeStale(cache);
    initialiseInChild(path.join(making, 'cluster'), startParams, path.join(making, 'cluster.tar.gz'));
    // The owner's alone, as PostgreSQL's initdb makes a data folder (they hold CVs): copies keep these modes.
    await restrictModes(making);
    for (let attempt = 0; ; attempt++) {
      try {
        await fs.rename(making, home);
        break;
      } catch (error) {
        if (whole()) break;
        if (attempt >= 3) throw error;
        // A cache a file of which was removed since: set aside, and this one put in its place. Where
        // it is gone already, another maker set it aside a moment ago: the rename is tried again.
        if (existsSync(home)) await removeBroken(home);
      }
    }
    return template;
  } finally {
    await fs.rm(making, { recursive: true, force: true });
  }
}

/** Moves a broken cache out of the way, then removes it; another maker may just have done so. */
async function removeBroken(home: string): Promise<void> {
  const aside = `${home}.${randomUUID()}`;
  try {
    await fs.rename(home, aside);
  } catch {
    return;
  }
  await fs.rm(aside, { recursive: true, force: true });
}

/**
 * Removes from `cache`, once older than ABANDONED_AFTER_MS, the making folders that processes
 * which died left (`<name>.<uuid>`) and the caches of an earlier PGlite version or cache format
 * (40 MB each); this version's caches of other start parameters stay. Best effort: what cannot be
 * removed (another user's) stays, and the make goes on.
 */
async function removeStale(cache: string): Promise<void> {
  for (const name of await fs.readdir(cache)) {
    const making = /\.[0-9a-f-]{36}$/.test(name);
    if (!making && name.startsWith(CURRENT)) continue;
    const folder = path.join(cache, name);
    const stat = await fs.stat(folder).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > ABANDONED_AFTER_MS)
      await fs.rm(folder, { recursive: true, force: true }).catch(() => undefined);
  }
}

async function restrictModes(folder: string): Promise<void> {
  await fs.chmod(folder, 0o700);
  for (const entry of await fs.readdir(folder, { recursive: true, withFileTypes: true }))
    await fs.chmod(path.join(entry.parentPath, entry.name), entry.isDirectory() ? 0o700 : 0o600);
}

/** initdb in a short-lived child process, so its heap is not the caller's; `tarball`: also dumped there. */
export function initialiseInChild(dir: string, startParams: readonly string[], tarball?: string): void {
  const script = `const { PGlite } = require(${JSON.stringify(PGLITE_ENTRY)});
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
