import * as path from 'node:path';
import { LoggedIndex } from '@cs/append-log';
import type { KeywordHit, KeywordIndex } from '@cs/ports';
import {
  AttributeIndex,
  countFacets,
  countRequirements,
  isEmptyFilter,
  type FacetCounts,
  type FacetField,
  type RequirementCounts,
  type SearchAttributes,
  type SearchFilter,
} from '@cs/search-filters';
import {
  HEADLINE_WEIGHT,
  RM3,
  distinctiveTerms,
  idf,
  lengthNorm,
  rm3Expand,
  termScore,
  termUpperBound,
  topK,
  type TermStatistics,
} from '@cs/ranking';
import { analyze, documentTerms, queryWeights, type KeywordCondition, type ParsedQuery } from '@cs/text-analysis';

/**
 * Stored per document: its analysed words in order, of which the first `h` are the headline's.
 * (Records of the first format carried `tf` and `len` instead; they still load, without phrases.)
 * `a`: the CV's attributes for filters (absent in records written before they were kept, and
 * then set by an `attr` record once its profile is read again).
 */
type LogRecord =
  | { op: 'put'; c: string; d: string; terms: readonly string[]; h: number; a?: SearchAttributes }
  | { op: 'put'; c: string; d: string; len: number; tf: Record<string, number>; a?: SearchAttributes }
  | { op: 'attr'; c: string; d: string; a: SearchAttributes }
  | { op: 'del'; c: string; d: string };

/**
 * The documents holding one term and its count in each, in typed arrays that grow by doubling:
 * at 100k CVs there are tens of millions of entries, which plain arrays would keep on the heap.
 */
class Posting {
  length = 0;

  constructor(
    capacity = 4,
    public docs: Uint32Array = new Uint32Array(capacity),
    public tfs: Uint16Array = new Uint16Array(capacity),
  ) {}

  push(slot: number, tf: number): void {
    if (this.length === this.docs.length) {
      const docs = new Uint32Array(Math.max(4, this.length * 2));
      docs.set(this.docs);
      const tfs = new Uint16Array(docs.length);
      tfs.set(this.tfs);
      [this.docs, this.tfs] = [docs, tfs];
    }
    this.docs[this.length] = slot;
    this.tfs[this.length++] = Math.min(tf, 0xffff);
  }

  /** Whether the slot was in the list. */
  remove(slot: number): boolean {
    const at = this.docs.subarray(0, this.length).indexOf(slot);
    if (at < 0) return false;
    this.docs.copyWithin(at, at + 1, this.length);
    this.tfs.copyWithin(at, at + 1, this.length);
    this.length--;
    return true;
  }
}

interface DocEntry {
  id: string;
  length: number;
  /** The document's distinct term ids, in first-seen order. */
  termIds: Uint32Array;
  /**
   * Its words in order, each as its position in `termIds`: what quoted phrases are checked
   * against, and what the counts are tallied from. Two bytes a word while a CV has fewer than
   * 65,536 distinct words (at 100k CVs, 180 MB less than global ids, and no counts kept besides).
   */
  sequence: Uint16Array | Uint32Array;
  headlineTerms: number;
  /** Records of the first format carry counts and no word order. */
  legacyCounts?: Uint16Array;
}

/**
 * A company's index as a snapshot holds it: slot by slot and term by term in flat arrays, which
 * restore in a fraction of the time that reading the log's words and posting them takes.
 */
interface CompanySnapshot {
  termNames: string[];
  /** Each slot's document id; null for a free slot. */
  ids: (string | null)[];
  lengths: Uint32Array;
  headlineTerms: Uint32Array;
  /** Each slot's number of distinct terms, and their ids one slot after another. */
  termCounts: Uint32Array;
  termIds: Uint32Array;
  /** Each slot's number of words, and whether its sequence needs four bytes a word. */
  sequenceLengths: Uint32Array;
  wide: Uint8Array;
  narrowSequences: Uint16Array;
  wideSequences: Uint32Array;
  /** Each term's posting list length, and the lists one term after another. */
  postingLengths: Uint32Array;
  postingDocs: Uint32Array;
  postingTfs: Uint16Array;
  free: number[];
  totalLength: number;
  /** Each slot's attributes (null where none were given); absent in snapshots saved before they were kept. */
  attributes?: (SearchAttributes | null)[];
}

