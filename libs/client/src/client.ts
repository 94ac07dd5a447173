import {
  CandidateSearchError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  SearchFailedError,
  TimeoutError,
  clientValidation,
} from './errors';
import { searchEventStream, type SearchEvent, type SearchEventsOptions } from './sse';
import { pollDelay, randomId, sleep, withDeadline } from './timing';
import { Transport, retryAfterOf, type ApiResponse, type FetchLike, type OnRetry, type RequestSpec } from './transport';
import {
  MAX_UPLOAD_BYTES,
  SEARCH_TYPES,
  contentTypeOf,
  isTerminalDocument,
  isTerminalSearch,
  type CompletedSearch,
  type CreateSearchBody,
  type Document,
  type DocumentDeleted,
  type DocumentKind,
  type DocumentList,
  type DocumentStatus,
  type DocumentSummary,
  type FacetField,
  type FailedSearch,
  type GroupList,
  type GroupResults,
  type GroupStatus,
  type PresignedUpload,
  type ResultItem,
  type SearchCreated,
  type SearchFilters,
  type SearchResults,
  type SearchState,
  type SearchStatus,
  type SavedSearch,
  type SavedSearchBody,
  type SavedSearchList,
  type SavedSearchNewMatches,
  type Shortlist,
  type ShortlistItem,
  type ShortlistList,
  type QuerySearchType,
  type SimilarSearchBody,
  type JobCriteria,
  type MatchSearchBody,
  type UploadAccepted,
} from './types';
import { VERSION } from './version';

export interface CandidateSearchOptions {
  /** Where the API is, e.g. `https://search.example.com` (paths start with /v1/public). */
  baseUrl: string;
  /** The company's key (`csk_...`), sent as X-API-Key. */
  apiKey: string;
  /** A fetch to use instead of the global one (tests, proxies, instrumentation). */
  fetch?: FetchLike;
  /** Retries of one request on network errors, 5xx and 429 (default 2). */
  maxRetries?: number;
  /** Sent as User-Agent (default in Node: `candidate-search-client/<version>`; browsers forbid setting it). */
  userAgent?: string;
  /** One request's deadline, a long poll's wait added (default 30 s). */
  requestTimeoutMs?: number;
  /** Files up to this size go through upload-direct, larger ones through a presigned URL (default 5 MiB). */
  directUploadMaxBytes?: number;
  /**
   * Told of every retry before the client waits for it: the attempt, the delay, why, and the error
   * (a RateLimitError's retryAfter, limit, remaining, window). A progress display can say it is
   * sitting out a rate limit rather than look stuck.
   */
  onRetry?: OnRetry;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Told of this call's retries (a 429 sat out, a 5xx or lost connection retried), after the client's own onRetry. */
  onRetry?: OnRetry;
}

export interface CreateSearchOptions extends CallOptions {
  /** Results (dense, sparse) or first-stage candidates (builtin-rerank, hybrid): 1 to 100, default 20. */
  topK?: number;
  /** Final results after reranking (builtin-rerank, hybrid): 1 to 100, default 30. */
  rerankTopN?: number;
  /** Join this group (a UUID); without it the server starts a new group. */
  searchGroupId?: string;
  /**
   * Conditions every result meets (skills, experience, seniority, domain, place, degree,
   * languages, document date and ids), applied inside the search before its top K. Write them,
   * or build them with searchFilters().
   */
  filters?: SearchFilters;
  /** Count these profile fields over the CVs that pass the filters and over the results (the results' `facets`). */
  facets?: readonly FacetField[];
}

/** A similar search's options: a query search's but rerankTopN, since it has no reranker (the API refuses it). */
export type CreateSimilarSearchOptions = Omit<CreateSearchOptions, 'rerankTopN'>;

/** A job posting uploaded before with kind `job`. */
export interface PostingDocument {
  documentId: string;
}

/** A job posting's file, uploaded with kind `job` and read before the match. */
export interface PostingFile {
  file: Uint8Array | ArrayBuffer | Blob;
  fileName: string;
  /** Default: from a Blob's type or fileName's extension. */
  contentType?: string;
}

/** What match() ranks CVs against: a posting's text, criteria (edited), an uploaded posting, or a posting's file. */
export type MatchPosting = string | JobCriteria | PostingDocument | PostingFile;

/** A match search's options: a similar search's, and whether the posting's requirements are filters. */
export interface CreateMatchSearchOptions extends CreateSimilarSearchOptions {
  /** The required criteria as filters: a CV missing one is not returned (default false: they weigh). */
  strict?: boolean;
}

export interface WaitOptions extends CallOptions {
  /** Give up after this long with a TimeoutError (default 60 s, the contract's advice). */
  timeoutMs?: number;
}

export interface WaitForSearchOptions extends WaitOptions {
  /** Follow the search's event stream (SSE) instead of polling; polls when the server has none. */
  events?: boolean;
  /** Called with every status seen. */
  onStatus?: (status: SearchStatus) => void;
}

export interface ResultsOptions extends CallOptions {
  /** Results a page: up to 100 (default 100), or up to 20 (default 20) with include `extractedText`. */
  limit?: number;
  offset?: number;
  /** `extractedText` adds each CV's whole text. */
  include?: 'extractedText';
}

export interface SearchOptions extends CreateSearchOptions, WaitForSearchOptions {
  /** The first page's size (see ResultsOptions.limit). */
  limit?: number;
  include?: 'extractedText';
}

/** similar()'s options: search()'s but rerankTopN. */
export type SimilarSearchOptions = Omit<SearchOptions, 'rerankTopN'>;

/** match()'s options: similar()'s, and strict. */
export type MatchSearchOptions = SimilarSearchOptions & Pick<CreateMatchSearchOptions, 'strict'>;

/** What search() and similar() resolve with: the completed search and the first page of its results. */
export interface SearchOutcome {
  search: CompletedSearch;
  page: SearchResults;
}

