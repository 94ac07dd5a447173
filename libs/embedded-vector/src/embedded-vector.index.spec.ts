import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeVectorIndexContract } from '@cs/ports/testing';
import { NO_ATTRIBUTES } from '@cs/search-filters';
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

/** Seeded Park–Miller numbers in -0.5..0.5, so every run draws the same vectors. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 16807) % 2147483647) / 2147483647 - 0.5;
}

/** Seeded random unit vectors: cosine and inner product rank them alike. */
function seededUnitVectors(seed: number, dims: number): () => Float32Array {
  const random = seededRandom(seed);
  return () => {
    const v = Float32Array.from({ length: dims }, random);
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  };
}

/** Share of exact search's top 10 that the index's own search finds, over `queries` queries. */
async function recallAt10(
  index: EmbeddedVectorIndex,
  nextQuery: () => Float32Array,
  queries: number,
  onResults: (ids: string[]) => void = () => undefined,
): Promise<number> {
  let found = 0;
  for (let q = 0; q < queries; q++) {
    const query = nextQuery();
    const exact = new Set(index.searchExact('c', query, 10).map((h) => h.documentId));
    const approximate = (await index.search('c', query, 10)).map((h) => h.documentId);
    onResults(approximate);
    found += approximate.filter((id) => exact.has(id)).length;
  }
  return found / (10 * queries);
}

describe('EmbeddedVectorIndex exact search', () => {
  it('ranks as a full scan does, through updates and deletions', async () => {
    const index = await EmbeddedVectorIndex.open(await fs.mkdtemp(path.join(os.tmpdir(), 'vectors-')), 8);
    const random = seededRandom(11);
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
    const unitRandom = seededUnitVectors(7, 16);
    for (let i = 0; i < 600; i++) await index.upsert('c', `d${i}`, [{ chunkIndex: -1, vector: unitRandom() }]);
    expect(index.isApproximate('c')).toBe(true);
    expect(await recallAt10(index, unitRandom, 20)).toBeGreaterThan(0.95);
    await index.delete('c', 'd0');
    expect((await index.search('c', unitRandom(), 600)).map((h) => h.documentId)).not.toContain('d0');
    await index.close();
  });

  it('comes back from its log with the graph built whole, and the same recall', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vectors-'));
    const unitRandom = seededUnitVectors(3, 16);
    const first = await EmbeddedVectorIndex.open(dir, 16, 200);
    for (let i = 0; i < 600; i++) await first.upsert('c', `d${i}`, [{ chunkIndex: -1, vector: unitRandom() }]);
    await first.delete('c', 'd5');
    await first.close();
    const index = await EmbeddedVectorIndex.open(dir, 16, 200);
    expect(index.isApproximate('c')).toBe(true);
    expect(await index.count('c')).toBe(599);
    expect(await recallAt10(index, unitRandom, 20, (ids) => expect(ids).not.toContain('d5'))).toBeGreaterThan(0.95);
    await index.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
});

describe('EmbeddedVectorIndex snapshots', () => {
  it('restores its graph and documents from the snapshot saved at close, then replays what was logged after it', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vectors-'));
    const unitRandom = seededUnitVectors(13, 16);
    const first = await EmbeddedVectorIndex.open(dir, 16, 200);
    for (let i = 0; i < 400; i++)
      await first.upsert('c', `d${i}`, [
        { chunkIndex: -1, vector: unitRandom() },
        { chunkIndex: 0, vector: unitRandom() },
        { chunkIndex: 1, vector: unitRandom() },
      ]);
    await first.upsert('small', 'only', [{ chunkIndex: -1, vector: unitRandom() }]);
    await first.delete('c', 'd7');
    const queries = Array.from({ length: 10 }, unitRandom);
    const answers = async (index: EmbeddedVectorIndex) =>
      Promise.all(
        queries.map(async (q) => (await index.search('c', q, 20)).map((h) => `${h.documentId}:${h.chunkIndex}:${h.score.toFixed(5)}`)),
      );
    const before = await answers(first);
    await first.close();
    const files = await fs.readdir(path.join(dir, 'vectors'));
    expect(files).toContain('vectors.jsonl.snapshot');
    expect(files.filter((f) => f.endsWith('.usearch'))).toHaveLength(1); // the small company has no graph

    const restored = await EmbeddedVectorIndex.open(dir, 16, 200);
    expect(restored.isApproximate('c')).toBe(true);
    expect(await restored.count('c')).toBe(399);
    expect(await restored.search('small', unitRandom(), 5)).toEqual([expect.objectContaining({ documentId: 'only' })]);
    expect(await answers(restored)).toEqual(before);
    // Changes after the snapshot are only in the log: an open without a close in between replays them.
    const added = unitRandom();
    await restored.upsert('c', 'added', [{ chunkIndex: -1, vector: added }]);
    await restored.delete('c', 'd8');
    const afterCrash = await EmbeddedVectorIndex.open(dir, 16, 200);
    expect(await afterCrash.count('c')).toBe(399);
    const found = (await afterCrash.search('c', added, 400)).map((h) => h.documentId);
    expect(found[0]).toBe('added');
    expect(found).not.toContain('d8');
    expect(found).not.toContain('d7');
    await afterCrash.close();
    await restored.close();
    // Each close saves its own graph file and removes the older ones.
    expect((await fs.readdir(path.join(dir, 'vectors'))).filter((f) => f.endsWith('.usearch'))).toHaveLength(1);
    await fs.rm(dir, { recursive: true, force: true });
  });
});