/** Raised when the snapshot's layout changes: an older snapshot is then ignored, and the log replays. */
const SNAPSHOT_LAYOUT = 1;

type IndexSnapshot = [companyId: string, company: CompanySnapshot][];

/** Where a posting list is built later, at its exact size: a term first met while a log replays. */
const UNBUILT = new Posting(0);

/** Each of the document's `termIds` counted, the headline's words `HEADLINE_WEIGHT` times. */
function countsOf(doc: DocEntry): Uint16Array {
  if (doc.legacyCounts) return doc.legacyCounts;
  const tally = new Uint32Array(doc.termIds.length);
  const { sequence } = doc;
  for (let i = 0; i < sequence.length; i++) tally[sequence[i]]++;
  for (let i = 0; i < doc.headlineTerms; i++) tally[sequence[i]] += HEADLINE_WEIGHT - 1;
  return Uint16Array.from(tally, (n) => Math.min(n, 0xffff));
}

/**
 * Words no CV holds any longer (all their CVs deleted) are dropped once there are at least this
 * many of them and as many as live words, and at every snapshot: otherwise uploads and deletes of
 * CVs with ever new words (codes, names, garbage) would grow the vocabulary without bound.
 */
const MIN_EMPTY_TERMS_TO_PRUNE = 10_000;

/** One company's inverted index of words. Slots of deleted documents are reused. */
class CompanyIndex {
  readonly termIds = new Map<string, number>();
  readonly termNames: string[] = [];
  readonly postings: Posting[] = [];
  readonly docs: (DocEntry | null)[] = [];
  readonly slotOf = new Map<string, number>();
  /** What filters and facets read of each slot's CV. */
  readonly attributes = new AttributeIndex((id) => this.slotOf.get(id));
  private readonly free: number[] = [];
  private totalLength = 0;
  /** BM25's length normalisation of each slot (`lengthNorm`); rebuilt after changes. */
  private norms: Float64Array | null = null;
  /** Scratch arrays by term id for `put`: whether the document holds it, and where in its `termIds`; `seen` is all zero between calls. */
  private seen = new Uint8Array(1024);
  private position = new Uint32Array(1024);
  /** Terms whose posting list is empty (see MIN_EMPTY_TERMS_TO_PRUNE); recounted when a replay ends. */
  private emptyTerms = 0;
  /** Scratch for `phraseOccurrences`, by slot: how many of a phrase's other words each holds (kept, not made per phrase: a match search looks up dozens). */
  private holds = new Uint16Array(0);

  constructor(
    /**
     * While the log replays, documents are stored but not yet in posting lists, which are then
     * built once at their exact sizes: several times faster than growing them CV by CV, and
     * without the slack that doubling leaves.
     */
    private deferPostings = false,
  ) {}

  get size(): number {
    return this.slotOf.size;
  }

  /** The replay is over: every term's posting list is built, in slot order. */
  ready(): void {
    if (!this.deferPostings) return;
    this.deferPostings = false;
    const documentFrequency = new Uint32Array(this.postings.length);
    for (const doc of this.docs) if (doc) for (const termId of doc.termIds) documentFrequency[termId]++;
    for (let termId = 0; termId < this.postings.length; termId++) this.postings[termId] = new Posting(documentFrequency[termId]);
    this.docs.forEach((doc, slot) => doc && this.post(slot, doc, countsOf(doc)));
    this.recountEmptyTerms();
    this.pruneTermsIfMany();
  }

  /** Adds the document in `slot` to the posting list of each of its terms. */
  private post(slot: number, doc: DocEntry, counts: Uint16Array): void {
    for (let i = 0; i < doc.termIds.length; i++) {
      const posting = this.postings[doc.termIds[i]];
      if (posting.length === 0) this.emptyTerms--;
      posting.push(slot, counts[i]);
    }
  }

  private recountEmptyTerms(): void {
    this.emptyTerms = this.postings.filter((p) => p.length === 0).length;
  }

  private pruneTermsIfMany(): void {
    if (this.emptyTerms >= Math.max(MIN_EMPTY_TERMS_TO_PRUNE, this.postings.length - this.emptyTerms)) this.pruneTerms();
  }

