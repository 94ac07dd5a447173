import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeVectorIndexContract } from '@cs/ports/testing';
import { eventually } from '@cs/test-services';
import { LanceDbVectorIndex } from './lancedb-vector.index';
import { filesHolding } from './testing/files-holding';

let dir = '';
describeVectorIndexContract(
  'lancedb',
  async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lance-vectors-'));
    return LanceDbVectorIndex.open(dir, 3, { tables: { eraseEveryMs: 0 } });
  },
  () => LanceDbVectorIndex.open(dir, 3, { tables: { eraseEveryMs: 0 } }),
);
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

/** Seeded Park–Miller numbers in -0.5..0.5, so every run draws the same vectors. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 16807) % 2147483647) / 2147483647 - 0.5;
}

function seededUnitVectors(seed: number, dims: number): () => Float32Array {
  const random = seededRandom(seed);
  return () => {
    const v = Float32Array.from({ length: dims }, random);
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  };
}

describe('LanceDbVectorIndex', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'lance-vectors-'));
  });
  afterEach(() => fs.rm(folder, { recursive: true, force: true }));

  it('leaves no vector of a deleted document in the folder after compaction', async () => {
    const index = await LanceDbVectorIndex.open(folder, 8, { tables: { eraseEveryMs: 0 } });
    // Components no other vector has, so their bytes are found wherever they are written.
    const marked = (offset: number) => Float32Array.from({ length: 8 }, (_, d) => 0.1234567 + offset + d / 1000);
    const whole = marked(0);
    const passage = marked(1);
    const random = seededUnitVectors(17, 8);
    await index.upsert('c1', 'keep', [
      { chunkIndex: -1, vector: random() },
      { chunkIndex: 0, vector: random() },
    ]);
    await index.upsert('c1', 'gone', [
      { chunkIndex: -1, vector: whole },
      { chunkIndex: 0, vector: passage },
    ]);
    const bytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    expect(await filesHolding(folder, bytes(whole))).not.toEqual([]);
    expect(await filesHolding(folder, bytes(passage))).not.toEqual([]);
    expect(await index.delete('c1', 'gone')).toBe(2);
    await index.compact();
    expect(await filesHolding(folder, bytes(whole))).toEqual([]);
    expect(await filesHolding(folder, bytes(passage))).toEqual([]);
    expect((await index.search('c1', random(), 10)).map((h) => [h.documentId, h.chunkIndex])).toEqual([['keep', 0]]);
    await index.close();
  });

  it.each([
    ['ivf-hnsw-sq', { kind: 'ivf-hnsw-sq' }],
    ['ivf-pq', { kind: 'ivf-pq', subVectors: 8, refineFactor: 4 }],
  ] as const)(
    'searches through its %s index above the threshold and finds what exact search finds',
    async (_, ann) => {
      const dims = 16;
      const index = await LanceDbVectorIndex.open(folder, dims, {
        annThreshold: 300,
        ann,
        tables: { optimizeAfterRows: 100, eraseEveryMs: 0 },
      });
      const random = seededUnitVectors(7, dims);
      const writes: Promise<void>[] = [];
      for (let i = 0; i < 800; i++)
        writes.push(
          index.upsert('c', `d${i}`, [
            { chunkIndex: -1, vector: random() },
            { chunkIndex: 0, vector: random() },
            { chunkIndex: 1, vector: random() },
          ]),
        );
      await Promise.all(writes);
      // The index is trained by the optimize that the writes made due; it runs between batches.
      await eventually(async () => expect(await index.isApproximate('c')).toBe(true), { timeoutMs: 30_000, intervalMs: 50 });
      let found = 0;
      for (let q = 0; q < 20; q++) {
        const query = random();
        const exact = await index.searchExact('c', query, 10);
        const approximate = await index.search('c', query, 10);
        const exactIds = new Set(exact.map((h) => h.documentId));
        found += approximate.filter((h) => exactIds.has(h.documentId)).length;
        // The candidates are scored again with their float vectors: the scores are exact ones.
        for (const hit of approximate) {
          const same = exact.find((h) => h.documentId === hit.documentId);
          if (same) expect(hit.score).toBeCloseTo(same.score, 5);
          expect([0, 1]).toContain(hit.chunkIndex);
        }
      }
      expect(found / 200).toBeGreaterThan(0.95);
      await index.delete('c', 'd0');
      expect((await index.search('c', random(), 800)).map((h) => h.documentId)).not.toContain('d0');
      expect(await index.count('c')).toBe(799);
      await index.close();
    },
    60_000,
  ); // CI runs this beside the end-to-end suites: training may take seconds
});