export interface GroupOptions extends Omit<CreateSearchOptions, 'signal'>, WaitOptions {
  /** The search types to run (default all four). */
  types?: readonly QuerySearchType[];
  /** Called with every group status seen. */
  onStatus?: (status: GroupStatus) => void;
}

export interface ListOptions<S extends string> extends CallOptions {
  status?: S;
  /** 1 to 100 (default 20). */
  limit?: number;
  offset?: number;
}

export interface DocumentListOptions extends ListOptions<DocumentStatus> {
  /** Only CVs, or only job postings. */
  kind?: DocumentKind;
  /** Only documents whose name, or the candidate's name read from them, holds this (any case). */
  name?: string;
  /** By upload time (default newest first, `-createdAt`), name or status; `-` reverses. */
  sort?: '-createdAt' | 'createdAt' | 'name' | '-name' | 'status' | '-status';
}

export interface UploadProgress {
  route: 'direct' | 'presigned';
  /** `uploading` before the bytes go and (in Node) as they go, `finalizing` once a presigned PUT is done, `done` with the answer. */
  phase: 'uploading' | 'finalizing' | 'done';
  bytesSent: number;
  totalBytes: number;
}

export interface UploadOptions extends CallOptions {
  /** The file's name; its extension gives the type when contentType is absent. */
  fileName: string;
  /** application/pdf, the DOCX or DOC type, or text/plain (default: from a Blob's type or fileName). */
  contentType?: string;
  /** Default: fileName without its extension. */
  documentName?: string;
  /** MM-YYYY (default: the current month, UTC). */
  documentDate?: string;
  /** A lowercase word, a label of yours (the server's default: cv). */
  documentType?: string;
  /** `job` for a job posting, which match searches read and no search returns (default: cv). */
  kind?: DocumentKind;
  /** `auto` (default) picks by size: upload-direct up to directUploadMaxBytes, presigned above. */
  route?: 'auto' | 'direct' | 'presigned';
  onProgress?: (progress: UploadProgress) => void;
}

export interface UploadFromUrlOptions extends CallOptions {
  documentName: string;
  documentDate?: string;
  documentType?: string;
  /** `job` for a job posting (default: cv). */
  kind?: DocumentKind;
  fileName?: string;
}

export interface WaitForDocumentsOptions extends WaitOptions {
  /** Called once per document when it reaches completed, failed or invalid. */
  onDocument?: (document: Document) => void;
  /** With it, a document deleted while waited for is reported here and the wait goes on without it (else NotFoundError). */
  onDeleted?: (documentId: string) => void;
}

/** Where one document stands, as documentStatuses() found it. */
export interface DocumentState {
  documentId: string;
  /** Its status, or `deleted` when the API no longer knows it (404). */
  status: DocumentStatus | 'deleted';
  /** The document as read: every final one (completed, failed, invalid); absent when the lists showed it in flight. */
  document?: Document;
  /** Why a failed or invalid document is not searchable: its error's message, else its message. */
  reason?: string;
}

const PREFER_MAX_SECONDS = 30;
/** A long poll asks the server to answer this much before the caller's deadline, so its answer arrives in time. */
const PREFER_MARGIN_MS = 2_000;

const preferenceApplied = (headers: Headers) => /\bwait\s*=/i.test(headers.get('preference-applied') ?? '');
const isNode = () => typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string';
const currentMonth = (now = new Date()) => `${String(now.getUTCMonth() + 1).padStart(2, '0')}-${now.getUTCFullYear()}`;
const id = (value: string) => encodeURIComponent(value);

/**
 * The Candidate Search API over fetch: works in browsers and Node 20+. Searches are asynchronous
 * jobs; search() starts one and waits for it (a long poll with `Prefer: wait` where the server
 * offers it, else polling at the contract's pace), then reads the first page of results.
 */
export class CandidateSearch {
  protected readonly transport: Transport;
  private readonly requestTimeoutMs: number;
  private readonly directUploadMaxBytes: number;

  constructor(options: CandidateSearchOptions) {
    if (!options.baseUrl) throw new TypeError('baseUrl is required');
    if (!options.apiKey) throw new TypeError('apiKey is required');
    if (!options.fetch && typeof globalThis.fetch !== 'function')
      throw new TypeError('no global fetch here: pass options.fetch (Node 20+ has one)');
    const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.directUploadMaxBytes = Math.min(options.directUploadMaxBytes ?? 5 * 1024 * 1024, MAX_UPLOAD_BYTES);
    this.transport = new Transport({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      fetch: fetchImpl,
      maxRetries: options.maxRetries ?? 2,
      requestTimeoutMs: this.requestTimeoutMs,
      // Browsers (and their workers) refuse or ignore a script's User-Agent: only Node gets the default.
      userAgent: options.userAgent ?? (isNode() ? `candidate-search-client/${VERSION}` : undefined),
      onRetry: options.onRetry,
    });
  }

  // Searches

  /** Starts a search (202); poll it with getSearch or waitForSearch, or use search() for both. */
  async createSearch(type: QuerySearchType, query: string, options: CreateSearchOptions = {}): Promise<SearchCreated> {
    return this.postSearch(`/v1/public/searches/${type}`, searchBody(query, options), options);
  }

  /**
   * Starts a similar search (202): the company's CVs most like one of them, that one left out.
   * NotFoundError when the company has no such document; ConflictError when it is not a read CV
   * (still processing, invalid or failed). Poll it as any search, or use similar() for both.
   */
  async createSimilarSearch(documentId: string, options: CreateSimilarSearchOptions = {}): Promise<SearchCreated> {
    return this.postSearch('/v1/public/searches/similar', similarBody(documentId, options), options);
  }