  /** Drops the terms no document holds, renumbering the rest in order (their ids in every document too). */
  private pruneTerms(): void {
    if (this.deferPostings || this.emptyTerms === 0) return;
    const renumbered = new Int32Array(this.postings.length).fill(-1);
    let kept = 0;
    this.postings.forEach((posting, termId) => {
      if (posting.length === 0) return;
      renumbered[termId] = kept;
      this.postings[kept] = posting;
      this.termNames[kept] = this.termNames[termId];
      kept++;
    });
    this.postings.length = kept;
    this.termNames.length = kept;
    this.termIds.clear();
    this.termNames.forEach((term, termId) => this.termIds.set(term, termId));
    for (const doc of this.docs) if (doc) for (let i = 0; i < doc.termIds.length; i++) doc.termIds[i] = renumbered[doc.termIds[i]];
    this.emptyTerms = 0;
  }

  private termId(term: string): number {
    let termId = this.termIds.get(term);
    if (termId === undefined) {
      termId = this.postings.length;
      this.termIds.set(term, termId);
      this.termNames.push(term);
      this.postings.push(this.deferPostings ? UNBUILT : new Posting());
      this.emptyTerms++;
    }
    return termId;
  }

  put(
    id: string,
    terms: readonly string[],
    headlineTerms: number,
    attributes: SearchAttributes | undefined,
    legacyTf?: Record<string, number>,
    legacyLength?: number,
  ): void {
    this.remove(id);
    const slot = this.free.pop() ?? this.docs.length;
    const ids = new Uint32Array(terms.length);
    for (let i = 0; i < terms.length; i++) ids[i] = this.termId(terms[i]);
    const doc: DocEntry = legacyTf
      ? { id, length: legacyLength ?? 0, headlineTerms, sequence: new Uint16Array(0), ...this.legacyCounts(legacyTf) }
      : { id, length: terms.length + (HEADLINE_WEIGHT - 1) * headlineTerms, headlineTerms, ...this.localize(ids) };
    this.attributes.set(slot, attributes ?? null);
    if (!this.deferPostings) this.post(slot, doc, countsOf(doc));
    this.docs[slot] = doc;
    this.slotOf.set(id, slot);
    this.totalLength += doc.length;
    this.norms = null;
  }

  /** The document's distinct term ids in first-seen order, and its words as positions in them. */
  private localize(ids: Uint32Array): { termIds: Uint32Array; sequence: Uint16Array | Uint32Array } {
    // Scratch arrays indexed by term id, not a map: a log replay at start reads every CV's words.
    if (this.seen.length < this.postings.length) {
      this.seen = new Uint8Array(2 * this.postings.length);
      this.position = new Uint32Array(2 * this.postings.length);
    }
    const { seen, position } = this;
    const distinct: number[] = [];
    for (let i = 0; i < ids.length; i++) {
      if (seen[ids[i]] === 0) {
        seen[ids[i]] = 1;
        position[ids[i]] = distinct.length;
        distinct.push(ids[i]);
      }
    }
    const sequence = distinct.length <= 0x10000 ? new Uint16Array(ids.length) : new Uint32Array(ids.length);
    for (let i = 0; i < ids.length; i++) sequence[i] = position[ids[i]];
    for (const termId of distinct) seen[termId] = 0;
    return { termIds: Uint32Array.from(distinct), sequence };
  }

  private legacyCounts(tf: Record<string, number>): { termIds: Uint32Array; legacyCounts: Uint16Array } {
    const entries = Object.entries(tf).filter(([term]) => !term.includes(' '));
    return {
      termIds: Uint32Array.from(entries, ([term]) => this.termId(term)),
      legacyCounts: Uint16Array.from(entries, ([, n]) => Math.min(n, 0xffff)),
    };
  }

