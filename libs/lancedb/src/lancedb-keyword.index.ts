import * as path from 'node:path';
import { BooleanQuery, Index, MatchQuery, Occur, PhraseQuery, type FullTextQuery, type Table } from '@lancedb/lancedb';
import { Field, Int32, Schema, Utf8 } from 'apache-arrow';
import type { KeywordHit, KeywordIndex } from '@cs/ports';
import { HEADLINE_WEIGHT, RM3, idf, rm3Expand, type FeedbackDocument } from '@cs/ranking';
import { documentTerms, queryWeights, type ParsedQuery } from '@cs/text-analysis';
import { LanceCompanyTables, ensureDocumentIdIndex, sqlString, type CompanyTablesOptions, type Row } from './company-tables';

/**
 * Lance's BM25 constants (lance-index `scorer.rs`, fixed, not settable): k1 1.2, where ours is 1.5
 * (`BM25_K1`), and b 0.75 as ours.
 */
const LANCE_K1 = 1.2;

/**
 * A row per CV: its analysed words, space-separated, as the whitespace tokenizer reads them: the
 * headline's words again `HEADLINE_WEIGHT - 1` times, then every word in order (so a headline word
 * counts `HEADLINE_WEIGHT` times, as in the embedded index), and how many words the repeats take.
 */
const SCHEMA = new Schema([
  new Field('document_id', new Utf8(), false),
  new Field('terms', new Utf8(), false),
  new Field('repeated_terms', new Int32(), false),
]);

type KeywordRow = Row & {
  document_id: string;
  terms: string;
  repeated_terms: number;
};

/**
 * The index reads our analysed words as they are: no lowercasing, stemming or stop words of its
 * own; positions for phrases; and no length limit worth the name, since a token longer than
 * `maxTokenLength` would be dropped (our tokens are words and technical names, far shorter).
 */
const FTS_INDEX = 'terms_idx';
const ftsIndex = () =>
  Index.fts({
    baseTokenizer: 'whitespace',
    lowercase: false,
    stem: false,
    removeStopWords: false,
    asciiFolding: false,
    withPosition: true,
    maxTokenLength: 1_000,
  });

/** Documents and document frequencies of one company's words: what RM3's idf and `maxScore` need. */
class CompanyStats {
  readonly ids = new Set<string>();
  readonly documentFrequency = new Map<string, number>();

  add(documentId: string, words: Iterable<string>): void {
    this.ids.add(documentId);
    for (const word of new Set(words)) this.documentFrequency.set(word, (this.documentFrequency.get(word) ?? 0) + 1);
  }

  forget(documentId: string, words: Iterable<string>): void {
    this.ids.delete(documentId);
    for (const word of new Set(words)) {
      const left = (this.documentFrequency.get(word) ?? 1) - 1;
      if (left > 0) this.documentFrequency.set(word, left);
      else this.documentFrequency.delete(word);
    }
  }

  idf(word: string): number {
    return idf(this.documentFrequency.get(word) ?? 0, this.ids.size);
  }
}

/** The words of a stored `terms` string (none for an empty CV). */
const wordsOf = (terms: string): string[] => (terms ? terms.split(' ') : []);

export type LanceDbKeywordIndexOptions = Partial<
  Pick<CompanyTablesOptions, 'optimizeAfterRows' | 'optimizeAfterMs' | 'eraseEveryMs' | 'session'>
>;

/**
 * The keyword index on LanceDB: one table per company (`LanceCompanyTables`) of CVs analysed by
 * libs/text-analysis and indexed by Lance's full-text index as pre-analysed words. Queries are
 * ours too: the query's words (weighted as `queryWeights` weighs them) and quoted phrases, then
 * RM3 feedback from the first pass's best CVs, whose second query must still match a query word.
 * Lance scores BM25 with its own k1 (1.2, see `LANCE_K1`); the document frequencies RM3 needs are
 * counted here, per company, from the stored words when the company is first used.
 */
export class LanceDbKeywordIndex implements KeywordIndex {
  private readonly stats = new Map<string, Promise<CompanyStats>>();
  /** The change in progress on each document: changes to one document run one after another. */
  private readonly documentChanges = new Map<string, Promise<unknown>>();
  /** Per company: writes made (and one for rows found unindexed at first use), and the folds into the index. */
  private readonly writes = new Map<string, number>();
  private readonly folds = new Map<string, Promise<void>>();
  private readonly foldedUpTo = new Map<string, number>();

  private constructor(private readonly tables: LanceCompanyTables) {}

  /** Opens (or creates) the index in `dataDir/lancedb/keywords`. */
  static async open(dataDir: string, options: LanceDbKeywordIndexOptions = {}): Promise<LanceDbKeywordIndex> {
    const tables = await LanceCompanyTables.open(path.join(dataDir, 'lancedb', 'keywords'), {
      ...options,
      name: 'keyword index',
      schema: SCHEMA,
      ensureIndexes: async (table) => {
        if (!(await table.indexStats(FTS_INDEX))) await table.createIndex('terms', { config: ftsIndex(), name: FTS_INDEX });
        await ensureDocumentIdIndex(table);
      },
    });
    return new LanceDbKeywordIndex(tables);
  }

