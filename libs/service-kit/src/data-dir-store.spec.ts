import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataDirStoreError, claimDataDirStore, recordIndexesRebuilt } from './data-dir-store';

describe('the data folder store record', () => {
  let dir: string;
  const record = async () => JSON.parse(await fs.readFile(path.join(dir, 'store.json'), 'utf8'));
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-store-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('records a new folder as the embedded store, and accepts it again', async () => {
    await expect(fs.stat(path.join(dir, 'store.json'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await claimDataDirStore(dir)).toBe('builtin');
    expect(await record()).toEqual({ store: 'builtin' });
    expect(await claimDataDirStore(dir)).toBe('builtin');
  });

  it('keeps the record of a folder the LanceDB store wrote until its indexes are rebuilt, then removes its tables', async () => {
    await fs.mkdir(path.join(dir, 'lancedb', 'tables'), { recursive: true });
    await fs.writeFile(path.join(dir, 'store.json'), '{"store":"lancedb"}\n');
    expect(await claimDataDirStore(dir)).toBe('lancedb');
    // The embedded indexes open (their folders appear) before the rebuild ends: a start cut short rebuilds again.
    await fs.mkdir(path.join(dir, 'bm25'));
    expect(await claimDataDirStore(dir)).toBe('lancedb');
    expect(await record()).toEqual({ store: 'lancedb' });

    await recordIndexesRebuilt(dir);
    expect(await record()).toEqual({ store: 'builtin' });
    await expect(fs.stat(path.join(dir, 'lancedb'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await claimDataDirStore(dir)).toBe('builtin');
  });

  it('reads a folder from before the record by the folders it holds', async () => {
    await fs.mkdir(path.join(dir, 'lancedb'));
    expect(await claimDataDirStore(dir)).toBe('lancedb');
    await expect(fs.stat(path.join(dir, 'store.json'))).rejects.toMatchObject({ code: 'ENOENT' });

    const other = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-store-'));
    try {
      await fs.mkdir(path.join(other, 'bm25'));
      expect(await claimDataDirStore(other)).toBe('builtin');
      expect(JSON.parse(await fs.readFile(path.join(other, 'store.json'), 'utf8'))).toEqual({ store: 'builtin' });
    } finally {
      await fs.rm(other, { recursive: true, force: true });
    }
  });

  it('names an unreadable record, and one naming a store it does not know', async () => {
    await fs.writeFile(path.join(dir, 'store.json'), '{');
    await expect(claimDataDirStore(dir)).rejects.toThrow(DataDirStoreError);
    await expect(claimDataDirStore(dir)).rejects.toThrow(/store\.json is unreadable/);
    await fs.writeFile(path.join(dir, 'store.json'), '{"store":"sqlite"}');
    await expect(claimDataDirStore(dir)).rejects.toThrow(/names no store this version knows/);
  });
});
