import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeBlobStoreContract } from '@cs/ports/testing';
import { LocalFilesStore } from './local-files.store';

describeBlobStoreContract('local files', async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'files-'));
  return { store: new LocalFilesStore(root), cleanup: () => fs.rm(root, { recursive: true, force: true }) };
});

describe('LocalFilesStore', () => {
  it('refuses keys that would leave its folder', async () => {
    const store = new LocalFilesStore(os.tmpdir());
    await expect(store.put('../escape', Buffer.from('x'), 'text/plain')).rejects.toThrow(/invalid storage key/);
  });
});