  /**
   * Starts a match search (202): the company's CVs ranked against a job posting, given as its
   * text (its criteria are read at once and come back in the answer's `criteria`) or as criteria
   * (those a match search returned, edited). Poll it as any search, or use match() for both.
   */
  async createMatchSearch(posting: string | JobCriteria | PostingDocument, options: CreateMatchSearchOptions = {}): Promise<SearchCreated> {
    return this.postSearch('/v1/public/searches/match', matchBody(posting, options), options);
  }

  private async postSearch(path: string, body: SearchBody, options: CallOptions): Promise<SearchCreated> {
    const res = await this.transport.request<SearchCreated>({
      method: 'POST',
      path,
      json: body,
      signal: options.signal,
      onRetry: options.onRetry,
    });
    return res.data;
  }

  /** A search's current status. */
  async getSearch(searchId: string, options: CallOptions = {}): Promise<SearchStatus> {
    return this.get<SearchStatus>(`/v1/public/searches/${id(searchId)}`, options);
  }

  /**
   * Waits until the search completes (resolves) or fails (rejects with SearchFailedError), at most
   * timeoutMs (then TimeoutError). Long polls with `Prefer: wait`; where the server does not apply
   * it, polls with a growing delay from 1 s, never more than once a second, honouring Retry-After.
   */
  async waitForSearch(searchId: string, options: WaitForSearchOptions = {}): Promise<CompletedSearch> {
    const d = withDeadline(options.signal, options.timeoutMs ?? 60_000);
    const seen: { last?: SearchStatus } = {};
    try {
      return completedOrThrow(await this.followSearch(searchId, d, options, seen, true));
    } catch (err) {
      throw d.expired() ? searchTimeout(searchId, options.timeoutMs ?? 60_000, seen.last, err) : err;
    } finally {
      d.dispose();
    }
  }

  /** A page of a completed search's results (ConflictError when it is not completed). */
  async getResults(searchId: string, options: ResultsOptions = {}): Promise<SearchResults> {
    return this.get<SearchResults>(`/v1/public/searches/${id(searchId)}/results`, options, {
      limit: options.limit,
      offset: options.offset,
      include: options.include,
    });
  }

  /** Every result of a completed search, best first, fetching pages as the loop goes. */
  async *results(searchId: string, options: Omit<ResultsOptions, 'offset'> = {}): AsyncGenerator<ResultItem> {
    for (let offset = 0; ;) {
      const page = await this.getResults(searchId, { ...options, offset });
      yield* page.results;
      offset += page.results.length;
      if (!page.pagination.hasMore || page.results.length === 0) return;
    }
  }

  /**
   * Runs a search to its end: creates it (asking the server to hold the answer with `Prefer:
   * wait`), waits as waitForSearch does, and resolves with the completed search and the first
   * page of its results. Rejects with SearchFailedError, TimeoutError (after timeoutMs, default
   * 60 s) or, when options.signal aborts, its AbortError.
   */
  async search(type: QuerySearchType, query: string, options: SearchOptions = {}): Promise<SearchOutcome> {
    return this.runSearch(`/v1/public/searches/${type}`, searchBody(query, options), options);
  }

  /**
   * Runs a similar search to its end, as search() runs a query: the company's CVs most like the
   * document `documentId`, which is never among them. Resolves with the completed search (its
   * `similarTo`) and the first page of its results (`metadata.distinctiveTerms`: the CV's words
   * its keyword leg searched). Rejects before any wait with NotFoundError (no such document of the
   * company) or ConflictError (the document is not a read CV: still processing, invalid or
   * failed); then as search() does.
   */
  async similar(documentId: string, options: SimilarSearchOptions = {}): Promise<SearchOutcome> {
    return this.runSearch('/v1/public/searches/similar', similarBody(documentId, options), options);
  }

  /**
   * Runs a match search to its end, as search() runs a query: the company's CVs ranked against a
   * job posting (its text, or criteria edited), each result with `match`: its criteria score and
   * each criterion met, partly, missing or unknown, with the passages of the CV that show it.
   * Resolves with the completed search (its `criteria`) and the first page of its results.
   * A posting may also be a document uploaded with kind `job` (`{ documentId }`), or a file
   * (`{ file, fileName }`: a PDF, DOCX, DOC or text), uploaded as one and read before the search,
   * within the same `timeoutMs`; a file the server cannot read as a posting is a ValidationError.
   */
  async match(posting: MatchPosting, options: MatchSearchOptions = {}): Promise<SearchOutcome> {
    if (typeof posting === 'string' || !('file' in posting))
      return this.runSearch('/v1/public/searches/match', matchBody(posting, options), options);
    const startedAt = Date.now();
    const timeoutMs = options.timeoutMs ?? 60_000;
    const { documentId } = await this.uploadFile(posting.file, {
      fileName: posting.fileName,
      contentType: posting.contentType,
      kind: 'job',
      signal: options.signal,
      onRetry: options.onRetry,
    });
    const read = await this.waitForDocument(documentId, {
      timeoutMs: Math.max(1, timeoutMs - (Date.now() - startedAt)),
      signal: options.signal,
    });
    if (read.kind !== 'job')
      throw clientValidation('invalid_request', `${posting.fileName}: these bytes were uploaded before as a CV (document ${documentId})`);
    if (read.status !== 'completed')
      throw clientValidation('invalid_request', `${posting.fileName} could not be read as a job posting: ${read.message ?? read.status}`);
    const left = timeoutMs - (Date.now() - startedAt);
    if (left <= 0)
      throw new TimeoutError({
        message: `${posting.fileName} was read as a job posting, but no time was left to match it`,
        lastSeen: read,
      });
    return this.runSearch('/v1/public/searches/match', matchBody({ documentId }, options), { ...options, timeoutMs: left });
  }

