import { Inject, Injectable } from '@nestjs/common';
import { SPARSE_CLIENT, type SparseClient } from '@cs/ports';
import type { ParsedQuery } from '@cs/text-analysis';
import { clamp01, round4, type Candidate } from './candidate';
import type { SearchCommand } from './search-command';
import { inStageSpan } from './stage-span';

/** The sparse leg: BM25 over the company's CVs, each score over the query's upper bound. */
@Injectable()
export class SparseRetrieval {
  constructor(@Inject(SPARSE_CLIENT) private readonly sparse: SparseClient) {}

  /** The keyword hits of a query with at least one keyword (the caller checks `parsed.parts`). */
  async retrieve(command: SearchCommand, parsed: ParsedQuery, topK: number): Promise<Candidate[]> {
    const hits = await inStageSpan(
      'retrieval sparse',
      command,
      (h) => h.length,
      () => this.sparse.search(command.companyId, parsed, topK, command.filter),
    );
    return hits.map((h) => {
      const score = h.maxScore > 0 ? clamp01(h.score / h.maxScore) : 0;
      return { documentId: h.documentId, score, scores: { sparse: round4(score) } };
    });
  }
}