describe('EmbeddedVectorIndex erasure', () => {
  it("leaves no deleted document's vector in the files that the erasing pass and a close save, and keeps its recall", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vectors-'));
    const unitRandom = seededUnitVectors(17, 16);
    const deleted: Float32Array[] = [];
    const held = new Map<string, Float32Array>();
    const put = async (index: EmbeddedVectorIndex, id: string) => {
      const vector = unitRandom();
      held.set(id, vector);
      await index.upsert('c', id, [{ chunkIndex: -1, vector }]);
    };
    /** Deletes every seventh held CV, putting a new one after every third deletion (it reuses a freed slot). */
    const churn = async (index: EmbeddedVectorIndex, tag: string, count: number) => {
      const ids = [...held.keys()];
      for (let i = 0; i < count; i++) {
        const id = ids[i * 7];
        deleted.push(held.get(id)!);
        held.delete(id);
        await index.delete('c', id);
        if (i % 3 === 0) await put(index, `${tag}-${i}`);
      }
    };
    const filesHoldingDeleted = async () => {
      const holding: string[] = [];
      for (const file of await fs.readdir(path.join(dir, 'vectors'))) {
        const bytes = await fs.readFile(path.join(dir, 'vectors', file));
        const count = deleted.filter((v) => bytes.includes(Buffer.from(v.buffer, v.byteOffset, v.byteLength))).length;
        if (count > 0) holding.push(`${file}: ${count}`);
      }
      return holding;
    };

    const first = await EmbeddedVectorIndex.open(dir, 16, 200);
    for (let i = 0; i < 600; i++) await put(first, `d${i}`);
    await first.close(); // a graph file from before any deletion
    const index = await EmbeddedVectorIndex.open(dir, 16, 200);
    expect(index.isApproximate('c')).toBe(true);
    await churn(index, 'a', 40);
    await index.compact(); // the erasing pass: the log rewritten, a snapshot and a graph file saved
    expect(await filesHoldingDeleted()).toEqual([]);
    await churn(index, 'b', 30);
    await index.close();
    expect(await filesHoldingDeleted()).toEqual([]);

    // The restored graph's free slots count too: deletions after a reopen are scrubbed as well,
    // and so are the old vectors of CVs put again under their ids.
    const reopened = await EmbeddedVectorIndex.open(dir, 16, 200);
    await churn(reopened, 'c', 20);
    for (const id of [...held.keys()].slice(0, 5)) {
      deleted.push(held.get(id)!);
      await put(reopened, id);
    }
    await reopened.close();
    expect(await filesHoldingDeleted()).toEqual([]);

    // Past a quarter of the CVs freed, the graph is built anew instead.
    const again = await EmbeddedVectorIndex.open(dir, 16, 200);
    for (const id of [...held.keys()].slice(0, 150)) {
      deleted.push(held.get(id)!);
      held.delete(id);
      await again.delete('c', id);
    }
    await again.close();
    expect(await filesHoldingDeleted()).toEqual([]);
    expect(deleted).toHaveLength(245);

    const last = await EmbeddedVectorIndex.open(dir, 16, 200);
    expect(await last.count('c')).toBe(held.size);
    expect(last.isApproximate('c')).toBe(true);
    expect(await recallAt10(last, unitRandom, 20, (ids) => ids.forEach((id) => expect(held.has(id)).toBe(true)))).toBeGreaterThan(0.95);
    for (const [id, vector] of [...held].slice(0, 20)) expect((await last.search('c', vector, 1))[0].documentId).toBe(id);
    await last.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
});

describe('EmbeddedVectorIndex passages', () => {
  it('names a passage as good as the best by the float vectors, though it keeps them as bytes', async () => {
    const index = await EmbeddedVectorIndex.open(await fs.mkdtemp(path.join(os.tmpdir(), 'vectors-')), 100);
    const unitRandom = seededUnitVectors(5, 100);
    const passages = new Map<string, Float32Array[]>();
    for (let d = 0; d < 20; d++) {
      const chunks = Array.from({ length: 15 }, unitRandom);
      passages.set(`d${d}`, chunks);
      await index.upsert('c', `d${d}`, [
        { chunkIndex: -1, vector: unitRandom() },
        ...chunks.map((vector, i) => ({ chunkIndex: i, vector })),
      ]);
    }
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
    let same = 0;
    for (let q = 0; q < 20; q++) {
      const query = unitRandom();
      for (const hit of await index.search('c', query, 20)) {
        const scores = passages.get(hit.documentId)!.map((p) => dot(query, p));
        const best = Math.max(...scores);
        expect(best - scores[hit.chunkIndex]).toBeLessThan(0.01);
        if (scores[hit.chunkIndex] === best) same++;
      }
    }
    expect(same / 400).toBeGreaterThan(0.95);
    await index.close();
  });

  it('names the same passages after its log is compacted from the bytes it keeps', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vectors-'));
    const unitRandom = seededUnitVectors(9, 8);
    const first = await EmbeddedVectorIndex.open(dir, 8);
    // Over a thousand superseded records: the next open rewrites the log from memory.
    for (let round = 0; round < 110; round++) {
      for (let d = 0; d < 10; d++) {
        await first.upsert('c', `d${d}`, [
          { chunkIndex: -1, vector: unitRandom() },
          ...[0, 1, 2, 3].map((i) => ({ chunkIndex: i, vector: unitRandom() })),
        ]);
      }
    }
    const queries = Array.from({ length: 10 }, unitRandom);
    const named = async (index: EmbeddedVectorIndex) =>
      Promise.all(queries.map(async (q) => (await index.search('c', q, 10)).map((h) => `${h.documentId}:${h.chunkIndex}`)));
    const before = await named(first);
    await first.close();
    const logBytes = (await fs.stat(path.join(dir, 'vectors', 'vectors.jsonl'))).size;
    const compacted = await EmbeddedVectorIndex.open(dir, 8);
    expect((await fs.stat(path.join(dir, 'vectors', 'vectors.jsonl'))).size).toBeLessThan(logBytes / 10);
    expect(await named(compacted)).toEqual(before);
    await compacted.close();
    const again = await EmbeddedVectorIndex.open(dir, 8);
    expect(await named(again)).toEqual(before);
    await again.close();
  });
});