  /** Its state as flat arrays; null while it holds first-format documents, which then replay from the log. */
  snapshot(): CompanySnapshot | null {
    const docs = this.docs;
    if (docs.some((doc) => doc?.legacyCounts)) return null;
    this.pruneTerms();
    const live = docs.filter((doc): doc is DocEntry => doc !== null);
    const total = <T>(pick: (item: T) => number, of: readonly T[]) => of.reduce((n, item) => n + pick(item), 0);
    const isWide = (doc: DocEntry) => doc.sequence instanceof Uint32Array;
    const snapshot: CompanySnapshot = {
      termNames: [...this.termNames],
      ids: docs.map((doc) => doc?.id ?? null),
      lengths: Uint32Array.from(docs, (doc) => doc?.length ?? 0),
      headlineTerms: Uint32Array.from(docs, (doc) => doc?.headlineTerms ?? 0),
      termCounts: Uint32Array.from(docs, (doc) => doc?.termIds.length ?? 0),
      termIds: new Uint32Array(total((doc: DocEntry) => doc.termIds.length, live)),
      sequenceLengths: Uint32Array.from(docs, (doc) => doc?.sequence.length ?? 0),
      wide: Uint8Array.from(docs, (doc) => (doc && isWide(doc) ? 1 : 0)),
      narrowSequences: new Uint16Array(
        total(
          (doc: DocEntry) => doc.sequence.length,
          live.filter((doc) => !isWide(doc)),
        ),
      ),
      wideSequences: new Uint32Array(total((doc: DocEntry) => doc.sequence.length, live.filter(isWide))),
      postingLengths: Uint32Array.from(this.postings, (p) => p.length),
      postingDocs: new Uint32Array(total((posting: Posting) => posting.length, this.postings)),
      postingTfs: new Uint16Array(0),
      free: [...this.free],
      totalLength: this.totalLength,
      attributes: docs.map((doc, slot) => (doc ? this.attributes.attributesAt(slot) : null)),
    };
    snapshot.postingTfs = new Uint16Array(snapshot.postingDocs.length);
    let [at, narrowAt, wideAt] = [0, 0, 0];
    for (const doc of live) {
      snapshot.termIds.set(doc.termIds, at);
      at += doc.termIds.length;
      if (isWide(doc)) {
        snapshot.wideSequences.set(doc.sequence, wideAt);
        wideAt += doc.sequence.length;
      } else {
        snapshot.narrowSequences.set(doc.sequence, narrowAt);
        narrowAt += doc.sequence.length;
      }
    }
    at = 0;
    for (const posting of this.postings) {
      snapshot.postingDocs.set(posting.docs.subarray(0, posting.length), at);
      snapshot.postingTfs.set(posting.tfs.subarray(0, posting.length), at);
      at += posting.length;
    }
    return snapshot;
  }

  /** The company as `snapshot` holds it: its arrays are views into the snapshot's. */
  static restore(snapshot: CompanySnapshot): CompanyIndex {
    const company = new CompanyIndex(false);
    snapshot.termNames.forEach((term, termId) => {
      company.termIds.set(term, termId);
      company.termNames.push(term);
    });
    let at = 0;
    for (let termId = 0; termId < snapshot.postingLengths.length; termId++) {
      const length = snapshot.postingLengths[termId];
      const posting = new Posting(0, snapshot.postingDocs.subarray(at, at + length), snapshot.postingTfs.subarray(at, at + length));
      posting.length = length;
      company.postings.push(posting);
      at += length;
    }
    let [termAt, narrowAt, wideAt] = [0, 0, 0];
    snapshot.ids.forEach((id, slot) => {
      if (id === null) {
        company.docs.push(null);
        return;
      }
      const terms = snapshot.termCounts[slot];
      const words = snapshot.sequenceLengths[slot];
      const wide = snapshot.wide[slot] === 1;
      company.docs.push({
        id,
        length: snapshot.lengths[slot],
        headlineTerms: snapshot.headlineTerms[slot],
        termIds: snapshot.termIds.subarray(termAt, termAt + terms),
        sequence: wide
          ? snapshot.wideSequences.subarray(wideAt, wideAt + words)
          : snapshot.narrowSequences.subarray(narrowAt, narrowAt + words),
      });
      company.attributes.set(slot, snapshot.attributes?.[slot] ?? null);
      termAt += terms;
      if (wide) wideAt += words;
      else narrowAt += words;
      company.slotOf.set(id, slot);
    });
    company.free.push(...snapshot.free);
    company.totalLength = snapshot.totalLength;
    company.recountEmptyTerms();
    return company;
  }

