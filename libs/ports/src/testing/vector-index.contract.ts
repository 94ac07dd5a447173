import { describeWith, type TestNeed } from '@cs/test-services';
import type { VectorIndex } from '../vector-index.port';
import { FILTER_CASES, FILTER_CVS } from './filter-cases';

const unit = (...values: number[]): Float32Array => {
  const v = Float32Array.from(values);
  const norm = Math.hypot(...values);
  return v.map((x) => x / norm);
};

/**
 * The behaviour every VectorIndex adapter must show. `open` returns a fresh, empty index
 * (with 3 dimensions); `reopen`, where given, opens it again over the same storage.
 */
export function describeVectorIndexContract(
  name: string,
  open: () => Promise<VectorIndex>,
  reopen?: () => Promise<VectorIndex>,
  needs: TestNeed[] = [],
): void {
  describeWith(needs)(`VectorIndex contract: ${name}`, () => {
    let index: VectorIndex | null = null;
    beforeEach(async () => {
      index = await open();
    });
    afterEach(() => index?.close());

    it('ranks documents by their whole-document vector and names the closest passage', async () => {
      await index!.upsert('c1', 'doc-a', [
        { chunkIndex: -1, vector: unit(1, 1, 0) },
        { chunkIndex: 0, vector: unit(1, 0, 0) },
        { chunkIndex: 1, vector: unit(0, 1, 0) },
      ]);
      // A passage that matches exactly does not lift a document whose whole differs.
      await index!.upsert('c1', 'doc-b', [
        { chunkIndex: -1, vector: unit(0, 0, 1) },
        { chunkIndex: 0, vector: unit(0, 1, 0) },
      ]);
      await index!.upsert('c1', 'doc-c', [{ chunkIndex: -1, vector: unit(0, 1, 1) }]);
      const hits = await index!.search('c1', unit(0, 1, 0), 10);
      expect(hits.map((h) => [h.documentId, h.chunkIndex])).toEqual([
        ['doc-a', 1],
        ['doc-c', -1],
        ['doc-b', 0],
      ]);
      expect(hits[0].score).toBeCloseTo(Math.SQRT1_2, 5);
      expect(hits[2].score).toBeCloseTo(0, 5);
    });

    it('never returns another company’s documents', async () => {
      await index!.upsert('c1', 'doc-a', [{ chunkIndex: -1, vector: unit(1, 0, 0) }]);
      await index!.upsert('c2', 'doc-x', [{ chunkIndex: -1, vector: unit(1, 0, 0) }]);
      expect((await index!.search('c2', unit(1, 0, 0), 10)).map((h) => h.documentId)).toEqual(['doc-x']);
      expect(await index!.count('c1')).toBe(1);
    });

    it('forgets deleted documents and replaces re-indexed ones', async () => {
      await index!.upsert('c1', 'doc-a', [{ chunkIndex: -1, vector: unit(1, 0, 0) }]);
      await index!.upsert('c1', 'doc-b', [{ chunkIndex: -1, vector: unit(0, 0, 1) }]);
      expect(await index!.delete('c1', 'doc-a')).toBe(1);
      expect(await index!.delete('c1', 'doc-a')).toBe(0);
      await index!.upsert('c1', 'doc-b', [
        { chunkIndex: -1, vector: unit(1, 0, 0) },
        { chunkIndex: 3, vector: unit(1, 0, 0) },
      ]);
      const hits = await index!.search('c1', unit(1, 0, 0), 10);
      expect(hits.map((h) => [h.documentId, h.chunkIndex])).toEqual([['doc-b', 3]]);
    });

    it('gives the whole-document vectors of the documents asked for, leaving out ids it lacks', async () => {
      await index!.upsert('c1', 'doc-a', [
        { chunkIndex: -1, vector: unit(1, 1, 0) },
        { chunkIndex: 0, vector: unit(1, 0, 0) },
      ]);
      await index!.upsert('c1', 'doc-b', [{ chunkIndex: -1, vector: unit(0, 0, 1) }]);
      await index!.upsert('c2', 'doc-x', [{ chunkIndex: -1, vector: unit(1, 0, 0) }]);
      const vectors = await index!.documentVectors('c1', ['doc-b', 'doc-a', 'doc-x', 'missing']);
      expect([...vectors.keys()].sort()).toEqual(['doc-a', 'doc-b']);
      expect([...vectors.get('doc-a')!].map((x) => x.toFixed(5))).toEqual([...unit(1, 1, 0)].map((x) => x.toFixed(5)));
      expect([...vectors.get('doc-b')!].map((x) => x.toFixed(5))).toEqual([...unit(0, 0, 1)].map((x) => x.toFixed(5)));
      expect((await index!.documentVectors('c1', [])).size).toBe(0);
    });

    it('returns at most topK documents', async () => {
      for (let i = 0; i < 5; i++) await index!.upsert('c1', `doc-${i}`, [{ chunkIndex: -1, vector: unit(1, i, 0) }]);
      expect(await index!.search('c1', unit(1, 0, 0), 2)).toHaveLength(2);
    });

    describe('filters, applied before the top K', () => {
      // Each CV a little apart from the query, so every one is a neighbour.
      const vectorOf = (i: number) => unit(1, 0.1 * (i + 1), 0.05 * i);
      beforeEach(async () => {
        for (const [i, cv] of FILTER_CVS.entries())
          await index!.upsert('f1', cv.id, [{ chunkIndex: -1, vector: vectorOf(i) }], cv.attributes);
      });
      const found = async (filter: Parameters<VectorIndex['search']>[3], topK = 100) =>
        (await index!.search('f1', unit(1, 0, 0), topK, filter)).map((h) => h.documentId).sort();

      it.each(FILTER_CASES)('returns exactly the CVs that pass: $name', async ({ filter, expected }) => {
        expect(await found(filter)).toEqual(expected);
      });

      it('fills the top K from the CVs that pass, however many rank above them', async () => {
        for (let i = 0; i < 30; i++) await index!.upsert('f1', `more-${i}`, [{ chunkIndex: -1, vector: unit(1, 0, 0) }]);
        expect(await found({ seniority: ['lead'] }, 1)).toEqual(['python-lead-berlin']);
      });

      it('filters on attributes replaced after indexing', async () => {
        expect(await index!.setAttributes('f1', 'no-attributes', { ...FILTER_CVS[0].attributes!, seniority: 'intern' })).toBe(true);
        expect(await index!.setAttributes('f1', 'never-indexed', FILTER_CVS[0].attributes!)).toBe(false);
        expect(await found({ seniority: ['intern'] })).toEqual(['no-attributes']);
      });
    });

    if (reopen) {
      it('keeps attributes across a reopen', async () => {
        for (const [i, cv] of FILTER_CVS.entries())
          await index!.upsert('f1', cv.id, [{ chunkIndex: -1, vector: unit(1, 0.1 * i, 0) }], cv.attributes);
        await index!.setAttributes('f1', 'no-attributes', { ...FILTER_CVS[0].attributes!, seniority: 'intern' });
        await index!.close();
        index = await reopen();
        const found = await index.search('f1', unit(1, 0, 0), 100, { seniority: ['intern', 'lead'] });
        expect(found.map((h) => h.documentId).sort()).toEqual(['no-attributes', 'python-lead-berlin']);
      });

      it('keeps everything across a reopen', async () => {
        await index!.upsert('c1', 'doc-a', [
          { chunkIndex: -1, vector: unit(1, 0, 0) },
          { chunkIndex: 0, vector: unit(1, 0, 0) },
        ]);
        await index!.upsert('c1', 'doc-b', [{ chunkIndex: -1, vector: unit(0, 1, 0) }]);
        await index!.delete('c1', 'doc-b');
        await index!.close();
        index = await reopen();
        expect((await index.search('c1', unit(1, 1, 0), 10)).map((h) => [h.documentId, h.chunkIndex])).toEqual([['doc-a', 0]]);
      });
    }
  });
}
