import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainError, http, invalid, notFound, type api } from '@cs/contracts';
import {
  MAX_POSTING_CHARS,
  hardRequirements,
  readJobCriteria,
  withHardCriteria,
  type JobCriteria,
  type SearchMatch,
} from '@cs/job-criteria';
import { resolvePlace } from '@cs/gazetteer';
import { DocumentsRepository, OutboxRelay, SearchesRepository, type NewSearch, type SearchRecord } from '@cs/records';
import {
  DEFAULT_RERANK_TOP_N,
  DEFAULT_TOP_K,
  MATCH_CANDIDATES,
  estimateTime,
  type QuerySearchType,
  type SearchType,
} from '@cs/search-domain';
import type { SearchFilter } from '@cs/search-filters';
import type { AuthContext } from '../auth/auth-context';
import { SerializedBody } from '../http/conditional-get';
import { EndedSearchAnswers } from './ended-search-answers';
import { checkKeywordQuery } from './keyword-query-check';
import { SearchFilterResolver } from './search-filter-resolver';
import { echoedFields, resultView, resultsUrl, searchMetadata, searchStatusView, statusUrl } from './search-views';
import { waitUntil, type Waiter } from './waiter-registry';

export type ResultsPage = Pick<http.ResultsQuery, 'limit' | 'offset' | 'include'>;

const RECENT_WINDOW = 50;
const RECENT_TTL_MS = 5000;

/** Create a search, read its status and its results. */
@Injectable()
export class SearchesService {
  private recent = new Map<SearchType, { at: number; values: number[] }>();

  constructor(
    private readonly searches: SearchesRepository,
    private readonly documents: DocumentsRepository,
    private readonly outbox: OutboxRelay,
    private readonly ended: EndedSearchAnswers,
    private readonly filters: SearchFilterResolver,
  ) {}

  /**
   * Creates a search and, when the client prefers to wait, waits up to `wait.seconds` for it to
   * end: `ended` is its status view if it did. `applied` is false when no wait was asked for or
   * the waiters' bounds are reached (then it answers at once).
   */
  async createWaiting(
    auth: AuthContext,
    create: () => Promise<api.SearchCreated>,
    wait: WaitRequest | null,
  ): Promise<{ created: api.SearchCreated; ended: api.SearchStatus | null; applied: boolean }> {
    const created = await create();
    const waiter = wait?.hold(auth.company.id, [created.searchId]);
    if (!wait || !waiter) return { created, ended: null, applied: false };
    try {
      const view = await waitUntil(waiter, wait.seconds, () => this.statusSeen(auth, created.searchId, waiter), hasEnded);
      return { created, ended: hasEnded(view) ? view : null, applied: true };
    } finally {
      waiter.release();
    }
  }

  /** The status, after waiting up to `wait.seconds` for the search to end when the client prefers to (and the bounds allow). */
  async statusWaiting(
    auth: AuthContext,
    searchId: string,
    wait: WaitRequest | null,
  ): Promise<{ view: api.SearchStatus; applied: boolean }> {
    const waiter = wait?.hold(auth.company.id, [searchId]);
    if (!wait || !waiter) return { view: await this.status(auth, searchId), applied: false };
    try {
      return { view: await waitUntil(waiter, wait.seconds, () => this.statusSeen(auth, searchId, waiter), hasEnded), applied: true };
    } finally {
      waiter.release();
    }
  }

  /** The status view, told to the waiter so that only a later change wakes it. */
  async statusSeen(auth: AuthContext, searchId: string, waiter: Waiter): Promise<api.SearchStatus> {
    const view = await this.status(auth, searchId);
    waiter.saw(searchId, view.status);
    return view;
  }

  async create(auth: AuthContext, searchType: QuerySearchType, body: http.CreateSearchBody): Promise<api.SearchCreated> {
    checkKeywordQuery(searchType, body.query);
    const resolvedFilter = this.filters.resolve(body.filters);
    return this.insert(auth, body, resolvedFilter, {
      searchType,
      query: body.query,
      rerankTopN: body.rerank_top_n ?? DEFAULT_RERANK_TOP_N,
    });
  }

