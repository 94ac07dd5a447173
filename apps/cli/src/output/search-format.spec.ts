import { overlapOf } from '../search/overlap';
import { renderFacets, renderOverlap, renderSearchTable, renderSideBySide, type ScoredHit } from './search-format';

const hit = (rank: number, name: string, score: number, scores: ScoredHit['scores'] = {}): ScoredHit => ({
  rank,
  documentId: `id-${name}`,
  documentName: name,
  score,
  scores,
});

describe('renderSearchTable', () => {
  it('prints rank, name and score of a one-stage search, without stage columns that would repeat the score', () => {
    const out = renderSearchTable(
      { searchType: 'dense', results: [hit(1, 'anna.pdf', 0.91234, { dense: 0.91234 }), hit(2, 'jonas.docx', 0.5, { dense: 0.5 })] },
      { limit: 10, width: 80 },
    );
    const lines = out.split('\n');
    expect(lines[1]).toMatch(/^│ Rank │ Document +│ Score │$/);
    expect(lines[3]).toMatch(/^│ +1 │ anna\.pdf +│ 0\.912 │$/);
    expect(lines[4]).toMatch(/^│ +2 │ jonas\.docx +│ 0\.500 │$/);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
  });

  it('adds a column per stage for a search of several stages, blank where a stage did not score the CV', () => {
    const out = renderSearchTable(
      {
        searchType: 'hybrid',
        results: [
          hit(1, 'a.pdf', 0.8, { dense: 0.7, sparse: 0.6, fused: 1, rerank: 0.8 }),
          hit(2, 'b.pdf', 0.4, { dense: 0.3, fused: 0.5, rerank: 0.4 }),
        ],
      },
      { limit: 10, width: 100 },
    );
    const lines = out.split('\n');
    expect(lines[1]).toMatch(/│ Rank │ Document +│ Score │ dense │ sparse │ fused │ rerank │/);
    expect(lines[3]).toMatch(/│ +1 │ a\.pdf +│ 0\.800 │ 0\.700 │ +0\.600 │ 1\.000 │ +0\.800 │/);
    expect(lines[4]).toMatch(/│ +2 │ b\.pdf +│ 0\.400 │ 0\.300 │ +│ 0\.500 │ +0\.400 │/);
  });

  it('shows at most --limit rows, cuts long names to the width and marks deleted CVs', () => {
    const long = 'a-very-long-document-name-that-goes-on-and-on-and-on-and-on.pdf';
    const results = [hit(1, long, 0.9), { ...hit(2, 'gone.pdf', 0.8), documentDeleted: true }, hit(3, 'c.pdf', 0.7)];
    const out = renderSearchTable({ searchType: 'sparse', results }, { limit: 2, width: 40 });
    const lines = out.split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[3]).toContain('a-very-long-document…');
    expect(lines[4]).toContain('(deleted) gone.pdf');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(40);
  });
});

describe('renderSideBySide', () => {
  it('prints a row per rank and a column per search type, each cell a name and its score, within the width', () => {
    const searches = [
      { searchType: 'dense', results: [hit(1, 'anna.pdf', 0.9), hit(2, 'ben.pdf', 0.8)] },
      { searchType: 'sparse', results: [hit(1, 'ben.pdf', 0.7)] },
      { searchType: 'hybrid', results: [hit(1, 'anna.pdf', 0.6), hit(2, 'carla-with-a-long-name.pdf', 0.5)] },
      { searchType: 'builtin-rerank', results: [hit(1, 'anna.pdf', 0.95), hit(2, 'ben.pdf', 0.2)] },
    ];
    const lines = renderSideBySide(searches, { limit: 10, width: 100 }).split('\n');
    expect(lines[1]).toMatch(/^│ Rank │ dense +│ sparse +│ hybrid +│ builtin-rerank +│$/);
    expect(lines[3]).toMatch(/^│ +1 │ anna\.pdf +0\.900 │ ben\.pdf +0\.700 │ anna\.pdf +0\.600 │ anna\.pdf +0\.950 │$/);
    // A search with fewer results leaves its cell empty; a long name is cut so its score still shows.
    expect(lines[4]).toMatch(/^│ +2 │ ben\.pdf +0\.800 │ +│ carla-with-a-\S*… 0\.500 │ ben\.pdf +0\.200 │$/);
    expect(lines).toHaveLength(6);
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    expect(lines[0].length).toBeLessThanOrEqual(100);
  });

  it('stops at --limit ranks', () => {
    const many = Array.from({ length: 30 }, (_, i) => hit(i + 1, `cv${i + 1}.pdf`, 1 - i / 100));
    const lines = renderSideBySide([{ searchType: 'dense', results: many }], { limit: 5, width: 80 }).split('\n');
    expect(lines).toHaveLength(3 + 5 + 1);
    expect(lines.at(-2)).toContain('cv5.pdf');
  });
});

describe('renderOverlap', () => {
  it('prints each pair as shared/N and names the CVs all four found', () => {
    const h = (id: string) => hit(1, id, 0.5);
    const out = renderOverlap(
      overlapOf(
        [
          { searchType: 'dense', results: [h('anna.pdf'), h('ben.pdf')] },
          { searchType: 'sparse', results: [h('ben.pdf'), h('anna.pdf')] },
          { searchType: 'hybrid', results: [h('anna.pdf'), h('carla.pdf')] },
          { searchType: 'builtin-rerank', results: [h('anna.pdf'), h('ben.pdf')] },
        ],
        2,
      ),
      4,
    );
    expect(out).toMatch(/│ Pair +│ Shared in top 2 │/);
    expect(out).toMatch(/│ dense & sparse +│ +2\/2 │/);
    expect(out).toMatch(/│ dense & hybrid +│ +1\/2 │/);
    expect(out).toMatch(/│ hybrid & builtin-rerank +│ +1\/2 │/);
    expect(out.split('\n').at(-1)).toBe('Found by all four (1): anna.pdf');
  });

  it('says none when no CV is in every top N', () => {
    const out = renderOverlap(
      overlapOf(
        [
          { searchType: 'dense', results: [hit(1, 'a', 1)] },
          { searchType: 'sparse', results: [] },
        ],
        5,
      ),
      2,
    );
    expect(out.split('\n').at(-1)).toBe('Found by all 2 (0): none');
  });
});

describe('renderFacets', () => {
  const facets = {
    passing: {
      cvs: 40,
      fields: {
        seniority: [
          { value: 'senior', count: 12 },
          { value: 'mid', count: 9 },
        ],
        skills: Array.from({ length: 20 }, (_, i) => ({ value: `skill-${i + 1}`, count: 20 - i })),
      },
    },
    results: { cvs: 3, fields: { seniority: [{ value: 'senior', count: 3 }] } },
  };

  it('prints a row per field: its counts among the CVs that pass the filters and among the results, wrapped within the width', () => {
    const out = renderFacets(facets, { filtered: true, width: 80 });
    const lines = out.split('\n');
    expect(lines[1]).toMatch(/^│ Field +│ Passing the filters \(40\) +│ Results \(3\) +│$/);
    expect(out).toMatch(/│ seniority +│ senior 12, mid 9 +│ senior 3 +│/);
    // The results counted no skill: said so, not left blank.
    expect(out).toMatch(/│ skills +│ skill-1 20, [^│]+│ none +│/);
    expect(out).toContain('skill-20 1');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
  });

  it('says all CVs were counted when no filter was set', () => {
    expect(renderFacets(facets, { filtered: false, width: 100 })).toMatch(/│ All CVs \(40\) +│/);
  });
});
