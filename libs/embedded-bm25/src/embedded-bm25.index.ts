import * as path from 'node:path';
import { AppendLog } from '@cs/append-log';
import type { KeywordHit, KeywordIndex } from '@cs/ports';
import { analyze, bigrams, type ParsedQuery } from '@cs/text-analysis';
import { BM25_K1, idf, termScore } from './bm25';

/** Stored per document: term frequencies (words and adjacent pairs) and length in words. */
type LogRecord = { op: 'put'; c: string; d: string; len: number; tf: Record<string, number> } | { op: 'del'; c: string; d: string };

interface Posting {
  docs: number[];
  tfs: number[];
}

interface DocEntry {
  id: string;
  length: number;
  termIds: number[];
}

/** One company's inverted index. Slots of deleted documents are reused. */
class CompanyIndex {
  readonly termIds = new Map<string, number>();
  readonly postings: Posting[] = [];
  readonly docs: Array<DocEntry | null> = [];
  readonly slotOf = new Map<string, number>();
  private readonly free: number[] = [];
  private totalLength = 0;

  get size(): number {
    return this.slotOf.size;
  }

  put(id: string, length: number, tf: Record<string, number>): void {
    this.remove(id);
    const slot = this.free.pop() ?? this.docs.length;
    const termIds: number[] = [];
    for (const [term, count] of Object.entries(tf)) {
      let termId = this.termIds.get(term);
      if (termId === undefined) {
        termId = this.postings.length;
        this.termIds.set(term, termId);
        this.postings.push({ docs: [], tfs: [] });
      }
      this.postings[termId].docs.push(slot);
      this.postings[termId].tfs.push(count);
      termIds.push(termId);
    }
    this.docs[slot] = { id, length, termIds };
    this.slotOf.set(id, slot);
    this.totalLength += length;
  }

  remove(id: string): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    const doc = this.docs[slot] as DocEntry;
    for (const termId of doc.termIds) {
      const posting = this.postings[termId];
      const at = posting.docs.indexOf(slot);
      posting.docs.splice(at, 1);
      posting.tfs.splice(at, 1);
    }
    this.totalLength -= doc.length;
    this.docs[slot] = null;
    this.slotOf.delete(id);
    this.free.push(slot);
    return true;
  }

  search(weights: Map<string, number>, topK: number): { scores: Array<[number, number]>; maxScore: number } {
    const n = this.size;
    const averageLength = this.totalLength / Math.max(1, n);
    const accumulated = new Float64Array(this.docs.length);
    let maxScore = 0;
    for (const [term, weight] of weights) {
      const termId = this.termIds.get(term);
      const df = termId === undefined ? 0 : this.postings[termId].docs.length;
      const termIdf = idf(df, n);
      maxScore += weight * termIdf * (BM25_K1 + 1);
      if (termId === undefined) continue;
      const { docs, tfs } = this.postings[termId];
      for (let i = 0; i < docs.length; i++) {
        const doc = this.docs[docs[i]] as DocEntry;
        accumulated[docs[i]] += weight * termScore(tfs[i], doc.length, averageLength, termIdf);
      }
    }
    const scores: Array<[number, number]> = [];
    for (let slot = 0; slot < accumulated.length; slot++) if (accumulated[slot] > 0) scores.push([slot, accumulated[slot]]);
    scores.sort((a, b) => b[1] - a[1]);
    return { scores: scores.slice(0, topK), maxScore };
  }

  hasTerm(slot: number, term: string): boolean {
    const termId = this.termIds.get(term);
    return termId !== undefined && (this.docs[slot] as DocEntry).termIds.includes(termId);
  }

  *records(companyId: string): Generator<LogRecord> {
    const terms = [...this.termIds.keys()];
    for (const doc of this.docs) {
      if (!doc) continue;
      const tf: Record<string, number> = {};
      for (const termId of doc.termIds) {
        const posting = this.postings[termId];
        tf[terms[termId]] = posting.tfs[posting.docs.indexOf(this.slotOf.get(doc.id) as number)];
      }
      yield { op: 'put', c: companyId, d: doc.id, len: doc.length, tf };
    }
  }
}

