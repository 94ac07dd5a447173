import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeVectorIndexContract } from '@cs/ports/testing';
import { EmbeddedVectorIndex } from './embedded-vector.index';

let dir = '';
describeVectorIndexContract(
  'embedded',
  async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vectors-'));
    return EmbeddedVectorIndex.open(dir, 3);
  },
  () => EmbeddedVectorIndex.open(dir, 3),
);
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

describe('EmbeddedVectorIndex exact search', () => {
  it('ranks as a full scan does, through updates and deletions', async () => {
    const index = await EmbeddedVectorIndex.open(await fs.mkdtemp(path.join(os.tmpdir(), 'vectors-')), 8);
    let seed = 11;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) - 0.5;
    const held = new Map<string, Float32Array>();
    for (let i = 0; i < 300; i++) {
      const id = `d${i % 200}`; // the last 100 replace earlier vectors
      const vector = Float32Array.from({ length: 8 }, random);
      await index.upsert('c', id, [{ chunkIndex: -1, vector }]);
      held.set(id, vector);
    }
    for (let i = 0; i < 200; i += 3) {
      await index.delete('c', `d${i}`);
      held.delete(`d${i}`);
    }
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, d) => s + x * b[d], 0);
    for (let q = 0; q < 10; q++) {
      const query = Float32Array.from({ length: 8 }, random);
      const scanned = [...held].sort((a, b) => dot(query, b[1]) - dot(query, a[1])).slice(0, 25);
      const found = await index.search('c', query, 25);
      expect(found.map((h) => h.documentId)).toEqual(scanned.map(([id]) => id));
      found.forEach((h, i) => expect(h.score).toBeCloseTo(dot(query, scanned[i][1]), 5));
    }
    expect(await index.search('c', Float32Array.from({ length: 8 }, random), 1000)).toHaveLength(held.size);
    await index.close();
  });
});

describe('EmbeddedVectorIndex with its HNSW graph', () => {
  it('switches to the graph past the threshold and keeps recall against exact search', async () => {
    const index = await EmbeddedVectorIndex.open(await fs.mkdtemp(path.join(os.tmpdir(), 'vectors-')), 16, 200);
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) - 0.5;
    const unitRandom = () => {
      const v = Float32Array.from({ length: 16 }, random);
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    };
    for (let i = 0; i < 600; i++) await index.upsert('c', `d${i}`, [{ chunkIndex: -1, vector: unitRandom() }]);
    expect(index.isApproximate('c')).toBe(true);
    let found = 0;
    for (let q = 0; q < 20; q++) {
      const query = unitRandom();
      const exact = new Set(index.searchExact('c', query, 10).map((h) => h.documentId));
      found += (await index.search('c', query, 10)).filter((h) => exact.has(h.documentId)).length;
    }
    expect(found / 200).toBeGreaterThan(0.95);
    await index.delete('c', 'd0');
    expect((await index.search('c', unitRandom(), 600)).map((h) => h.documentId)).not.toContain('d0');
    await index.close();
  });

  it('comes back from its log with the graph built whole, and the same recall', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vectors-'));
    let seed = 3;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) - 0.5;
    const unitRandom = () => {
      const v = Float32Array.from({ length: 16 }, random);
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    };
    const first = await EmbeddedVectorIndex.open(dir, 16, 200);
    for (let i = 0; i < 600; i++) await first.upsert('c', `d${i}`, [{ chunkIndex: -1, vector: unitRandom() }]);
    await first.delete('c', 'd5');
    await first.close();
    const index = await EmbeddedVectorIndex.open(dir, 16, 200);
    expect(index.isApproximate('c')).toBe(true);
    expect(await index.count('c')).toBe(599);
    let found = 0;
    for (let q = 0; q < 20; q++) {
      const query = unitRandom();
      const exact = new Set(index.searchExact('c', query, 10).map((h) => h.documentId));
      const approximate = (await index.search('c', query, 10)).map((h) => h.documentId);
      expect(approximate).not.toContain('d5');
      found += approximate.filter((id) => exact.has(id)).length;
    }
    expect(found / 200).toBeGreaterThan(0.95);
    await index.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
});