  /** A `similar` search: from one of the company's CVs, which must have been read (it has a text and vectors to compare). */
  async createSimilar(auth: AuthContext, body: http.CreateSimilarSearchBody): Promise<api.SearchCreated> {
    // A bad filter is the request's fault whatever the document: a 400 before the 404 or 409.
    const resolvedFilter = this.filters.resolve(body.filters);
    // Its status is all that is needed here: not its text, up to a million characters.
    const document = (await this.documents.getMany(auth.company.id, [body.documentId], { withText: false })).get(body.documentId);
    if (!document) throw notFound('document');
    if (document.kind !== 'cv')
      throw invalid(
        `documentId: document ${document.id} is a job posting; a similar search starts from a CV (a match search reads a posting)`,
      );
    if (document.status !== 'completed') {
      throw new DomainError(
        'conflict',
        `document ${document.id} is ${document.status}: a similar search starts from a CV that was read (status completed)`,
      );
    }
    return this.insert(auth, body, resolvedFilter, {
      searchType: 'similar',
      query: '',
      similarTo: document.id,
      rerankTopN: DEFAULT_RERANK_TOP_N,
    });
  }

  /**
   * A `match` search: CVs ranked against a job posting's criteria, read here from its text (so
   * that the answer shows them at once) or given as edited. Strict, the requirements are filters.
   */
  async createMatch(auth: AuthContext, body: http.CreateMatchSearchBody): Promise<api.SearchCreated> {
    const documentId = body.jobDescriptionDocumentId ?? null;
    const posting = documentId ? await this.postingText(auth, documentId) : (body.jobDescription ?? '');
    const criteria: JobCriteria = body.criteria ?? readJobCriteria(posting);
    if (criteria.title === null && criteria.skills.required.length === 0 && criteria.skills.preferred.length === 0) {
      throw invalid(
        body.criteria
          ? 'criteria must hold a title or at least one skill: there is nothing to rank CVs by'
          : `${documentId ? 'the job posting of jobDescriptionDocumentId' : 'jobDescription'} names no job title and no skill this service reads (postings are read in English); send criteria instead`,
      );
    }
    const located = criteria.location && 'place' in criteria.location ? criteria.location.place : null;
    const place = located === null ? null : resolvePlace(located);
    if (located !== null && place === null)
      throw invalid(`criteria.location.place: no place is known by the name ${JSON.stringify(located)}`);
    const strict = body.strict ?? false;
    // The client's own filters first: their errors name the client's fields.
    const ownFilter = this.filters.resolve(body.filters);
    let resolvedFilter = ownFilter;
    if (strict) {
      try {
        resolvedFilter = this.filters.resolve(withHardCriteria(body.filters, criteria));
      } catch (error) {
        if (error instanceof DomainError) throw invalid(`strict criteria: ${error.message}`);
        throw error;
      }
    }
    return this.insert(auth, body, resolvedFilter, {
      searchType: 'match',
      query: '',
      match: {
        ...(documentId ? { jobDescriptionDocumentId: documentId } : {}),
        criteria,
        strict,
        place,
        requirements: this.requirementFilters(body.filters, ownFilter, criteria),
      },
      rerankTopN: MATCH_CANDIDATES.reranked,
    });
  }

