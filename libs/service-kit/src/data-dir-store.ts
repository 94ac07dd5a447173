import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { AppConfig } from '@cs/config';

type Store = AppConfig['standaloneStore'];

const RECORD = 'store.json';

/** The folders each store's indexes live in, which tell a data folder's store from before the record. */
export const STORE_INDEX_FOLDERS: Record<Store, string[]> = { builtin: ['bm25', 'vectors'], lancedb: ['lancedb'] };

/** Indexes of one store opened as another would be empty: every CV already processed would go unfound. */
export class DataDirStoreError extends Error {
  constructor(dataDir: string, held: Store, asked: Store) {
    super(
      `DATA_DIR=${dataDir} holds the indexes of STANDALONE_STORE=${held}, and this start asks for STANDALONE_STORE=${asked}, ` +
        `whose indexes there are empty: start with STANDALONE_STORE=${held}, or give this one a new DATA_DIR and upload the CVs to it`,
    );
    this.name = 'DataDirStoreError';
  }
}

const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

/**
 * Records in the data folder which store its embedded indexes are in, at the first start, and
 * refuses a later start that names the other (DataDirStoreError). A folder from before the
 * record is the store whose folders it has.
 */
export async function claimDataDirStore(dataDir: string, store: Store): Promise<void> {
  const file = path.join(dataDir, RECORD);
  let held: Store | undefined;
  try {
    held = (JSON.parse(await fs.readFile(file, 'utf8')) as { store: Store }).store;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${file} is unreadable: ${(error as Error).message}`);
  }
  if (held === undefined) {
    for (const candidate of Object.keys(STORE_INDEX_FOLDERS) as Store[]) {
      const found = await Promise.all(STORE_INDEX_FOLDERS[candidate].map((folder) => exists(path.join(dataDir, folder))));
      if (found.some(Boolean)) held = candidate;
    }
  }
  if (held !== undefined && held !== store) throw new DataDirStoreError(dataDir, held, store);
  if (!(await exists(file))) {
    const aside = `${file}.${process.pid}.tmp`;
    await fs.writeFile(aside, `${JSON.stringify({ store })}\n`);
    await fs.rename(aside, file);
  }
}
