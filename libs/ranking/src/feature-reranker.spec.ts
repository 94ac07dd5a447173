import { QuantizedWordVectors, SentenceEmbedder, type WordVectors } from '@cs/embeddings';
import { FeatureReranker, nearestInPool } from './feature-reranker';
import { PRECISION_HEAD } from './reranker-tuning';

/** A tiny vocabulary whose vectors put finance words together and kitchen words together. */
function toyVectors(): WordVectors {
  const words = ['accountant', 'ledger', 'payable', 'chef', 'kitchen', 'menu', 'general', 'accounts'];
  const axis = [0, 0, 0, 1, 1, 1, 0, 0];
  const matrix = new Float32Array(words.length * 2);
  words.forEach((_, i) => {
    matrix[i * 2 + axis[i]] = 1;
    matrix[i * 2 + 1 - axis[i]] = 0.1;
  });
  return QuantizedWordVectors.quantize(padded(matrix, 1000), 2, new Map(words.map((w, i) => [w, i + 1000])));
}
const padded = (m: Float32Array, rows: number) => {
  const out = new Float32Array(m.length + rows * 2);
  out.set(m, rows * 2);
  return out;
};

describe('FeatureReranker', () => {
  const reranker = new FeatureReranker(new SentenceEmbedder(toyVectors()));
  const candidates = [
    { id: 'chef', text: 'Chef running a kitchen and a seasonal menu.' },
    { id: 'accountant', text: 'Accountant keeping the general ledger and accounts payable.' },
    { id: 'clerk', text: 'Clerk who once saw a ledger.' },
  ];

  it('puts the CV that matches in meaning and words first, scores in 0..1', () => {
    const ranked = reranker.rerank('accountant, general ledger, accounts payable', candidates, 3);
    expect(ranked.map((r) => r.id)).toEqual(['accountant', 'clerk', 'chef']);
    for (const r of ranked) {
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
    }
    expect(ranked[0].features.coverage).toBe(1);
  });

  it("reads meaning from the dense model's cosine when the caller gives one", () => {
    const query = 'accountant, general ledger, accounts payable';
    const own = reranker.rerank(query, candidates, 3);
    expect(own.find((r) => r.id === 'chef')!.features.semantic).not.toBe(0.42);
    const given = reranker.rerank(
      query,
      candidates.map((c) => ({ ...c, denseScore: c.id === 'chef' ? 0.42 : 0.1 })),
      3,
    );
    expect(Object.fromEntries(given.map((r) => [r.id, r.features.semantic]))).toEqual({ chef: 0.42, accountant: 0.1, clerk: 0.1 });
  });

  it('matches keywords by the words a misspelt query means', () => {
    const ranked = reranker.rerank('acountant, genral ledger', candidates, 3);
    expect(ranked[0]).toMatchObject({ id: 'accountant', features: { coverage: 1 } });
  });

  it('weighs its features as tuned, and leaves out feedback and neighbours when told', () => {
    const query = 'accountant, general ledger, accounts payable';
    const keywordsOnly = new FeatureReranker(new SentenceEmbedder(toyVectors()), {
      weights: { semantic: 0, keyword: 1, coverage: 0, headline: 0, firstStage: 0 },
    });
    const ranked = keywordsOnly.rerank(query, candidates, 3);
    expect(ranked[0].id).toBe('accountant');
    // The chef holds no query word: with keywords alone it ties the lowest possible score.
    expect(ranked[2]).toMatchObject({ id: 'chef', features: { keyword: 0 } });
    const many = Array.from({ length: 60 }, (_, i) => ({ id: `cv-${i}`, text: i % 2 ? `Accountant ledger ${i}` : `Chef kitchen ${i}` }));
    const plain = new FeatureReranker(new SentenceEmbedder(toyVectors()), { feedback: false, neighbours: false });
    const shipped = reranker.rerank(query, many, 60).map((r) => r.score);
    expect(plain.rerank(query, many, 60).map((r) => r.score)).not.toEqual(shipped);
  });

  it('returns at most topN', () => {
    expect(reranker.rerank('kitchen', candidates, 1).map((r) => r.id)).toEqual(['chef']);
  });

  it('ranks a large candidate set whole: every candidate once, scores falling with the rank', () => {
    // Enough candidates for feedback and neighbours, and more than the precision head.
    const many = Array.from({ length: 60 }, (_, i) => ({
      id: `cv-${String(i).padStart(2, '0')}`,
      text:
        i % 3 === 0
          ? `Accountant ${'general ledger '.repeat(1 + (i % 5))}accounts payable`
          : i % 3 === 1
            ? `Chef ${'kitchen menu '.repeat(1 + (i % 4))}`
            : `Clerk with a ledger ${i}`,
    }));
    const ranked = reranker.rerank('accountant, general ledger', many, 60);
    expect(new Set(ranked.map((r) => r.id)).size).toBe(60);
    expect(ranked.length).toBeGreaterThan(PRECISION_HEAD);
    for (let i = 1; i < ranked.length; i++) expect(ranked[i].score).toBeLessThanOrEqual(ranked[i - 1].score);
    expect(ranked[0].id).toMatch(/^cv-/);
    expect(ranked.slice(0, 20).every((r) => Number(r.id.slice(3)) % 3 === 0)).toBe(true);
  });

  it('reads the texts only of CVs it has not analysed, and every text for a quoted phrase', async () => {
    const scorer = new FeatureReranker(new SentenceEmbedder(toyVectors()));
    const texts = new Map(candidates.map((c) => [c.id, c.text]));
    const asked: string[][] = [];
    const read = async (ids: string[]) => {
      asked.push([...ids].sort());
      return new Map(ids.flatMap((id) => (texts.has(id) ? [[id, texts.get(id)!] as const] : [])));
    };
    const ids = [...candidates.map((c) => ({ id: c.id })), { id: 'deleted' }];
    const first = await scorer.rerankReading('accountant, general ledger', ids, read, 3);
    expect(first.map((r) => r.id)).toEqual(['accountant', 'clerk', 'chef']);
    expect(asked).toEqual([['accountant', 'chef', 'clerk', 'deleted']]);
    // Analysed once: the same ranking without reading again; a CV whose text is gone stays out.
    expect((await scorer.rerankReading('accountant, general ledger', ids, read, 3)).map((r) => r.id)).toEqual([
      'accountant',
      'clerk',
      'chef',
    ]);
    expect(asked).toEqual([['accountant', 'chef', 'clerk', 'deleted'], ['deleted']]);
    await scorer.rerankReading('"general ledger"', ids, read, 3);
    expect(asked[2]).toEqual(['accountant', 'chef', 'clerk', 'deleted']);
  });
});

describe('nearestInPool', () => {
  it('finds, for each vector, the pooled vectors of largest inner product, as a full scan does', () => {
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5;
    const vectors = Array.from({ length: 80 }, (_, i) => (i % 13 === 5 ? null : Float32Array.from({ length: 16 }, random)));
    const pool = Array.from({ length: 50 }, (_, p) => (p * 7) % 80);
    const k = 6;
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, d) => s + x * b[d], 0);
    const found = nearestInPool(vectors, pool, k);
    vectors.forEach((v, i) => {
      if (!v) {
        expect(found[i]).toHaveLength(0);
        return;
      }
      const scanned = pool
        .filter((j) => j !== i && vectors[j])
        .sort((a, b) => dot(v, vectors[b] as Float32Array) - dot(v, vectors[a] as Float32Array))
        .slice(0, k);
      expect([...found[i]]).toEqual(scanned);
    });
  });
});