  /** Creates a search with `Prefer: wait`, follows it to its end and reads its first page (search(), similar() and match()). */
  private async runSearch(path: string, body: SearchBody, options: SearchOptions): Promise<SearchOutcome> {
    const timeoutMs = options.timeoutMs ?? 60_000;
    const d = withDeadline(options.signal, timeoutMs);
    const seen: { last?: SearchStatus } = {};
    let searchId = '';
    try {
      const wait = preferWait(d.deadline);
      const created = await this.transport.request<SearchCreated | SearchStatus>({
        method: 'POST',
        path,
        json: body,
        headers: wait ? { Prefer: `wait=${wait}` } : {},
        timeoutMs: (wait ?? 0) * 1000 + this.requestTimeoutMs,
        notAfter: d.deadline,
        signal: d.signal,
        onRetry: options.onRetry,
      });
      searchId = created.data.searchId;
      // 200 carries the status (the search ended within the wait); 202 the creation body.
      const status = created.status === 200 ? (created.data as SearchStatus) : undefined;
      if (status) {
        seen.last = status;
        options.onStatus?.(status);
      }
      const final =
        status && isTerminalSearch(status)
          ? status
          : await this.followSearch(searchId, d, options, seen, preferenceApplied(created.headers));
      const search = completedOrThrow(final);
      const page = await this.getResults(searchId, {
        limit: options.limit,
        include: options.include,
        signal: d.signal,
        onRetry: options.onRetry,
      });
      return { search, page };
    } catch (err) {
      throw d.expired() ? searchTimeout(searchId, timeoutMs, seen.last, err) : err;
    } finally {
      d.dispose();
    }
  }

  /** The status events of a search, as they happen (SSE), reconnecting with Last-Event-ID; ends after a terminal status. */
  searchEvents(searchId: string, options: SearchEventsOptions = {}): AsyncGenerator<SearchEvent> {
    return searchEventStream(this.transport, searchId, options);
  }

  /**
   * Polls (or long polls, or follows events) until a terminal status. `waitedAlready` says the
   * previous request was a long poll the server applied, so the first poll need not be delayed.
   */
  private async followSearch(
    searchId: string,
    d: ReturnType<typeof withDeadline>,
    options: WaitForSearchOptions,
    seen: { last?: SearchStatus },
    waitedAlready: boolean,
  ): Promise<CompletedSearch | FailedSearch> {
    if (options.events) {
      try {
        for await (const event of this.searchEvents(searchId, { signal: d.signal, onRetry: options.onRetry })) {
          seen.last = event.data;
          options.onStatus?.(event.data);
          if (isTerminalSearch(event.data)) return event.data;
        }
      } catch (err) {
        // A server without the events route answers 404 (or 405), one with every stream taken 429, and a stream
        // that keeps dropping is no use: poll instead (polling reports a missing search itself).
        const fallBack =
          err instanceof NotFoundError ||
          err instanceof ConnectionError ||
          err instanceof RateLimitError ||
          (err instanceof CandidateSearchError && err.status === 405);
        if (!fallBack) throw err;
      }
    }
    return this.longPoll<SearchStatus, CompletedSearch | FailedSearch>(
      `/v1/public/searches/${id(searchId)}`,
      isTerminalSearch,
      d,
      options,
      seen,
      {
        firstDelay: waitedAlready ? 0 : pollDelay(0),
      },
    );
  }

  /**
   * Reads `path` until `done` says so: each read long-polls with `Prefer: wait` (within the
   * deadline); where the server did not apply it, the next waits the contract's growing delay
   * (and any Retry-After). Each status read goes to `seen` and `onStatus`.
   */
  /** A GET of the API, its answer's body. */
  private async get<T>(path: string, options: CallOptions, query?: RequestSpec['query']): Promise<T> {
    return (await this.transport.request<T>({ method: 'GET', path, query, signal: options.signal, onRetry: options.onRetry })).data;
  }

  private async send<T>(method: 'POST' | 'DELETE', path: string, options: CallOptions, json?: unknown): Promise<T> {
    return (await this.transport.request<T>({ method, path, json, signal: options.signal, onRetry: options.onRetry })).data;
  }

  private async longPoll<T, Done extends T>(
    path: string,
    done: (status: T) => status is Done,
    d: ReturnType<typeof withDeadline>,
    options: CallOptions & { onStatus?: (status: T) => void },
    seen: { last?: T },
    { firstDelay }: { firstDelay: number },
  ): Promise<Done> {
    let delay = firstDelay;
    for (let poll = 1; ; poll++) {
      await sleep(delay, d.signal);
      const started = Date.now();
      const wait = preferWait(d.deadline);
      const res = await this.transport.request<T>({
        method: 'GET',
        path,
        headers: wait ? { Prefer: `wait=${wait}` } : {},
        timeoutMs: (wait ?? 0) * 1000 + this.requestTimeoutMs,
        notAfter: d.deadline,
        signal: d.signal,
        onRetry: options.onRetry,
      });
      seen.last = res.data;
      options.onStatus?.(res.data);
      if (done(res.data)) return res.data;
      delay = nextDelay(res, poll, started);
    }
  }

  // Search groups

  /**
   * Runs one query as several searches in one group (default all four types, each with the same
   * filters when given), waits until none is running, and resolves with the group's results and
   * their comparison (searches that failed are in it with their error). TimeoutError after
   * timeoutMs (default 60 s).
   */
  async group(query: string, options: GroupOptions = {}): Promise<GroupResults> {
    const types = options.types ?? SEARCH_TYPES;
    if (types.length === 0) throw new TypeError('group: types must name at least one search type');
    const timeoutMs = options.timeoutMs ?? 60_000;
    const d = withDeadline(options.signal, timeoutMs);
    const searchGroupId = options.searchGroupId ?? randomId();
    const seen: { last?: GroupStatus } = {};
    try {
      // One after another: the first creates the group the others join.
      for (const type of types)
        await this.createSearch(type, query, {
          topK: options.topK,
          rerankTopN: options.rerankTopN,
          searchGroupId,
          filters: options.filters,
          facets: options.facets,
          signal: d.signal,
          onRetry: options.onRetry,
        });
      await this.followGroup(searchGroupId, d, options, seen);
      return await this.getGroupResults(searchGroupId, { signal: d.signal, onRetry: options.onRetry });
    } catch (err) {
      if (!d.expired()) throw err;
      throw new TimeoutError({
        message: `search group ${searchGroupId} still had searches running after ${timeoutMs} ms`,
        lastSeen: seen.last,
        cause: err,
      });
    } finally {
      d.dispose();
    }
  }

