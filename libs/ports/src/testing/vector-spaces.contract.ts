import { describeWith, type TestNeed } from '@cs/test-services';
import type { DenseModel } from '../dense-encoder.port';
import type { VectorSpaces } from '../vector-index.port';

const OLD: DenseModel = { id: 'builtin:test-3d-v1', dimensions: 3 };
const NEW: DenseModel = { id: 'onnx:tiny@0123456789ab', dimensions: 4 };

const unit = (...values: number[]): Float32Array => {
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (x) => x / norm);
};

/**
 * What every VectorSpaces adapter must do. `open` returns spaces over fresh, empty storage;
 * `reopen` opens them again over the same storage (as a restart does).
 */
export function describeVectorSpacesContract(
  name: string,
  open: () => Promise<VectorSpaces>,
  reopen: () => Promise<VectorSpaces>,
  needs: TestNeed[] = [],
): void {
  describeWith(needs)(`VectorSpaces contract: ${name}`, () => {
    it('records no model in an empty store, and the model activated once its set is open', async () => {
      const spaces = await open();
      try {
        expect(await spaces.active()).toBeNull();
        await spaces.open(OLD);
        await spaces.activate(OLD);
        expect(await spaces.active()).toEqual(OLD);
      } finally {
        await spaces.close();
      }
      const again = await reopen();
      try {
        expect(await again.active()).toEqual(OLD);
      } finally {
        await again.close();
      }
    });

    it("keeps two models' sets apart, each of its own dimension, and removes the old one after the switch", async () => {
      const spaces = await open();
      try {
        const old = await spaces.open(OLD);
        await spaces.activate(OLD);
        await old.upsert('c1', 'd1', [{ chunkIndex: -1, vector: unit(1, 0, 0) }]);
        const next = await spaces.open(NEW);
        await next.upsert('c1', 'd1', [{ chunkIndex: -1, vector: unit(0, 1, 0, 0) }]);
        await next.upsert('c1', 'd2', [{ chunkIndex: -1, vector: unit(0, 0, 1, 0) }]);
        expect(await old.count('c1')).toBe(1);
        expect(await next.count('c1')).toBe(2);
        expect(await spaces.open(NEW)).toBe(next);
        // Searches still read the old set until the switch.
        expect(await spaces.active()).toEqual(OLD);
        await spaces.activate(NEW);
        expect(await spaces.active()).toEqual(NEW);
        expect((await next.search('c1', unit(0, 1, 0, 0), 5)).map((h) => h.documentId)).toEqual(['d1', 'd2']);
        // Replicas that have not yet seen the switch still read the old set, until it is removed.
        expect(await old.count('c1')).toBe(1);
        await spaces.removeAllBut(NEW);
      } finally {
        await spaces.close();
      }
      const again = await reopen();
      try {
        expect(await again.active()).toEqual(NEW);
        const reopened = await again.open(NEW);
        expect(await reopened.count('c1')).toBe(2);
        // The old set is gone: opened again, it is empty.
        expect(await (await again.open(OLD)).count('c1')).toBe(0);
      } finally {
        await again.close();
      }
    });

    it('refuses to activate a set never opened', async () => {
      const spaces = await open();
      try {
        await expect(spaces.activate(NEW)).rejects.toThrow(/not open/);
      } finally {
        await spaces.close();
      }
    });
  });
}