/** Words and adjacent word pairs of a text, with their counts. */
export function termFrequencies(text: string): { length: number; tf: Record<string, number> } {
  const words = analyze(text).map((t) => t.term);
  const tf: Record<string, number> = {};
  for (const term of words) tf[term] = (tf[term] ?? 0) + 1;
  for (const pair of bigrams(words)) tf[pair] = (tf[pair] ?? 0) + 1;
  return { length: words.length, tf };
}

/**
 * Query term weights: every word once per occurrence, and for phrases their word pairs too,
 * so a CV that holds the phrase scores above one that has its words apart.
 */
export function queryWeights(query: ParsedQuery): Map<string, number> {
  const weights = new Map<string, number>();
  const add = (term: string) => weights.set(term, (weights.get(term) ?? 0) + 1);
  for (const part of query.parts) {
    part.terms.forEach(add);
    if (part.phrase) bigrams(part.terms).forEach(add);
  }
  return weights;
}

/**
 * The standalone keyword index: BM25 (k1 1.2, b 0.75) over each company's CVs in memory,
 * made durable by an append-only log of analysed term counts in the data folder.
 */
export class EmbeddedBm25Index implements KeywordIndex {
  private readonly companies = new Map<string, CompanyIndex>();
  private log: AppendLog<LogRecord> | null = null;

  static async open(dataDir: string): Promise<EmbeddedBm25Index> {
    const index = new EmbeddedBm25Index();
    const log = await AppendLog.open<LogRecord>(path.join(dataDir, 'bm25', 'bm25.jsonl'), (r) => index.apply(r));
    index.log = log;
    const live = [...index.companies.values()].reduce((n, c) => n + c.size, 0);
    if (log.size > 2 * live + 1000) await log.rewrite(index.allRecords());
    return index;
  }

  private apply(record: LogRecord): boolean {
    if (record.op === 'del') return this.companies.get(record.c)?.remove(record.d) ?? false;
    let company = this.companies.get(record.c);
    if (!company) {
      company = new CompanyIndex();
      this.companies.set(record.c, company);
    }
    company.put(record.d, record.len, record.tf);
    return true;
  }

  private *allRecords(): Generator<LogRecord> {
    for (const [companyId, c] of this.companies) yield* c.records(companyId);
  }

  async upsert(companyId: string, documentId: string, text: string): Promise<void> {
    const { length, tf } = termFrequencies(text);
    const record: LogRecord = { op: 'put', c: companyId, d: documentId, len: length, tf };
    await this.requireLog().append(record);
    this.apply(record);
  }

  async delete(companyId: string, documentId: string): Promise<number> {
    if (!this.companies.get(companyId)?.slotOf.has(documentId)) return 0;
    const record: LogRecord = { op: 'del', c: companyId, d: documentId };
    await this.requireLog().append(record);
    return this.apply(record) ? 1 : 0;
  }

  async search(companyId: string, query: ParsedQuery, topK: number): Promise<KeywordHit[]> {
    const company = this.companies.get(companyId);
    if (!company) return [];
    const { scores, maxScore } = company.search(queryWeights(query), topK);
    return scores.map(([slot, score]) => ({
      documentId: (company.docs[slot] as DocEntry).id,
      score,
      maxScore,
      matchedTerms: query.parts
        .filter((part) => (part.phrase ? bigrams(part.terms) : part.terms).every((t) => company.hasTerm(slot, t)))
        .map((part) => part.text),
    }));
  }

  async count(companyId: string): Promise<number> {
    return this.companies.get(companyId)?.size ?? 0;
  }

  async close(): Promise<void> {
    await this.log?.close();
  }

  private requireLog(): AppendLog<LogRecord> {
    if (!this.log) throw new Error('keyword index is closed');
    return this.log;
  }
}