  /** A group and its searches' statuses. */
  async getGroup(searchGroupId: string, options: CallOptions = {}): Promise<GroupStatus> {
    return this.get<GroupStatus>(`/v1/public/searches/groups/${id(searchGroupId)}`, options);
  }

  /** Waits until no search of the group is running (the group is completed, failed or partial). */
  async waitForGroup(
    searchGroupId: string,
    options: WaitOptions & { onStatus?: (status: GroupStatus) => void } = {},
  ): Promise<GroupStatus> {
    const timeoutMs = options.timeoutMs ?? 60_000;
    const d = withDeadline(options.signal, timeoutMs);
    const seen: { last?: GroupStatus } = {};
    try {
      return await this.followGroup(searchGroupId, d, options, seen);
    } catch (err) {
      if (!d.expired()) throw err;
      throw new TimeoutError({
        message: `search group ${searchGroupId} still running after ${timeoutMs} ms`,
        lastSeen: seen.last,
        cause: err,
      });
    } finally {
      d.dispose();
    }
  }

  private async followGroup(
    searchGroupId: string,
    d: ReturnType<typeof withDeadline>,
    options: CallOptions & { onStatus?: (status: GroupStatus) => void },
    seen: { last?: GroupStatus },
  ): Promise<GroupStatus> {
    const ended = (g: GroupStatus): g is GroupStatus => g.groupStatus !== 'processing';
    return this.longPoll(`/v1/public/searches/groups/${id(searchGroupId)}`, ended, d, options, seen, {
      firstDelay: 0,
    });
  }

  /** A page of a group's searches with their results (limit 1 to 20 searches) and their comparison; 202 bodies included. */
  async getGroupResults(searchGroupId: string, options: CallOptions & { limit?: number; offset?: number } = {}): Promise<GroupResults> {
    return this.get<GroupResults>(`/v1/public/searches/groups/${id(searchGroupId)}/results`, options, {
      limit: options.limit,
      offset: options.offset,
    });
  }

  /** A page of the company's search groups, newest first. */
  async listGroups(options: ListOptions<SearchState> = {}): Promise<GroupList> {
    return this.get<GroupList>('/v1/public/searches/groups', options, {
      status: options.status,
      limit: options.limit,
      offset: options.offset,
    });
  }

  // Documents

  /** A page of the company's documents (of a status, of a kind), newest first, without their text. */
  async listDocuments(options: DocumentListOptions = {}): Promise<DocumentList> {
    return this.get<DocumentList>('/v1/public/documents', options, {
      status: options.status,
      kind: options.kind,
      name: options.name,
      sort: options.sort,
      limit: options.limit,
      offset: options.offset,
    });
  }

  /**
   * Every document (of a status), newest first, fetching pages of pageSize (default 100) as the
   * loop goes. Offsets page a list that may change meanwhile: a document uploaded during the loop
   * can shift one already seen into the next page (seen twice), never out of the list.
   */
  async *documents(options: Omit<DocumentListOptions, 'limit' | 'offset'> & { pageSize?: number } = {}): AsyncGenerator<DocumentSummary> {
    for (let offset = 0; ;) {
      const page = await this.listDocuments({
        status: options.status,
        kind: options.kind,
        name: options.name,
        sort: options.sort,
        limit: options.pageSize ?? 100,
        offset,
        signal: options.signal,
        onRetry: options.onRetry,
      });
      yield* page.data;
      offset += page.data.length;
      if (!page.pagination.hasMore || page.data.length === 0) return;
    }
  }

  /** A document, what was read from it, and its text. */
  async getDocument(documentId: string, options: CallOptions = {}): Promise<Document> {
    return this.get<Document>(`/v1/public/documents/${id(documentId)}`, options);
  }

  /** The document's file as uploaded, as a Blob typed as the upload was accepted (a PDF to render, say). */
  async getDocumentFile(documentId: string, options: CallOptions = {}): Promise<Blob> {
    const answer = await this.transport.request<Response>({
      method: 'GET',
      path: `/v1/public/documents/${id(documentId)}/file`,
      raw: true,
      signal: options.signal,
      onRetry: options.onRetry,
    });
    try {
      return await answer.data.blob();
    } finally {
      answer.release?.();
    }
  }

  /** Deletes a document, its file and its index entries (the server answers once all are gone). */
  async deleteDocument(documentId: string, options: CallOptions = {}): Promise<DocumentDeleted> {
    return (
      await this.transport.request<DocumentDeleted>({
        method: 'DELETE',
        path: `/v1/public/documents/${id(documentId)}`,
        signal: options.signal,
        onRetry: options.onRetry,
      })
    ).data;
  }

  // Shortlists

  /** A new empty shortlist; a ConflictError when the company has one of that name, or as many as it may keep. */
  async createShortlist(name: string, options: CallOptions = {}): Promise<Shortlist> {
    return this.send<Shortlist>('POST', '/v1/public/shortlists', options, { name });
  }

  /** A page of the company's shortlists, newest first, without their CVs. */
  async listShortlists(options: CallOptions & { limit?: number; offset?: number } = {}): Promise<ShortlistList> {
    return this.get<ShortlistList>('/v1/public/shortlists', options, { limit: options.limit, offset: options.offset });
  }

  /** A shortlist with its CVs and their notes, in the order they were added. */
  async getShortlist(shortlistId: string, options: CallOptions = {}): Promise<Shortlist> {
    return this.get<Shortlist>(`/v1/public/shortlists/${id(shortlistId)}`, options);
  }