  /** Whether the company holds the CV (whose attributes are then replaced). */
  setAttributes(id: string, attributes: SearchAttributes): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    this.attributes.set(slot, attributes);
    return true;
  }

  /** Which slots pass the filter, before any is scored. */
  passing(filter: SearchFilter): Uint8Array {
    return this.attributes.passing(filter, this.docs.length);
  }

  remove(id: string): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    const doc = this.docs[slot]!;
    if (!this.deferPostings) {
      for (const termId of doc.termIds) {
        const posting = this.postings[termId];
        if (posting.remove(slot) && posting.length === 0) this.emptyTerms++;
      }
    }
    this.totalLength -= doc.length;
    this.docs[slot] = null;
    this.attributes.clear(slot);
    this.slotOf.delete(id);
    this.free.push(slot);
    this.norms = null;
    this.pruneTermsIfMany();
    return true;
  }

  private lengthNorms(): Float64Array {
    if (this.norms) return this.norms;
    const averageLength = this.totalLength / Math.max(1, this.size);
    const norms = new Float64Array(this.docs.length);
    this.docs.forEach((doc, slot) => {
      if (doc) norms[slot] = lengthNorm(doc.length, Math.max(1, averageLength));
    });
    this.norms = norms;
    return norms;
  }

  /**
   * BM25 of weighted words, and of quoted phrases, over every document, with the score's upper
   * bound. With `held`, bit i of a document's entry says it holds the i-th word of `weights`.
   */
  score(
    weights: ReadonlyMap<string, number>,
    phrases: readonly (readonly string[])[] = [],
    held?: Uint32Array,
  ): { scores: Float64Array; maxScore: number } {
    const norms = this.lengthNorms();
    const scores = new Float64Array(this.docs.length);
    let maxScore = 0;
    let bit = 1;
    for (const [term, weight] of weights) {
      const termId = this.termIds.get(term);
      const termIdf = this.idf(termId);
      const top = termUpperBound(termIdf, weight);
      maxScore += top;
      const termBit = bit;
      bit <<= 1;
      if (termId === undefined) continue;
      // Over typed arrays, with each slot's norm computed once: this loop is where a search over 100k CVs spends its time.
      const { docs, tfs, length } = this.postings[termId];
      for (let i = 0; i < length; i++) {
        const slot = docs[i];
        scores[slot] += termScore(tfs[i], norms[slot], top);
      }
      if (held) for (let i = 0; i < length; i++) held[docs[i]] |= termBit;
    }
    for (const phrase of phrases) {
      const occurrences = this.phraseOccurrences(phrase);
      const top = termUpperBound(idf(occurrences.size, this.size));
      maxScore += top;
      for (const [slot, tf] of occurrences) scores[slot] += termScore(tf, norms[slot], top);
    }
    return { scores, maxScore };
  }

  /**
   * Documents holding the words in this order, with how often; with `inHeadline`, within their
   * headline's words only. The search stops once more than `atMost` documents are found.
   */
  phraseOccurrences(phrase: readonly string[], inHeadline = false, atMost = Infinity): Map<number, number> {
    const found = new Map<number, number>();
    const ids = phrase.map((t) => this.termIds.get(t));
    if (ids.length === 0 || ids.some((t) => t === undefined)) return found;
    const rarest = ids.reduce((a, b) => (this.postings[a!].length <= this.postings[b!].length ? a : b))!;
    // Only the documents holding every word are read word by word: the others are found from the
    // posting lists alone, which costs far less than a look into each of the rarest word's documents.
    const others = [...new Set(ids)].filter((t) => t !== rarest) as number[];
    if (this.holds.length < this.docs.length) this.holds = new Uint16Array(Math.max(1024, this.docs.length * 1.25));
    const holds = this.holds;
    holds.fill(0, 0, this.docs.length);
    for (const t of others) {
      const { docs, length } = this.postings[t];
      for (let i = 0; i < length; i++) holds[docs[i]]++;
    }
    const at = ids.indexOf(rarest);
    const wanted = others.length;
    const { docs: rarestDocs, length: rarestLength } = this.postings[rarest];
    for (let r = 0; r < rarestLength; r++) {
      const slot = rarestDocs[r];
      if (holds[slot] !== wanted) continue;
      const { sequence: seq, termIds, headlineTerms } = this.docs[slot]!;
      // The rarest word's places are found natively (a typed array's indexOf), and the other
      // words are checked around each through the CV's own term ids: no array built per CV.
      const local = termIds.indexOf(rarest);
      if (local < 0) continue;
      const words = inHeadline ? Math.min(headlineTerms, seq.length) : seq.length;
      let count = 0;
      for (let p = seq.indexOf(local, at); p >= 0 && p - at + ids.length <= words; p = seq.indexOf(local, p + 1)) {
        const start = p - at;
        let k = 0;
        while (k < ids.length && termIds[seq[start + k]] === ids[k]) k++;
        if (k === ids.length) count++;
      }
      if (count > 0) found.set(slot, count);
      if (found.size > atMost) break;
    }
    return found;
  }

  /** Which slots meet the condition (a `+` or `-` clause of the query), one byte a slot. */
  meeting(condition: KeywordCondition): Uint8Array {
    const meets = new Uint8Array(this.docs.length);
    switch (condition.kind) {
      case 'text':
      case 'title': {
        const termId = condition.terms.length === 1 ? this.termIds.get(condition.terms[0]) : undefined;
        // One word anywhere is its posting list; first-format documents (no word order) are found this way too.
        if (condition.kind === 'text' && termId !== undefined) {
          const { docs, length } = this.postings[termId];
          for (let i = 0; i < length; i++) meets[docs[i]] = 1;
        } else for (const slot of this.phraseOccurrences(condition.terms, condition.kind === 'title').keys()) meets[slot] = 1;
        return meets;
      }
      case 'skill':
        return this.attributes.holding(condition.skill, this.docs.length);
      case 'all':
      case 'any': {
        const every = condition.kind === 'all';
        if (every) meets.fill(1);
        for (const part of condition.of) {
          const other = this.meeting(part);
          for (let slot = 0; slot < meets.length; slot++) meets[slot] = every ? meets[slot] & other[slot] : meets[slot] | other[slot];
        }
        return meets;
      }
    }
  }

  private idf(termId: number | undefined): number {
    return idf(termId === undefined ? 0 : this.postings[termId].length, this.size);
  }

  /** RM3's second query, from this index's best CVs for the first. */
  expand(weights: ReadonlyMap<string, number>, firstPass: Float64Array): Map<string, number> {
    const top = topK(firstPass, RM3.documents).map(([slot, score]) => {
      const doc = this.docs[slot]!;
      const counts = countsOf(doc);
      return { score, length: doc.length, terms: Array.from(doc.termIds, (termId, i) => [termId, counts[i]] as const) };
    });
    return rm3Expand(
      weights,
      top,
      (termId) => this.idf(termId),
      (termId) => this.termNames[termId],
    );
  }

  /** The CV's terms with their counts in it and their number of CVs; none when the company lacks it. */
  *termStatistics(id: string): Generator<TermStatistics> {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    const doc = this.docs[slot]!;
    const counts = countsOf(doc);
    for (let i = 0; i < doc.termIds.length; i++) {
      const termId = doc.termIds[i];
      yield { term: this.termNames[termId], termFrequency: counts[i], documentFrequency: this.postings[termId].length };
    }
  }

  hasTerm(slot: number, term: string): boolean {
    const termId = this.termIds.get(term);
    return termId !== undefined && this.docs[slot]!.termIds.includes(termId);
  }

  *records(companyId: string): Generator<LogRecord> {
    for (const [slot, doc] of this.docs.entries()) {
      if (!doc) continue;
      const attributes = this.attributes.attributesAt(slot);
      if (doc.legacyCounts) {
        const counts = doc.legacyCounts;
        const tf: Record<string, number> = {};
        doc.termIds.forEach((termId, i) => (tf[this.termNames[termId]] = counts[i]));
        yield { op: 'put', c: companyId, d: doc.id, len: doc.length, tf, ...(attributes ? { a: attributes } : {}) };
      } else {
        yield {
          op: 'put',
          c: companyId,
          d: doc.id,
          terms: Array.from(doc.sequence, (at) => this.termNames[doc.termIds[at]]),
          h: doc.headlineTerms,
          ...(attributes ? { a: attributes } : {}),
        };
      }
    }
  }
}

