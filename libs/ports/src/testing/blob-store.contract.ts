import { describeWith, type TestNeed } from '@cs/test-services';
import type { BlobStore } from '../blob-store.port';

/** What every BlobStore adapter must do; `open` returns an empty store. Missing needs skip the cases. */
export function describeBlobStoreContract(
  name: string,
  open: () => Promise<{ store: BlobStore; cleanup: () => Promise<void> }>,
  needs: TestNeed[] = [],
): void {
  describeWith(needs)(`BlobStore contract: ${name}`, () => {
    let opened: Awaited<ReturnType<typeof open>> | null = null;
    beforeAll(async () => {
      opened = await open();
    }, 30_000);
    afterAll(() => opened?.cleanup());
    const test = (title: string, fn: (store: BlobStore) => Promise<void>) =>
      it(title, async () => {
        if (!opened) throw new Error('the store did not open');
        await fn(opened.store);
      });

    test('stores, stats, reads back and deletes a file', async (store) => {
      const bytes = Buffer.from('%PDF-1.4 binary \u0000\u00ff bytes');
      await store.put('documents/c1/d1', bytes, 'application/pdf');
      expect(await store.stat('documents/c1/d1')).toEqual({ size: bytes.length });
      expect((await store.get('documents/c1/d1')).equals(bytes)).toBe(true);
      expect(await store.delete('documents/c1/d1')).toBe(true);
      expect(await store.delete('documents/c1/d1')).toBe(false);
      expect(await store.stat('documents/c1/d1')).toBeNull();
    });

    test('replaces a file put twice under one key', async (store) => {
      await store.put('uploads/c1/u1', Buffer.from('first'), 'text/plain');
      await store.put('uploads/c1/u1', Buffer.from('second, longer'), 'text/plain');
      expect((await store.get('uploads/c1/u1')).toString()).toBe('second, longer');
    });

    test('knows nothing of a key never written', async (store) => {
      expect(await store.stat('documents/none/none')).toBeNull();
      await expect(store.get('documents/none/none')).rejects.toBeDefined();
    });
  });
}