  /** Deletes a shortlist; its CVs stay. */
  async deleteShortlist(shortlistId: string, options: CallOptions = {}): Promise<void> {
    await this.send('DELETE', `/v1/public/shortlists/${id(shortlistId)}`, options);
  }

  /** Puts a CV on a shortlist with a note; a CV already on it takes the new note (null: none). */
  async addToShortlist(
    shortlistId: string,
    documentId: string,
    note: string | null = null,
    options: CallOptions = {},
  ): Promise<ShortlistItem> {
    return this.send<ShortlistItem>('POST', `/v1/public/shortlists/${id(shortlistId)}/items`, options, { documentId, note });
  }

  /** Takes a CV off a shortlist; the CV stays. */
  async removeFromShortlist(shortlistId: string, documentId: string, options: CallOptions = {}): Promise<void> {
    await this.send('DELETE', `/v1/public/shortlists/${id(shortlistId)}/items/${id(documentId)}`, options);
  }

  /** The shortlist as CSV text: a header row, then a row a CV with its contact, profile and note. */
  async exportShortlist(shortlistId: string, options: CallOptions = {}): Promise<string> {
    return this.get<string>(`/v1/public/shortlists/${id(shortlistId)}/export`, options, { format: 'csv' });
  }

  /**
   * The shortlist's CVs as uploaded, in a ZIP with its CSV first (`shortlist.csv`), as a stream
   * of the bytes as they arrive: a long list is never held whole in memory.
   */
  async exportShortlistFiles(shortlistId: string, options: CallOptions = {}): Promise<ReadableStream<Uint8Array>> {
    const answer = await this.transport.request<Response>({
      method: 'GET',
      path: `/v1/public/shortlists/${id(shortlistId)}/export`,
      query: { format: 'zip' },
      raw: true,
      signal: options.signal,
      onRetry: options.onRetry,
    });
    const body = answer.data.body;
    if (!body) throw new Error('the ZIP export answered without a body');
    const reader = (body as ReadableStream<Uint8Array>).getReader();
    // Unhooked from the caller's signal once the stream is read to its end, fails or is cancelled.
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            answer.release?.();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          answer.release?.();
          controller.error(error);
        }
      },
      async cancel(reason) {
        answer.release?.();
        await reader.cancel(reason);
      },
    });
  }

  // Saved searches

  /**
   * Saves a search by name: the service runs it again whenever CVs are read (no search quota is
   * spent) and keeps those that enter its first page (`top_k`, default 10) as new matches. A
   * ConflictError when the company has one of that name, or as many as it may keep.
   */
  async createSavedSearch(body: SavedSearchBody, options: CallOptions = {}): Promise<SavedSearch> {
    return this.send<SavedSearch>('POST', '/v1/public/saved-searches', options, body);
  }

  /** A page of the company's saved searches, newest first, each with how many new matches it has. */
  async listSavedSearches(options: CallOptions & { limit?: number; offset?: number } = {}): Promise<SavedSearchList> {
    return this.get<SavedSearchList>('/v1/public/saved-searches', options, { limit: options.limit, offset: options.offset });
  }

  async getSavedSearch(savedSearchId: string, options: CallOptions = {}): Promise<SavedSearch> {
    return this.get<SavedSearch>(`/v1/public/saved-searches/${id(savedSearchId)}`, options);
  }

  /** Deletes a saved search and its new matches; the CVs stay. */
  async deleteSavedSearch(savedSearchId: string, options: CallOptions = {}): Promise<void> {
    await this.send('DELETE', `/v1/public/saved-searches/${id(savedSearchId)}`, options);
  }

  /**
   * The CVs read since the search was saved that entered its first page, the newest finding first;
   * with `since`, those found after it (pass the newest `foundAt` seen, and none is missed).
   */
  async savedSearchNewMatches(
    savedSearchId: string,
    options: CallOptions & { since?: Date | string; limit?: number; offset?: number } = {},
  ): Promise<SavedSearchNewMatches> {
    const since = options.since instanceof Date ? options.since.toISOString() : options.since;
    return this.get<SavedSearchNewMatches>(`/v1/public/saved-searches/${id(savedSearchId)}/new`, options, {
      since,
      limit: options.limit,
      offset: options.offset,
    });
  }

  /**
   * Waits until a document is completed, failed or invalid and resolves with it (whichever of
   * the three: `message` or `error` says why it is not searchable). TimeoutError after timeoutMs
   * (default 120 s).
   */
  async waitForDocument(documentId: string, options: WaitOptions & { onStatus?: (document: Document) => void } = {}): Promise<Document> {
    const timeoutMs = options.timeoutMs ?? 120_000;
    const d = withDeadline(options.signal, timeoutMs);
    let last: Document | undefined;
    try {
      for (let poll = 0; ; poll++) {
        const started = Date.now();
        const res = await this.transport.request<Document>({
          method: 'GET',
          path: `/v1/public/documents/${id(documentId)}`,
          signal: d.signal,
          onRetry: options.onRetry,
          notAfter: d.deadline,
        });
        last = res.data;
        options.onStatus?.(res.data);
        if (isTerminalDocument(res.data.status)) return res.data;
        await sleep(nextDelay(res, poll, started), d.signal);
      }
    } catch (err) {
      if (!d.expired()) throw err;
      throw new TimeoutError({
        message: `document ${documentId} still ${last?.status ?? 'unseen'} after ${timeoutMs} ms`,
        lastSeen: last,
        cause: err,
      });
    } finally {
      d.dispose();
    }
  }

  /**
   * Where each of these documents stands now: its status, or `deleted` (the API answers 404: deleted,
   * or never this company's). One round of what waitForDocuments repeats, for a caller that polls
   * on its own (a set of ids that grows as uploads are answered): it lists the company's
   * `uploading` and `pending` documents (a few requests however many ids) and reads only the ids
   * that are in neither list, so asking again and again about hundreds of CVs stays within the
   * read limit. A final document (completed, failed, invalid) comes with what was read of it.
   * Resolves with a map in the order of ids.
   */
  async documentStatuses(documentIds: readonly string[], options: CallOptions = {}): Promise<Map<string, DocumentState>> {
    const asked = new Set(documentIds);
    const inFlight = new Map<string, DocumentStatus>();
    for (const status of ['uploading', 'pending'] as const)
      for await (const doc of this.documents({ status, signal: options.signal, onRetry: options.onRetry }))
        if (asked.has(doc.documentId)) inFlight.set(doc.documentId, status);
    const states = new Map<string, DocumentState>();
    for (const documentId of asked) {
      const listed = inFlight.get(documentId);
      if (listed) {
        states.set(documentId, { documentId, status: listed });
        continue;
      }
      try {
        const document = await this.getDocument(documentId, { signal: options.signal, onRetry: options.onRetry });
        const reason = isTerminalDocument(document.status) && document.status !== 'completed' ? whyNotSearchable(document) : undefined;
        states.set(documentId, { documentId, status: document.status, document, ...(reason ? { reason } : {}) });
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
        states.set(documentId, { documentId, status: 'deleted' });
      }
    }
    return states;
  }

  /**
   * Waits until every document is completed, failed or invalid; resolves with them in the order
   * of ids. Each round is a documentStatuses(): a few list requests however many ids, and one read
   * per document as it becomes final, so following a directory of CVs stays within the read limit.
   * A document deleted meanwhile rejects with NotFoundError, unless onDeleted is given: then it is
   * reported there and left out of the result. TimeoutError after timeoutMs (default 300 s), whose
   * `lastSeen` holds the documents that did finish.
   */
  async waitForDocuments(documentIds: readonly string[], options: WaitForDocumentsOptions = {}): Promise<Document[]> {
    const timeoutMs = options.timeoutMs ?? 300_000;
    const d = withDeadline(options.signal, timeoutMs);
    const finals = new Map<string, Document>();
    const pending = new Set(documentIds);
    try {
      for (let round = 0; pending.size > 0; round++) {
        const states = await this.documentStatuses([...pending], { signal: d.signal, onRetry: options.onRetry });
        for (const state of states.values()) {
          if (state.status === 'deleted') {
            if (!options.onDeleted)
              throw new NotFoundError({
                status: 404,
                error: 'not_found',
                message: `document ${state.documentId} not found: deleted while waited for, or not this company's`,
                retryable: false,
              });
            pending.delete(state.documentId);
            options.onDeleted(state.documentId);
          } else if (state.document && isTerminalDocument(state.status)) {
            finals.set(state.documentId, state.document);
            pending.delete(state.documentId);
            options.onDocument?.(state.document);
          }
        }
        if (pending.size > 0) await sleep(pollDelay(round), d.signal);
      }
      return documentIds.flatMap((documentId) => finals.get(documentId) ?? []);
    } catch (err) {
      if (!d.expired()) throw err;
      throw new TimeoutError({
        message: `${pending.size} of ${new Set(documentIds).size} documents still processing after ${timeoutMs} ms`,
        lastSeen: [...finals.values()],
        cause: err,
      });
    } finally {
      d.dispose();
    }
  }

  /**
   * Uploads one CV file. Up to directUploadMaxBytes (5 MiB) it goes as upload-direct's body: one
   * request, one count against the upload limits. Larger files (to the API's 10 MB) go through a
   * presigned URL: the bytes go to storage (S3 in a cluster) rather than through the gateway, at
   * the cost of two upload requests. Resolves with the document (`duplicate: true` when the same
   * bytes were uploaded before). Checked before sending: the type (PDF, DOCX, DOC, text), empty
   * files and the 10 MB limit (ValidationError).
   */
  async uploadFile(data: Uint8Array | ArrayBuffer | Blob, options: UploadOptions): Promise<UploadAccepted> {
    const body = data instanceof ArrayBuffer ? new Uint8Array(data) : data;
    const totalBytes = body instanceof Uint8Array ? body.byteLength : body.size;
    const contentType = options.contentType ?? ((body instanceof Uint8Array ? '' : body.type) || contentTypeOf(options.fileName));
    if (!contentType) throw clientValidation('unsupported_media_type', `${options.fileName}: not a PDF, DOCX, DOC or text file`);
    if (totalBytes === 0) throw clientValidation('invalid_request', `${options.fileName} is empty`);
    if (totalBytes > MAX_UPLOAD_BYTES)
      throw clientValidation('payload_too_large', `${options.fileName} has ${totalBytes} bytes; the API takes at most ${MAX_UPLOAD_BYTES}`);
    const documentName = options.documentName ?? (options.fileName.replace(/\.[^.]+$/, '') || options.fileName);
    const documentDate = options.documentDate ?? currentMonth();
    const route =
      options.route === 'direct' || options.route === 'presigned'
        ? options.route
        : totalBytes <= this.directUploadMaxBytes
          ? 'direct'
          : 'presigned';
    const progress = (phase: UploadProgress['phase'], bytesSent: number) => options.onProgress?.({ route, phase, bytesSent, totalBytes });
    // A file body may take a while on a slow link: its deadline grows with its size (at least 100 KB/s).
    const timeoutMs = this.requestTimeoutMs + Math.ceil(totalBytes / 100);

    progress('uploading', 0);
    // Node's fetch sends a stream with its Content-Length, so the bytes can be counted as they go; browsers
    // need HTTP/2 for a streamed body and forbid Content-Length, so there the bytes go whole.
    const streamed = options.onProgress && body instanceof Uint8Array && isNode();
    const onBodyProgress = streamed ? (sent: number) => sent < totalBytes && progress('uploading', sent) : undefined;
    let accepted: UploadAccepted;
    if (route === 'direct') {
      accepted = (
        await this.transport.request<UploadAccepted>({
          method: 'POST',
          path: '/v1/public/documents/upload-direct',
          query: { documentName, documentDate, documentType: options.documentType, kind: options.kind, fileName: options.fileName },
          headers: { 'Content-Type': contentType },
          body,
          onBodyProgress,
          timeoutMs,
          signal: options.signal,
          onRetry: options.onRetry,
        })
      ).data;
    } else {
      const upload = (
        await this.transport.request<PresignedUpload>({
          method: 'POST',
          path: '/v1/public/documents/upload-presigned',
          json: { fileName: options.fileName, contentType, fileSize: totalBytes },
          signal: options.signal,
          onRetry: options.onRetry,
        })
      ).data;
      await this.transport.request({
        method: 'PUT',
        path: upload.presignedUrl,
        headers: { ...upload.headers },
        body,
        onBodyProgress,
        auth: false,
        timeoutMs,
        signal: options.signal,
        onRetry: options.onRetry,
      });
      progress('finalizing', totalBytes);
      accepted = (
        await this.transport.request<UploadAccepted>({
          method: 'POST',
          path: '/v1/public/documents/upload-presigned-finalize',
          json: {
            uploadId: upload.uploadId,
            documentName,
            documentDate,
            ...(options.documentType ? { documentType: options.documentType } : {}),
            ...(options.kind ? { kind: options.kind } : {}),
          },
          signal: options.signal,
          onRetry: options.onRetry,
        })
      ).data;
    }
    progress('done', totalBytes);
    return accepted;
  }

  /** Has the server fetch a CV from a public http(s) URL (10 MB, 15 s, 3 redirects at most). */
  async uploadFromUrl(url: string, options: UploadFromUrlOptions): Promise<UploadAccepted> {
    const res = await this.transport.request<UploadAccepted>({
      method: 'POST',
      path: '/v1/public/documents/upload-from-url',
      json: {
        url,
        documentName: options.documentName,
        documentDate: options.documentDate ?? currentMonth(),
        ...(options.documentType ? { documentType: options.documentType } : {}),
        ...(options.kind ? { kind: options.kind } : {}),
        ...(options.fileName ? { fileName: options.fileName } : {}),
      },
      // The server fetches the file before answering (up to 15 s).
      timeoutMs: this.requestTimeoutMs + 15_000,
      signal: options.signal,
      onRetry: options.onRetry,
    });
    return res.data;
  }
}

