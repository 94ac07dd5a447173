import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { BlobInfo, BlobStore } from '@cs/ports';

/** CV files in the data folder, one file per key; writes go through a temporary file. */
export class LocalFilesStore implements BlobStore {
  constructor(private readonly root: string) {}

  private fileOf(key: string): string {
    if (!/^[A-Za-z0-9/_.-]+$/.test(key) || key.split('/').some((p) => p === '..' || p === '' || p === '.')) {
      throw new Error(`invalid storage key ${key}`);
    }
    return path.join(this.root, key);
  }

  async put(key: string, bytes: Buffer, _contentType: string): Promise<void> {
    const file = this.fileOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    const handle = await fs.open(tmp, 'w');
    try {
      await handle.writeFile(bytes);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
  }

  async get(key: string): Promise<Buffer> {
    return fs.readFile(this.fileOf(key));
  }

  async stat(key: string): Promise<BlobInfo | null> {
    try {
      return { size: (await fs.stat(this.fileOf(key))).size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<boolean> {
    try {
      await fs.unlink(this.fileOf(key));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }
}
