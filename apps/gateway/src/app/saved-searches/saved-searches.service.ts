import { Injectable } from '@nestjs/common';
import { DomainError, http, notFound, type api } from '@cs/contracts';
import { SavedSearchesRepository, type SavedSearchMatch, type SavedSearchRecord } from '@cs/records';
import type { AuthContext } from '../auth/auth-context';
import { checkKeywordQuery } from '../searches/keyword-query-check';
import { SearchFilterResolver } from '../searches/search-filter-resolver';

export const savedSearchUrl = (id: string) => `/v1/public/saved-searches/${id}`;

const savedSearchView = (saved: SavedSearchRecord): api.SavedSearch => ({
  savedSearchId: saved.id,
  name: saved.name,
  searchType: saved.searchType,
  query: saved.query,
  filters: saved.filters,
  top_k: saved.topK,
  createdAt: saved.createdAt.toISOString(),
  newMatchesCount: saved.matchesCount,
  lastNewMatchAt: saved.lastMatchAt?.toISOString() ?? null,
  savedSearchUrl: savedSearchUrl(saved.id),
  newUrl: `${savedSearchUrl(saved.id)}/new`,
});

const matchView = (match: SavedSearchMatch): api.SavedSearchMatch => ({
  documentId: match.documentId,
  documentName: match.documentName,
  rank: match.rank,
  score: match.score,
  arrivedAt: match.arrivedAt.toISOString(),
  foundAt: match.foundAt.toISOString(),
  documentUrl: `/v1/public/documents/${match.documentId}`,
});

/**
 * A company's saved searches: a query, its filters and its first page, checked and resolved as a
 * search's are when saved, then run again by the search orchestrator whenever CVs are read; what
 * entered the first page is listed as new.
 */
@Injectable()
export class SavedSearchesService {
  constructor(
    private readonly savedSearches: SavedSearchesRepository,
    private readonly filters: SearchFilterResolver,
  ) {}

  async create(auth: AuthContext, body: http.CreateSavedSearchBody): Promise<api.SavedSearch> {
    checkKeywordQuery(body.searchType, body.query);
    const resolvedFilter = this.filters.resolve(body.filters);
    const saved = await this.savedSearches.create(
      auth.company.id,
      {
        name: body.name,
        searchType: body.searchType,
        query: body.query,
        filters: body.filters ?? null,
        resolvedFilter,
        topK: body.top_k ?? http.DEFAULT_SAVED_SEARCH_TOP_K,
      },
      http.MAX_SAVED_SEARCHES,
    );
    if (saved === 'name_taken')
      throw new DomainError('conflict', `a saved search named ${JSON.stringify(body.name)} already exists: choose another name`);
    if (saved === 'too_many')
      throw new DomainError(
        'conflict',
        `the company already keeps ${http.MAX_SAVED_SEARCHES} saved searches, the most it may: delete one first`,
      );
    return savedSearchView(saved);
  }

  async list(auth: AuthContext, limit: number, offset: number): Promise<api.SavedSearchList> {
    const { rows, total } = await this.savedSearches.list(auth.company.id, limit, offset);
    return { data: rows.map(savedSearchView), pagination: { limit, offset, total, hasMore: offset + rows.length < total } };
  }

  async get(auth: AuthContext, id: string): Promise<api.SavedSearch> {
    const saved = await this.savedSearches.get(auth.company.id, id);
    if (!saved) throw notFound('saved search');
    return savedSearchView(saved);
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    if (!(await this.savedSearches.delete(auth.company.id, id))) throw notFound('saved search');
  }

  async newMatches(
    auth: AuthContext,
    id: string,
    since: Date | undefined,
    limit: number,
    offset: number,
  ): Promise<api.SavedSearchNewMatches> {
    const found = await this.savedSearches.matches(auth.company.id, id, since ?? null, limit, offset);
    if (!found) throw notFound('saved search');
    return {
      savedSearchId: id,
      since: since?.toISOString() ?? null,
      data: found.rows.map(matchView),
      pagination: { limit, offset, total: found.total, hasMore: offset + found.rows.length < found.total },
    };
  }
}