function searchBody(query: string, options: CreateSearchOptions): CreateSearchBody {
  return {
    query,
    ...sharedSearchFields(options),
    ...(options.rerankTopN !== undefined ? { rerank_top_n: options.rerankTopN } : {}),
  };
}

/** A similar search's body: the fields it shares with a query search, never rerank_top_n (a 400), whatever else options carry. */
function similarBody(documentId: string, options: CreateSimilarSearchOptions): SimilarSearchBody {
  return { documentId, ...sharedSearchFields(options) };
}

/** A match search's body: the posting's text or its criteria, strict when asked, and the shared fields. */
function matchBody(posting: string | JobCriteria | PostingDocument, options: CreateMatchSearchOptions): MatchSearchBody {
  return {
    ...(typeof posting === 'string'
      ? { jobDescription: posting }
      : 'documentId' in posting
        ? { jobDescriptionDocumentId: posting.documentId }
        : { criteria: posting }),
    ...(options.strict !== undefined ? { strict: options.strict } : {}),
    ...sharedSearchFields(options),
  };
}

/** Any search type's creation body. */
type SearchBody = CreateSearchBody | SimilarSearchBody | MatchSearchBody;

/** The body fields every search type takes, those the caller gave. */
function sharedSearchFields(options: CreateSimilarSearchOptions): Omit<SimilarSearchBody, 'documentId'> {
  return {
    ...(options.topK !== undefined ? { top_k: options.topK } : {}),
    ...(options.searchGroupId !== undefined ? { searchGroupId: options.searchGroupId } : {}),
    ...(options.filters !== undefined ? { filters: options.filters } : {}),
    ...(options.facets !== undefined ? { facets: [...options.facets] } : {}),
  };
}

