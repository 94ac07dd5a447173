import { Inject, Injectable } from '@nestjs/common';
import { KEYWORD_INDEX, type KeywordHit, type KeywordIndex, type SparseClient } from '@cs/ports';
import type { FacetCounts, FacetField, RequirementCounts, SearchAttributes, SearchFilter } from '@cs/search-filters';
import type { ParsedQuery } from '@cs/text-analysis';

/** BM25 keyword search over the company's CVs. */
@Injectable()
export class SparseService implements SparseClient {
  constructor(@Inject(KEYWORD_INDEX) private readonly index: KeywordIndex) {}

  upsert(companyId: string, documentId: string, text: string, attributes?: SearchAttributes): Promise<void> {
    return this.index.upsert(companyId, documentId, text, attributes);
  }

  setAttributes(companyId: string, documentId: string, attributes: SearchAttributes): Promise<boolean> {
    return this.index.setAttributes(companyId, documentId, attributes);
  }

  delete(companyId: string, documentId: string): Promise<number> {
    return this.index.delete(companyId, documentId);
  }

  facets(companyId: string, filter: SearchFilter | null, fields: readonly FacetField[]): Promise<FacetCounts> {
    return this.index.facets(companyId, filter, fields);
  }

  requirementCounts(companyId: string, base: SearchFilter | null, requirements: readonly SearchFilter[]): Promise<RequirementCounts> {
    return this.index.requirementCounts(companyId, base, requirements);
  }

  distinctiveTerms(companyId: string, documentId: string, limit: number): Promise<string[]> {
    return this.index.distinctiveTerms(companyId, documentId, limit);
  }

  documentsWithPhrase(companyId: string, phrase: string, limit: number): Promise<string[]> {
    return this.index.documentsWithPhrase(companyId, phrase, limit);
  }

  search(companyId: string, query: ParsedQuery, topK: number, filter?: SearchFilter | null): Promise<KeywordHit[]> {
    return query.parts.length === 0 ? Promise.resolve([]) : this.index.search(companyId, query, topK, filter);
  }
}
