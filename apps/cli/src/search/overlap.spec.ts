import { overlapOf } from './overlap';

const hits = (...ids: string[]) => ids.map((id) => ({ documentId: id, documentName: `${id}.pdf` }));

describe('overlapOf', () => {
  const searches = [
    { searchType: 'dense', results: hits('a', 'b', 'c', 'd') },
    { searchType: 'sparse', results: hits('b', 'a', 'x', 'y') },
    { searchType: 'hybrid', results: hits('a', 'x', 'b', 'z') },
    { searchType: 'builtin-rerank', results: hits('c', 'b', 'a') },
  ];

  it("counts the CVs each pair's top N shares, for all six pairs", () => {
    const { pairs } = overlapOf(searches, 3);
    expect(pairs).toEqual([
      { a: 'dense', b: 'sparse', shared: 2, of: 3 },
      { a: 'dense', b: 'hybrid', shared: 2, of: 3 },
      { a: 'dense', b: 'builtin-rerank', shared: 3, of: 3 },
      { a: 'sparse', b: 'hybrid', shared: 3, of: 3 },
      { a: 'sparse', b: 'builtin-rerank', shared: 2, of: 3 },
      { a: 'hybrid', b: 'builtin-rerank', shared: 2, of: 3 },
    ]);
  });

  it('looks only at the top N: a CV ranked below N in one search is not shared', () => {
    expect(overlapOf(searches, 1).pairs.find((p) => p.a === 'dense' && p.b === 'hybrid')).toEqual({
      a: 'dense',
      b: 'hybrid',
      shared: 1,
      of: 1,
    });
    expect(overlapOf(searches, 1).pairs.find((p) => p.a === 'dense' && p.b === 'sparse')?.shared).toBe(0);
  });

  it('lists the CVs found by every search, in the first search’s order', () => {
    expect(overlapOf(searches, 3).foundByAll.map((h) => h.documentId)).toEqual(['a', 'b']);
    expect(overlapOf(searches, 4).foundByAll.map((h) => h.documentId)).toEqual(['a', 'b']);
    expect(overlapOf(searches, 2).foundByAll).toEqual([]);
  });

  it('compares over the shorter list when a search found fewer than N', () => {
    const short = [
      { searchType: 'dense', results: hits('a', 'b', 'c') },
      { searchType: 'sparse', results: hits('a') },
    ];
    expect(overlapOf(short, 10).pairs).toEqual([{ a: 'dense', b: 'sparse', shared: 1, of: 1 }]);
  });
});
