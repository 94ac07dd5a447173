import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { InjectConfig } from '@cs/service-kit';
import { DENSE_CLIENT, SPARSE_CLIENT, type DenseClient, type DenseSearchResult, type SparseClient } from '@cs/ports';
import type { DenseModelMetadata, InducedWord } from '@cs/search-domain';
import { parseQuery, queryTerms, termFinder } from '@cs/text-analysis';
import { DocumentTexts } from '../document-texts';
import { clamp01, round4, type Candidate } from './candidate';
import type { SearchCommand } from './search-command';
import { inStageSpan } from './stage-span';

/**
 * Query words the word vectors lack (`kubernetes`, `c++`) are read from the company's own CVs:
 * the text around them in the CVs that hold them. At most `inducedWords` words (RankingTuning),
 * from this many CVs each, this many characters either side of at most this many mentions a CV.
 */
const INDUCED = { cvs: 20, chars: 100, mentionsPerCv: 3 } as const;

/** What a query word the vectors lack was read as: the text around it in `cvs` CVs. */
interface WordContext {
  text: string;
  cvs: number;
}

/** The dense leg's hits, and the query words it read from the company's CVs. */
export interface DenseLeg {
  /** No word of the query is known: nothing was searched (unlike a search that found nothing). */
  noKnownWords: boolean;
  candidates: Candidate[];
  /** The model that read the query and made the vectors: `metadata.denseModel`. */
  model: DenseModelMetadata;
  /** The text read for each word the vectors lack; the reranker reads the query the same way. */
  wordContexts: Map<string, string>;
  /** Those words, with the number of CVs read: `metadata.inducedWords` when there are any. */
  inducedWords: InducedWord[];
}

/** The dense leg: the query's vector against the company's document vectors. */
@Injectable()
export class DenseRetrieval {
  private readonly logger = new Logger(DenseRetrieval.name);

  constructor(
    @Inject(DENSE_CLIENT) private readonly dense: DenseClient,
    @Inject(SPARSE_CLIENT) private readonly sparse: SparseClient,
    private readonly texts: DocumentTexts,
    @InjectConfig('rankingTuning') private readonly tuning: Pick<AppConfig['rankingTuning'], 'inducedWords'>,
  ) {}

  /**
   * The dense hits (`noKnownWords` when no word of the query is known: nothing to search with). Words
   * the vectors lack are searched again with their contexts from the company's CVs, when any CV
   * holds them.
   */
  retrieve(command: SearchCommand, topK: number): Promise<DenseLeg> {
    return inStageSpan(
      'retrieval dense',
      command,
      (leg) => leg.candidates.length,
      () => this.retrieveLeg(command, topK),
    );
  }

  private async retrieveLeg(command: SearchCommand, topK: number): Promise<DenseLeg> {
    let result = await this.dense.search(command.companyId, command.query, topK, undefined, command.filter);
    let contexts = new Map<string, WordContext>();
    if (result.unknownWords.length > 0 && this.tuning.inducedWords > 0) {
      // Reading words from CVs only improves a search that can run without it: a failure here does not fail it.
      contexts = await this.wordContexts(command.companyId, result.unknownWords.slice(0, this.tuning.inducedWords)).catch(
        (error: unknown) => {
          this.logger.warn(
            `reading unknown query words from CVs failed, searching without them: ${error instanceof Error ? error.message : String(error)}`,
          );
          return new Map<string, WordContext>();
        },
      );
    }
    const wordContexts = new Map([...contexts].map(([word, c]) => [word, c.text]));
    if (wordContexts.size > 0) result = await this.dense.search(command.companyId, command.query, topK, wordContexts, command.filter);
    return legOf(result, contexts);
  }

  /** The CVs closest to one of the company's CVs by its own vector (`noKnownWords` when it has none). */
  retrieveSimilar(command: SearchCommand, documentId: string, topK: number): Promise<DenseLeg> {
    return inStageSpan(
      'retrieval dense',
      command,
      (leg) => leg.candidates.length,
      async () => legOf(await this.dense.similar(command.companyId, documentId, topK, command.filter), new Map()),
    );
  }

  /** For each word, the text around its mentions in the company's CVs that hold it (the keyword index finds them). */
  private async wordContexts(companyId: string, words: string[]): Promise<Map<string, WordContext>> {
    const contexts = new Map<string, WordContext>();
    await Promise.all(
      words.map(async (word) => {
        const parsed = parseQuery(word);
        if (parsed.parts.length === 0) return;
        const hits = await this.sparse.search(companyId, parsed, INDUCED.cvs);
        const texts = await this.texts.texts(
          companyId,
          hits.map((h) => h.documentId),
        );
        const findWord = termFinder(queryTerms(parsed));
        const windows: string[] = [];
        let cvs = 0;
        for (const text of texts.values()) {
          const mentions = findWord(text).slice(0, INDUCED.mentionsPerCv);
          for (const m of mentions) windows.push(text.slice(Math.max(0, m.start - INDUCED.chars), m.end + INDUCED.chars));
          if (mentions.length > 0) cvs++;
        }
        if (cvs > 0) contexts.set(word, { text: windows.join('\n'), cvs });
      }),
    );
    return contexts;
  }
}

function legOf(result: DenseSearchResult, contexts: ReadonlyMap<string, WordContext>): DenseLeg {
  return {
    noKnownWords: result.noKnownWords,
    candidates: result.hits.map((h) => ({
      documentId: h.documentId,
      score: clamp01(h.score),
      scores: { dense: round4(clamp01(h.score)) },
      chunkIndex: h.chunkIndex,
    })),
    model: { id: result.model.id, dimensions: result.model.dimensions },
    wordContexts: new Map([...contexts].map(([word, c]) => [word, c.text])),
    inducedWords: [...contexts].map(([word, c]) => ({ word, cvs: c.cvs })),
  };
}

/** `metadata.denseModel`, and `metadata.inducedWords` only when the dense leg read some words from CVs. */
export function denseMetadataOf(leg: DenseLeg): { denseModel: DenseModelMetadata; inducedWords?: InducedWord[] } {
  return { denseModel: leg.model, ...(leg.wordContexts.size > 0 ? { inducedWords: leg.inducedWords } : {}) };
}
