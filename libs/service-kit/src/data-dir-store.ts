import { promises as fs } from 'node:fs';
import * as path from 'node:path';

const RECORD = 'store.json';

/** The folders the embedded keyword index and vector sets live in. */
export const EMBEDDED_INDEX_FOLDERS = ['bm25', 'vectors'];

/** Where the LanceDB store, which the standalone once offered beside its own, kept its tables. */
const LANCEDB_FOLDER = 'lancedb';

/** Whose indexes a data folder holds: the embedded store's, or the LanceDB store's (unreadable now). */
export type DataDirStore = 'builtin' | 'lancedb';

/** A store record that cannot be read: starting over it could hide every CV processed. */
export class DataDirStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirStoreError';
  }
}

const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

/**
 * Whose indexes the data folder holds (undefined for a new folder), and whether its record says
 * so. A folder from before the record is the store whose folders it has.
 */
async function readStore(dataDir: string): Promise<{ store: DataDirStore | undefined; recorded: boolean }> {
  const file = path.join(dataDir, RECORD);
  let record: unknown;
  try {
    record = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new DataDirStoreError(`${file} is unreadable: ${(error as Error).message}`);
    if (await exists(path.join(dataDir, LANCEDB_FOLDER))) {
      const builtin = await Promise.all(EMBEDDED_INDEX_FOLDERS.map((folder) => exists(path.join(dataDir, folder))));
      if (!builtin.some(Boolean)) return { store: 'lancedb', recorded: false };
    }
    return { store: (await exists(path.join(dataDir, EMBEDDED_INDEX_FOLDERS[0]))) ? 'builtin' : undefined, recorded: false };
  }
  const store = (record as { store?: unknown } | null)?.store;
  if (store === 'builtin' || store === 'lancedb') return { store, recorded: true };
  throw new DataDirStoreError(`${file} is unreadable: it names no store this version knows (builtin)`);
}

async function writeRecord(dataDir: string): Promise<void> {
  const file = path.join(dataDir, RECORD);
  const aside = `${file}.${process.pid}.tmp`;
  await fs.writeFile(aside, `${JSON.stringify({ store: 'builtin' })}\n`);
  await fs.rename(aside, file);
}

/**
 * Records at a folder's first start that its indexes are the embedded store's. A folder the
 * LanceDB store wrote keeps its record until its indexes are rebuilt from the stored texts
 * (recordIndexesRebuilt), so a start cut short rebuilds again. Returns whose indexes it holds:
 * the one read of the record at start, handed to what needs it.
 */
export async function claimDataDirStore(dataDir: string): Promise<DataDirStore> {
  const { store, recorded } = await readStore(dataDir);
  if (store !== 'lancedb' && !recorded) await writeRecord(dataDir);
  return store ?? 'builtin';
}

/** After a rebuild: the folder is the embedded store's, and the LanceDB tables, read by nothing now, go. */
export async function recordIndexesRebuilt(dataDir: string): Promise<void> {
  await writeRecord(dataDir);
  await fs.rm(path.join(dataDir, LANCEDB_FOLDER), { recursive: true, force: true });
}