  /**
   * The company's statistics, counted from its stored words on first use. Every write waits for
   * them before it starts, so no write is under way while they are counted.
   */
  private companyStats(companyId: string): Promise<CompanyStats> {
    let stats = this.stats.get(companyId);
    if (!stats) {
      stats = this.countStats(companyId);
      this.stats.set(companyId, stats);
      stats.catch(() => this.stats.delete(companyId));
    }
    return stats;
  }

  private async countStats(companyId: string): Promise<CompanyStats> {
    const stats = new CompanyStats();
    await this.tables.read(companyId, async (table) => {
      // Rows left unindexed when the index last closed are folded in by the first search.
      if (((await table.indexStats(FTS_INDEX))?.numUnindexedRows ?? 1) > 0) this.wrote(companyId);
      for await (const batch of table.query().select(['document_id', 'terms'])) {
        const ids = batch.getChild('document_id')!;
        const terms = batch.getChild('terms')!;
        for (let i = 0; i < batch.numRows; i++) stats.add(ids.get(i) as string, wordsOf(terms.get(i) as string));
      }
    });
    return stats;
  }

  private wrote(companyId: string): void {
    this.writes.set(companyId, (this.writes.get(companyId) ?? 0) + 1);
  }

  /**
   * Waits until every write made so far is in the full-text index: Lance scans unindexed rows
   * without the query's boosts, which would rank them by other rules than the rest.
   */
  private async indexed(companyId: string): Promise<void> {
    const written = this.writes.get(companyId) ?? 0;
    const isCovered = () => (this.foldedUpTo.get(companyId) ?? 0) >= written;
    if (isCovered()) return;
    // One fold at a time; each covers the writes made before it started, so searches waiting together share one.
    const previous = (this.folds.get(companyId) ?? Promise.resolve()).catch(() => undefined);
    const fold = previous.then(async () => {
      if (isCovered()) return;
      const covers = this.writes.get(companyId) ?? 0;
      await this.tables.optimizeNow(companyId);
      this.foldedUpTo.set(companyId, Math.max(this.foldedUpTo.get(companyId) ?? 0, covers));
    });
    this.folds.set(companyId, fold);
    // A failed fold leaves the rows to the next search's; this one reads them as Lance reads unindexed rows.
    await fold.catch(() => undefined);
  }

  /** Runs `change` after the changes to the same document before it. */
  private async changeDocument<T>(companyId: string, documentId: string, change: () => Promise<T>): Promise<T> {
    const key = JSON.stringify([companyId, documentId]);
    const before = this.documentChanges.get(key) ?? Promise.resolve();
    const running = before.catch(() => undefined).then(change);
    this.documentChanges.set(key, running);
    try {
      return await running;
    } finally {
      if (this.documentChanges.get(key) === running) this.documentChanges.delete(key);
    }
  }

  private async storedWords(companyId: string, documentId: string): Promise<string[]> {
    const rows = await this.tables.read(companyId, (table) =>
      table
        .query()
        .where(`document_id = ${sqlString(documentId)}`)
        .select(['terms'])
        .toArray(),
    );
    return wordsOf((rows?.[0] as Pick<KeywordRow, 'terms'> | undefined)?.terms ?? '');
  }

  async upsert(companyId: string, documentId: string, text: string): Promise<void> {
    const { terms, headlineTerms } = documentTerms(text);
    const repeated: string[] = [];
    for (let i = 1; i < HEADLINE_WEIGHT; i++) repeated.push(...terms.slice(0, headlineTerms));
    const words = [...repeated, ...terms];
    const stats = await this.companyStats(companyId);
    await this.changeDocument(companyId, documentId, async () => {
      const old = stats.ids.has(documentId) ? await this.storedWords(companyId, documentId) : null;
      const row: KeywordRow = { document_id: documentId, terms: words.join(' '), repeated_terms: repeated.length };
      await this.tables.put(companyId, documentId, [row]);
      this.wrote(companyId);
      if (old) stats.forget(documentId, old);
      stats.add(documentId, words);
    });
  }

  async delete(companyId: string, documentId: string): Promise<number> {
    const stats = await this.companyStats(companyId);
    return this.changeDocument(companyId, documentId, async () => {
      if (!stats.ids.has(documentId)) return 0;
      const old = await this.storedWords(companyId, documentId);
      const removed = await this.tables.remove(companyId, documentId);
      this.wrote(companyId);
      stats.forget(documentId, old);
      return removed;
    });
  }