  /**
   * The text of a job posting the company uploaded (`kind: "job"`), as far as a posting is read:
   * 404 for no such document, 400 for a CV or a posting that could not be read, 409 while it is
   * still being processed.
   */
  private async postingText(auth: AuthContext, documentId: string): Promise<string> {
    const doc = await this.documents.get(auth.company.id, documentId);
    if (!doc) throw notFound('document');
    if (doc.kind !== 'job')
      throw invalid(
        `jobDescriptionDocumentId: document ${documentId} is a CV; upload the job posting with kind "job" (or send its text as jobDescription)`,
      );
    if (doc.status === 'uploading' || doc.status === 'pending')
      throw new DomainError('conflict', `the job posting ${documentId} is still being processed; wait until its status is completed`);
    if (doc.status !== 'completed' || doc.extractedText === null)
      throw invalid(`jobDescriptionDocumentId: the job posting ${documentId} is ${doc.status}: ${doc.message ?? 'it could not be read'}`);
    return doc.extractedText.slice(0, MAX_POSTING_CHARS);
  }

  /**
   * What the requirements are counted by: the client's filters, resolved, and each requirement a
   * filter can apply. A requirement the filters cannot resolve alone (a radius around a region, a
   * skill of no searchable word) is left out of the counts: it still weighs.
   */
  private requirementFilters(
    filters: http.CreateMatchSearchBody['filters'],
    base: SearchFilter | null,
    criteria: JobCriteria,
  ): SearchMatch['requirements'] {
    const seen = new Set<string>();
    const each = hardRequirements(filters, criteria).flatMap(({ criterion, filters: alone }) => {
      try {
        const filter = this.filters.resolve(alone);
        // Two names the vocabulary reads as one skill are one requirement: counted once, as the first.
        const key = JSON.stringify(filter);
        if (!filter || seen.has(key)) return [];
        seen.add(key);
        return [{ criterion, filter }];
      } catch (error) {
        if (error instanceof DomainError) return [];
        throw error;
      }
    });
    return { base, each };
  }

  private async insert(
    auth: AuthContext,
    body: Pick<http.CreateSearchBody, 'top_k' | 'searchGroupId' | 'filters' | 'facets'>,
    resolvedFilter: NewSearch['resolvedFilter'],
    subject: Pick<NewSearch, 'searchType' | 'query' | 'rerankTopN' | 'similarTo' | 'match'>,
  ): Promise<api.SearchCreated> {
    // The search and its job commit together; the job is published right after (from the outbox
    // later, should the queue be down), so an accepted search is never left without its job.
    const search = await this.outbox.writeWithJobs(async (tx, addJob) => {
      const created = await new SearchesRepository(tx).create(
        {
          ...subject,
          id: randomUUID(),
          companyId: auth.company.id,
          searchGroupId: body.searchGroupId ?? randomUUID(),
          topK: body.top_k ?? DEFAULT_TOP_K,
          filters: body.filters ?? null,
          resolvedFilter,
          facetFields: body.facets ?? [],
        },
        http.MAX_GROUP_SEARCHES,
      );
      if (created) addJob('search', created.id, { searchId: created.id });
      return created;
    });
    if (!search) {
      throw new DomainError(
        'conflict',
        `search group ${String(body.searchGroupId)} already holds ${http.MAX_GROUP_SEARCHES} searches, the most a group holds; start a new group`,
      );
    }
    return {
      searchId: search.id,
      searchGroupId: search.searchGroupId,
      status: 'processing',
      searchType: search.searchType,
      query: search.query,
      ...echoedFields(search),
      estimatedTime: estimateTime(search.searchType, await this.recentTimes(search.searchType)),
      statusUrl: statusUrl(search.id),
      resultsUrl: resultsUrl(search.id),
    };
  }

  async status(auth: AuthContext, searchId: string): Promise<api.SearchStatus> {
    const search = await this.searches.getSummary(auth.company.id, searchId);
    if (!search) throw notFound('search');
    return searchStatusView(search, await this.recentTimes(search.searchType));
  }

  /** The status as answered to a read that does not wait: an ended search's is serialised once and kept. */
  async statusAnswer(auth: AuthContext, searchId: string): Promise<SerializedBody | api.SearchStatus> {
    const kept = this.ended.status(auth.company.id, searchId);
    if (kept) return kept.body;
    const view = await this.status(auth, searchId);
    if (!hasEnded(view)) return view;
    const body = new SerializedBody(JSON.stringify(view));
    this.ended.rememberStatus(auth.company.id, searchId, body);
    return body;
  }

