import { Inject, Injectable } from '@nestjs/common';
import { KEYWORD_INDEX, type KeywordHit, type KeywordIndex, type SparseClient } from '@cs/ports';
import type { ParsedQuery } from '@cs/text-analysis';

/** BM25 keyword search over the company's CVs. */
@Injectable()
export class SparseService implements SparseClient {
  constructor(@Inject(KEYWORD_INDEX) private readonly index: KeywordIndex) {}

  upsert(companyId: string, documentId: string, text: string): Promise<void> {
    return this.index.upsert(companyId, documentId, text);
  }

  delete(companyId: string, documentId: string): Promise<number> {
    return this.index.delete(companyId, documentId);
  }

  search(companyId: string, query: ParsedQuery, topK: number): Promise<KeywordHit[]> {
    return query.parts.length === 0 ? Promise.resolve([]) : this.index.search(companyId, query, topK);
  }
}