/** The `Prefer: wait` seconds that fit before the deadline (at most 30), or undefined when none do. */
function preferWait(deadline: number): number | undefined {
  if (deadline === Infinity) return PREFER_MAX_SECONDS;
  const seconds = Math.floor((deadline - Date.now() - PREFER_MARGIN_MS) / 1000);
  return seconds >= 1 ? Math.min(PREFER_MAX_SECONDS, seconds) : undefined;
}

/**
 * The pause before the next poll: after an applied long poll, only what keeps polls a second
 * apart; otherwise the contract's growing delay, or Retry-After when the server asks for longer.
 */
function nextDelay(res: ApiResponse<unknown>, poll: number, started: number): number {
  if (preferenceApplied(res.headers)) return Math.max(0, 1_000 - (Date.now() - started));
  return Math.max(pollDelay(poll), (retryAfterOf(res.headers) ?? 0) * 1000);
}

/** Why a failed or invalid document is not searchable, in the API's words. */
export function whyNotSearchable(document: Pick<Document, 'status' | 'message' | 'error'>): string {
  return document.error?.message ?? document.message ?? document.status;
}

function completedOrThrow(status: CompletedSearch | FailedSearch): CompletedSearch {
  if (status.status === 'failed') throw new SearchFailedError(status);
  return status;
}

function searchTimeout(searchId: string, timeoutMs: number, last: SearchStatus | undefined, cause: unknown): TimeoutError {
  const what = searchId ? `search ${searchId} still ${last?.status ?? 'unseen'}` : 'the search was not created';
  return new TimeoutError({ message: `${what} after ${timeoutMs} ms`, lastSeen: last, cause });
}