  /** A page of a completed search's results, serialised once and kept until a CV it shows changes. */
  async results(auth: AuthContext, searchId: string, page: ResultsPage): Promise<SerializedBody> {
    const kept = this.ended.page(auth.company.id, searchId, page);
    if (kept) return kept.body;
    const generation = this.ended.generation;
    const search = await this.searches.get(auth.company.id, searchId);
    if (!search) throw notFound('search');
    if (search.status !== 'completed') throw notCompleted(search);
    const view = await this.resultsBody(search, page);
    const body = new SerializedBody(JSON.stringify(view));
    // The page changes when a CV it shows does, a near miss's too.
    const documentIds = [...view.results.map((r) => r.documentId), ...(view.nearMisses ?? []).map((n) => n.documentId)];
    this.ended.rememberPage(auth.company.id, searchId, page, body, documentIds, generation);
    return body;
  }

  /** A page of a completed search's results, joined with their CVs (only the page's are read). */
  async resultsBody(search: SearchRecord, page: ResultsPage): Promise<api.SearchResults> {
    const stored = search.results ?? [];
    const shown = stored.slice(page.offset, page.offset + page.limit);
    const outcome = search.matchOutcome;
    const [docs, nearMissDocs] = await Promise.all([
      this.documents.getMany(
        search.companyId,
        shown.map((r) => r.documentId),
        { withText: page.include.extractedText },
      ),
      this.documents.getMany(
        search.companyId,
        (outcome?.nearMisses ?? []).map((n) => n.documentId),
        { withText: false },
      ),
    ]);
    return {
      searchId: search.id,
      searchGroupId: search.searchGroupId,
      query: search.query,
      ...echoedFields(search),
      searchType: search.searchType,
      status: 'completed' as const,
      totalResults: stored.length,
      results: shown.map((r) => resultView(r, docs.get(r.documentId), page)),
      pagination: { limit: page.limit, offset: page.offset, total: stored.length, hasMore: page.offset + shown.length < stored.length },
      metadata: searchMetadata(search),
      ...(search.facets ? { facets: search.facets } : {}),
      ...(outcome
        ? {
            candidatesMeetingAll: outcome.candidatesMeetingAll,
            relaxations: outcome.relaxations,
            // A near miss deleted since is gone, with the criteria it quoted.
            nearMisses: outcome.nearMisses.flatMap((n) => {
              const doc = nearMissDocs.get(n.documentId);
              return doc ? [{ ...n, documentName: doc.documentName }] : [];
            }),
          }
        : {}),
    };
  }

  /** Recent processing times of a type, cached briefly so estimates cost no query per request. */
  async recentTimes(type: SearchType): Promise<number[]> {
    const cached = this.recent.get(type);
    if (cached && Date.now() - cached.at < RECENT_TTL_MS) return cached.values;
    const values = await this.searches.recentProcessingTimes(type, RECENT_WINDOW);
    this.recent.set(type, { at: Date.now(), values });
    return values;
  }
}

/** How a request may wait: at most `seconds`, in a waiter's place that `hold` takes (null past the bounds). */
export interface WaitRequest {
  seconds: number;
  hold: (companyId: string, ids: string[]) => Waiter | null;
}

export const hasEnded = (view: { status: string }): boolean => view.status === 'completed' || view.status === 'failed';

function notCompleted(search: SearchRecord): DomainError {
  if (search.status === 'failed') {
    return new DomainError('conflict', `the search failed, so it has no results: ${search.error ?? 'unknown error'}`, {
      status: search.status,
      searchError: search.error,
      errorRetryable: search.errorRetryable,
    });
  }
  return new DomainError('conflict', `the search is ${search.status}; poll ${statusUrl(search.id)} until it is completed`, {
    status: search.status,
  });
}