/**
 * The slots that pass the search's filter and meet the query's conditions (every required one, no
 * excluded one); null when there is neither.
 */
function passingSlots(company: CompanyIndex, filter: SearchFilter | null | undefined, query: ParsedQuery): Uint8Array | null {
  const required = query.required ?? [];
  const excluded = query.excluded ?? [];
  let passes = filter && !isEmptyFilter(filter) ? company.passing(filter) : null;
  if (required.length === 0 && excluded.length === 0) return passes;
  if (!passes) {
    passes = new Uint8Array(company.docs.length);
    for (let slot = 0; slot < passes.length; slot++) passes[slot] = company.docs[slot] ? 1 : 0;
  }
  for (const condition of required) {
    const meets = company.meeting(condition);
    for (let slot = 0; slot < passes.length; slot++) passes[slot] &= meets[slot];
  }
  for (const condition of excluded) {
    const meets = company.meeting(condition);
    for (let slot = 0; slot < passes.length; slot++) passes[slot] &= meets[slot] ^ 1;
  }
  return passes;
}

/**
 * The standalone keyword index: BM25 (k1 1.5, b 0.75) over words, with a weighted headline,
 * quoted phrases matched in order, and pseudo-relevance feedback, over each company's CVs in
 * memory, made durable by an append-only log of analysed words in the data folder.
 */
