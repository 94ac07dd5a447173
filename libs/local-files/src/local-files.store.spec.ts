import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalFilesStore } from './local-files.store';

describe('LocalFilesStore', () => {
  let root: string;
  let store: LocalFilesStore;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'files-'));
    store = new LocalFilesStore(root);
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  it('stores, stats, reads and deletes a file', async () => {
    await store.put('company/doc', Buffer.from('%PDF-1.4'), 'application/pdf');
    expect(await store.stat('company/doc')).toEqual({ size: 8 });
    expect((await store.get('company/doc')).toString()).toBe('%PDF-1.4');
    expect(await store.delete('company/doc')).toBe(true);
    expect(await store.delete('company/doc')).toBe(false);
    expect(await store.stat('company/doc')).toBeNull();
  });

  it('refuses keys that would leave its folder', async () => {
    await expect(store.put('../escape', Buffer.from('x'), 'text/plain')).rejects.toThrow(/invalid storage key/);
  });
});