describe('filtered search over the graph', () => {
  const open = async () => EmbeddedVectorIndex.open(await fs.mkdtemp(path.join(os.tmpdir(), 'vectors-')), 16, 200);

  it.each([
    ['half the CVs', 2],
    ['one CV in a hundred', 100],
  ])('returns the exact top K among the CVs that pass when %s pass', async (_, every) => {
    const index = await open();
    const nextVector = seededUnitVectors(11, 16);
    for (let i = 0; i < 1000; i++)
      await index.upsert('c', `doc-${i}`, [{ chunkIndex: -1, vector: nextVector() }], {
        ...NO_ATTRIBUTES,
        experienceYears: i % every === 0 ? 1 : 0,
      });
    expect(index.isApproximate('c')).toBe(true);
    const filter = { experienceYears: { gte: 1 } };
    const query = nextVector();
    const exact = index
      .searchExact('c', query, 1000)
      .filter((h) => Number(h.documentId.slice(4)) % every === 0)
      .slice(0, 10);
    const found = await index.search('c', query, 10, filter);
    expect(found.every((h) => Number(h.documentId.slice(4)) % every === 0)).toBe(true);
    expect(found).toHaveLength(10);
    // The graph may miss a neighbour the exact scan finds; at this size it finds nearly all.
    const overlap = found.filter((h) => exact.some((e) => e.documentId === h.documentId)).length;
    expect(overlap).toBeGreaterThanOrEqual(every === 2 ? 9 : 10);
    await index.close();
  });
});