export class EmbeddedBm25Index implements KeywordIndex {
  private companies = new Map<string, CompanyIndex>();
  private log: LoggedIndex<LogRecord, IndexSnapshot, boolean> | null = null;

  /**
   * Opens the index in `dataDir/bm25`: from the snapshot saved at the last close and the records
   * logged after it, or from the whole log when there is no usable snapshot.
   */
  static async open(dataDir: string): Promise<EmbeddedBm25Index> {
    const index = new EmbeddedBm25Index();
    index.log = await LoggedIndex.open(
      path.join(dataDir, 'bm25', 'bm25.jsonl'),
      SNAPSHOT_LAYOUT,
      {
        apply: (record, replaying) => index.apply(record, replaying),
        restore: (snapshot) => index.restore(snapshot),
        ready: () => index.companies.forEach((company) => company.ready()),
        liveRecords: () => [...index.companies.values()].reduce((n, c) => n + c.size, 0),
        records: () => index.allRecords(),
        snapshot: () => index.snapshot(),
      },
      'keyword index',
    );
    return index;
  }

  /** Replaces the (empty) memory with the snapshot's, or throws and leaves it as it was. */
  private restore(companies: IndexSnapshot): void {
    this.companies = new Map(companies.map(([companyId, snapshot]) => [companyId, CompanyIndex.restore(snapshot)]));
  }

  /**
   * The memory as a snapshot, which lets the next open skip most of the log; none while a company
   * holds first-format documents (their log records are rewritten as they are).
   */
  private snapshot(): IndexSnapshot | null {
    const companies = [...this.companies].map(([companyId, c]) => [companyId, c.snapshot()] as [string, CompanySnapshot | null]);
    return companies.every((entry): entry is [string, CompanySnapshot] => entry[1] !== null) ? companies : null;
  }

  /** While the log replays, a new company defers its posting lists until `ready`. */
  private apply(record: LogRecord, replaying: boolean): boolean {
    if (record.op === 'del') return this.companies.get(record.c)?.remove(record.d) ?? false;
    if (record.op === 'attr') return this.companies.get(record.c)?.setAttributes(record.d, record.a) ?? false;
    let company = this.companies.get(record.c);
    if (!company) {
      company = new CompanyIndex(replaying);
      this.companies.set(record.c, company);
    }
    if ('terms' in record) company.put(record.d, record.terms, record.h, record.a);
    else company.put(record.d, [], 0, record.a, record.tf, record.len);
    return true;
  }

  private *allRecords(): Generator<LogRecord> {
    for (const [companyId, c] of this.companies) yield* c.records(companyId);
  }

  async upsert(companyId: string, documentId: string, text: string, attributes?: SearchAttributes): Promise<void> {
    const { terms, headlineTerms } = documentTerms(text);
    await this.requireLog().write({
      op: 'put',
      c: companyId,
      d: documentId,
      terms,
      h: headlineTerms,
      ...(attributes ? { a: attributes } : {}),
    });
  }

  async setAttributes(companyId: string, documentId: string, attributes: SearchAttributes): Promise<boolean> {
    if (!this.companies.get(companyId)?.slotOf.has(documentId)) return false;
    return this.requireLog().write({ op: 'attr', c: companyId, d: documentId, a: attributes });
  }

  async delete(companyId: string, documentId: string): Promise<number> {
    if (!this.companies.get(companyId)?.slotOf.has(documentId)) return 0;
    return (await this.requireLog().write({ op: 'del', c: companyId, d: documentId })) ? 1 : 0;
  }

