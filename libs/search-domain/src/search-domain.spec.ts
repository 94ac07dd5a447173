import {
  SEARCH_TYPES,
  TypedSearchMetadata,
  compareSearches,
  estimateRemaining,
  estimateTime,
  groupStatus,
  type SearchMetadataByType,
  type SearchType,
} from './index';

describe('estimateTime', () => {
  it('quotes the contract until something was measured', () => {
    expect(estimateTime('hybrid', [])).toBe('15 to 30 seconds');
  });
  it('reports measured times honestly, capped at the contract range', () => {
    expect(estimateTime('dense', [12, 30, 8])).toBe('under 1 second');
    expect(estimateTime('dense', [2400, 2600])).toBe('about 3 seconds');
    expect(estimateTime('dense', [25_000])).toBe('5 to 10 seconds');
  });
  it('counts down for a running search', () => {
    expect(estimateRemaining('sparse', [3000], 2500)).toBe('under 1 second');
  });
});

describe('groupStatus', () => {
  it.each([
    [['completed', 'processing'], 'processing'],
    [['initiated'], 'processing'],
    [['completed', 'completed'], 'completed'],
    [['failed', 'failed'], 'failed'],
    [['completed', 'failed'], 'partial'],
  ] as const)('%j -> %s', (statuses, expected) => {
    expect(groupStatus(statuses)).toBe(expected);
  });
});

describe('compareSearches', () => {
  it('gives pairwise overlap, the documents all found and each rank', () => {
    const comparison = compareSearches([
      { searchId: 's1', searchType: 'dense', documentIds: ['a', 'b', 'c'] },
      { searchId: 's2', searchType: 'sparse', documentIds: ['c', 'a', 'd'] },
    ]);
    expect(comparison.pairs).toEqual([{ searchIds: ['s1', 's2'], searchTypes: ['dense', 'sparse'], overlap: 2, jaccard: 0.5 }]);
    expect(comparison.foundByAll).toEqual(['a', 'c']);
    expect(comparison.documents.find((d) => d.documentId === 'c')?.ranks).toEqual({ s1: 3, s2: 1 });
    expect(comparison.documents.find((d) => d.documentId === 'd')?.ranks).toEqual({ s1: null, s2: 3 });
  });
});

describe('TypedSearchMetadata', () => {
  const timings = { retrieval: 1, documents: 2, explain: 3 };
  const denseModel = { id: 'builtin:glove-sif-100d-v2', dimensions: 100 };
  const reranker = { provider: 'builtin', degraded: false };
  const fusion = { method: 'convex-combination', denseShare: 0.6, denseCandidates: 3, sparseCandidates: 2, fusedCandidates: 4 } as const;
  const byType: SearchMetadataByType = {
    dense: { topK: 5, rerankTopN: null, reranker: null, denseModel, stageTimingsMs: timings },
    sparse: { topK: 5, rerankTopN: null, reranker: null, stageTimingsMs: timings },
    hybrid: { topK: 5, rerankTopN: 3, reranker, denseModel, fusion, stageTimingsMs: { ...timings, rerank: 4 } },
    'builtin-rerank': { topK: 5, rerankTopN: 3, reranker, denseModel, candidates: 200, stageTimingsMs: { ...timings, rerank: 4 } },
    similar: {
      topK: 5,
      rerankTopN: null,
      reranker: null,
      similarTo: '0b6f3c1e-8f4a-4c8e-9a57-1d2e3f4a5b6c',
      distinctiveTerms: ['kubernetes'],
      denseModel,
      fusion,
      stageTimingsMs: timings,
    },
    match: {
      topK: 5,
      rerankTopN: 100,
      reranker,
      denseModel,
      strict: false,
      criteriaShare: 0.5,
      fusion,
      stageTimingsMs: { ...timings, rerank: 4 },
    },
  };

  it.each(SEARCH_TYPES)("reads %s metadata against its own type's schema only", (searchType) => {
    expect(TypedSearchMetadata.safeParse({ searchType, metadata: byType[searchType] }).success).toBe(true);
    // A dense search stored before its model was recorded reads as sparse's fields: the row's type tells them apart.
    const olderShape = (other: SearchType) => searchType === 'dense' && other === 'sparse';
    for (const other of SEARCH_TYPES.filter((t) => t !== searchType && !olderShape(t))) {
      expect(TypedSearchMetadata.safeParse({ searchType, metadata: byType[other] }).success).toBe(false);
    }
  });

  it('reads a search stored before the dense model was recorded', () => {
    for (const searchType of ['dense', 'hybrid', 'builtin-rerank'] as const) {
      const { denseModel: _recorded, ...older } = byType[searchType];
      expect(TypedSearchMetadata.safeParse({ searchType, metadata: older }).success).toBe(true);
    }
  });

  it('refuses a field no type declares, and a search type it does not know', () => {
    expect(TypedSearchMetadata.safeParse({ searchType: 'sparse', metadata: { ...byType.sparse, extra: 1 } }).success).toBe(false);
    expect(TypedSearchMetadata.safeParse({ searchType: 'semantic', metadata: byType.sparse }).success).toBe(false);
  });
});
