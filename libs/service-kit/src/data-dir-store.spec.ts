import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataDirStoreError, claimDataDirStore } from './data-dir-store';

describe('claimDataDirStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-store-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('records the store of a new folder, and accepts it again', async () => {
    await claimDataDirStore(dir, 'lancedb');
    expect(JSON.parse(await fs.readFile(path.join(dir, 'store.json'), 'utf8'))).toEqual({ store: 'lancedb' });
    await claimDataDirStore(dir, 'lancedb');
  });

  it('refuses the other store, saying what to do', async () => {
    await claimDataDirStore(dir, 'builtin');
    const refusal = await claimDataDirStore(dir, 'lancedb').catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(DataDirStoreError);
    expect((refusal as Error).message).toContain(
      `DATA_DIR=${dir} holds the indexes of STANDALONE_STORE=builtin, and this start asks for STANDALONE_STORE=lancedb`,
    );
    expect((refusal as Error).message).toContain('start with STANDALONE_STORE=builtin, or give this one a new DATA_DIR');
  });

  it('reads a folder from before the record by the indexes it holds', async () => {
    await fs.mkdir(path.join(dir, 'bm25'));
    await expect(claimDataDirStore(dir, 'lancedb')).rejects.toBeInstanceOf(DataDirStoreError);
    await claimDataDirStore(dir, 'builtin');
    expect(JSON.parse(await fs.readFile(path.join(dir, 'store.json'), 'utf8'))).toEqual({ store: 'builtin' });
  });

  it('names an unreadable record', async () => {
    await fs.writeFile(path.join(dir, 'store.json'), '{');
    await expect(claimDataDirStore(dir, 'builtin')).rejects.toThrow(/store\.json is unreadable/);
  });
});