  async search(companyId: string, query: ParsedQuery, limit: number, filter?: SearchFilter | null): Promise<KeywordHit[]> {
    const company = this.companies.get(companyId);
    if (!company) return [];
    const passes = passingSlots(company, filter, query);
    const weights = queryWeights(query);
    const phraseParts = query.parts.filter((p) => p.phrase);
    const phrases = phraseParts.map((p) => p.terms);
    // Which query words each CV holds, as bits, when there are few enough words for one integer.
    const held = weights.size <= 32 ? new Uint32Array(company.docs.length) : undefined;
    const firstPass = company.score(weights, phrases, held).scores;
    // A CV the filter or the query's conditions keep out scores nothing: feedback reads only CVs that pass, and none is returned.
    if (passes) for (let slot = 0; slot < firstPass.length; slot++) if (passes[slot] === 0) firstPass[slot] = 0;
    const bitOf = new Map([...weights.keys()].map((term, i) => [term, 1 << i]));
    const holds = held
      ? (slot: number, term: string) => (held[slot] & bitOf.get(term)!) !== 0
      : (slot: number, term: string) => company.hasTerm(slot, term);
    const { scores, maxScore } = company.score(company.expand(weights, firstPass), phrases);
    const phraseHolders = phraseParts.map((p) => company.phraseOccurrences(p.terms));
    // Feedback reorders, but every hit holds at least one query word: this is keyword search.
    return topK(scores, limit, (slot) => firstPass[slot] > 0).map(([slot, score]) => ({
      documentId: company.docs[slot]!.id,
      score,
      maxScore,
      matchedTerms: query.parts
        .filter((part) => (part.phrase ? phraseHolders[phraseParts.indexOf(part)].has(slot) : part.terms.every((t) => holds(slot, t))))
        .map((part) => part.text),
    }));
  }

  async distinctiveTerms(companyId: string, documentId: string, limit: number): Promise<string[]> {
    const company = this.companies.get(companyId);
    return company ? distinctiveTerms(company.termStatistics(documentId), company.size, limit) : [];
  }

  async facets(companyId: string, filter: SearchFilter | null, fields: readonly FacetField[]): Promise<FacetCounts> {
    const company = this.companies.get(companyId);
    if (!company) return countFacets([], fields);
    return company.attributes.facets(filter ? company.passing(filter) : null, fields);
  }

  async requirementCounts(companyId: string, base: SearchFilter | null, requirements: readonly SearchFilter[]): Promise<RequirementCounts> {
    const company = this.companies.get(companyId);
    return company ? company.attributes.requirementCounts(base, requirements) : countRequirements([], base, requirements);
  }

  /** Found as a `+"phrase"` condition of the query language is (`meeting`). */
  async documentsWithPhrase(companyId: string, phrase: string, limit: number): Promise<string[]> {
    const company = this.companies.get(companyId);
    const terms = analyze(phrase).map((t) => t.term);
    if (!company || terms.length === 0) return [];
    // One word is its posting list; words in order stop being sought past the limit, since a caller learns only that there are more.
    if (terms.length > 1)
      return [...company.phraseOccurrences(terms, false, limit).keys()].slice(0, limit).map((slot) => company.docs[slot]!.id);
    const meets = company.meeting({ kind: 'text', text: phrase, terms });
    const ids: string[] = [];
    for (let slot = 0; slot < meets.length && ids.length < limit; slot++) if (meets[slot] === 1) ids.push(company.docs[slot]!.id);
    return ids;
  }

  async count(companyId: string): Promise<number> {
    return this.companies.get(companyId)?.size ?? 0;
  }

  /** How many distinct words the company's index holds in memory (see MIN_EMPTY_TERMS_TO_PRUNE). */
  vocabularySize(companyId: string): number {
    return this.companies.get(companyId)?.termNames.length ?? 0;
  }

  /** Rewrites the log without deleted CVs' words now (LoggedIndex does it on its erasing schedule). */
  compact(): Promise<void> {
    return this.requireLog().compact();
  }

  /** Closes the log after saving a snapshot (see `snapshot`). */
  async close(): Promise<void> {
    await this.log?.close();
  }

  private requireLog(): LoggedIndex<LogRecord, IndexSnapshot, boolean> {
    if (!this.log) throw new Error('keyword index is closed');
    return this.log;
  }
}