  /**
   * Two passes, as the embedded index does: the query, then RM3 (the query plus the words that
   * characterise the first pass's best CVs). The second pass's query words are a clause a hit
   * must match: feedback reorders, it never returns a CV without a query word.
   */
  async search(companyId: string, query: ParsedQuery, limit: number): Promise<KeywordHit[]> {
    const weights = queryWeights(query);
    if (weights.size === 0 || limit <= 0) return [];
    const stats = await this.companyStats(companyId);
    if (stats.ids.size === 0) return [];
    await this.indexed(companyId);
    const phraseParts = query.parts.filter((p) => p.phrase);
    const phrases = phraseParts.map((p): FullTextQuery => new PhraseQuery(p.terms.join(' '), 'terms'));
    const holdsQueryWord = (row: KeywordRow) => {
      const words = ` ${row.terms} `;
      return [...weights.keys()].some((word) => words.includes(` ${word} `));
    };
    const hits = await this.tables.read(companyId, async (table) => {
      const first = await this.run(table, weightedQuery(weights, phrases), RM3.documents);
      const feedback = first.map((row): FeedbackDocument => {
        const words = wordsOf(row.terms);
        return { score: row._score, length: words.length, terms: countsOf(words) };
      });
      const expanded = rm3Expand(weights, feedback, (word) => stats.idf(word));
      const second = weightedQuery(expanded, phrases);
      // Feedback reorders, but every hit holds at least one query word: this is keyword search.
      let rows: (KeywordRow & { _score: number })[] = [];
      // A bound on the rows read (each with its words): past it a page may end short, since CVs
      // holding only feedback words can outrank every remaining one that holds a query word.
      const most = Math.max(1_000, 16 * limit);
      for (let asked = Math.min(2 * limit, most); ; asked = Math.min(2 * asked, most)) {
        const found = await this.run(table, second, asked);
        rows = found.filter(holdsQueryWord).slice(0, limit);
        if (rows.length === limit || found.length < asked || asked === most) break;
      }
      // A phrase scores at most what its words would (Lance sums their scores where it occurs).
      const phraseBound = phraseParts.reduce((sum, p) => sum + p.terms.reduce((s, word) => s + upperBound(stats.idf(word)), 0), 0);
      const bound = [...expanded].reduce((sum, [word, weight]) => sum + upperBound(stats.idf(word), weight), phraseBound);
      return { rows, bound };
    });
    if (!hits) return [];
    const best = hits.rows[0]?._score ?? 0;
    return hits.rows.map((row) => {
      const words = ` ${row.terms} `;
      // Phrases are looked for after the headline's repeated words, as the CV's text has them.
      const sequence = phraseParts.length > 0 ? ` ${wordsOf(row.terms).slice(row.repeated_terms).join(' ')} ` : '';
      return {
        documentId: row.document_id,
        score: row._score,
        // Lance's statistics count a deleted CV until its table is optimized: the bound is then a little off.
        maxScore: Math.max(hits.bound, best),
        matchedTerms: query.parts
          .filter((part) =>
            part.phrase ? sequence.includes(` ${part.terms.join(' ')} `) : part.terms.every((word) => words.includes(` ${word} `)),
          )
          .map((part) => part.text),
      };
    });
  }

  private async run(table: Table, query: FullTextQuery, limit: number): Promise<(KeywordRow & { _score: number })[]> {
    return (await table
      .search(query, 'fts')
      .select(['document_id', 'terms', 'repeated_terms', '_score'])
      .limit(limit)
      .toArray()) as (KeywordRow & { _score: number })[];
  }

  async count(companyId: string): Promise<number> {
    return this.tables.count(companyId);
  }

  /** Rebuilds the tables that had deletions without them: nothing of a deleted CV stays in the folder. */
  async compact(companyId?: string): Promise<void> {
    await this.tables.compact(companyId);
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.documentChanges.values());
    await this.tables.close();
  }
}

/**
 * How many words a weighted query is written with. A query is one match query whose words are
 * repeated in proportion to their weights (Lance scores a repeated word that many times): Lance
 * prunes a match query's words together, where a boolean query of one clause a word scores
 * every clause in full (at 100k CVs, 2 ms against 70 for a first pass). Integer weights (a
 * query's own) are written exactly; RM3's are rounded to a share of these words. Lance reads
 * every repeat, so the count is a trade: on the livecareer dev queries 100 words lost 0.007
 * nDCG@10 against exact weights, 400 none; at 100k CVs 1,000 words took 90 ms, 100 took 27.
 */
const QUERY_WORDS = 400;

/** The weighted words as one match query scoring in their units, and any phrases beside it. */
function weightedQuery(weights: ReadonlyMap<string, number>, phrases: readonly FullTextQuery[]): FullTextQuery {
  const total = [...weights.values()].reduce((sum, weight) => sum + weight, 0);
  const perWeight = [...weights.values()].every(Number.isInteger) ? 1 : QUERY_WORDS / total;
  const words: string[] = [];
  for (const [word, weight] of weights) for (let i = Math.max(1, Math.round(weight * perWeight)); i > 0; i--) words.push(word);
  const match = new MatchQuery(words.join(' '), 'terms', { boost: 1 / perWeight });
  if (phrases.length === 0) return match;
  return new BooleanQuery([match, ...phrases].map((clause): [Occur, FullTextQuery] => [Occur.Should, clause]));
}

/** The most a word of this idf (and weight) adds to a Lance BM25 score. */
const upperBound = (wordIdf: number, weight = 1) => weight * wordIdf * (LANCE_K1 + 1);

function countsOf(words: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}
