import type { SearchFilters } from '@candidate-search/client';
import type { api } from '@cs/contracts';
import { ApiError, type ApiClient } from './api';
import { byId, el, replaceChildren, type Child } from './dom';
import type { FilterPanel } from './filter-panel';
import { FACETS } from './filter-state';
import { CandidateList } from './candidate-list';
import { completedSentence, resultCards } from './result-card';
import { followSearch, startSearch } from './search-run';
import type { SimilarPanel } from './similar-panel';

/** The query search types the comparison columns run. */
type SearchType = Exclude<api.SearchCreated['searchType'], 'similar' | 'match'>;

export const SEARCH_TYPES: readonly SearchType[] = ['dense', 'sparse', 'hybrid', 'builtin-rerank'];
const DESCRIPTION: Record<SearchType, string> = {
  dense: 'meaning (word vectors)',
  sparse: 'keywords (BM25)',
  hybrid: 'both, fused and reranked',
  'builtin-rerank': 'dense, rescored by our reranker',
};

interface Column {
  type: SearchType;
  status: HTMLParagraphElement;
  list: HTMLOListElement;
  searchId: string | null;
  /** Whether its results are listed (it completed and they were read). */
  listed: boolean;
}

/** What one run sends with every search of its group, and whether its counts were shown yet. */
interface Run {
  query: string;
  count: number;
  filters: SearchFilters | null;
  signal: AbortSignal;
  facetsShown: boolean;
}

/**
 * One query through the four search types as one search group, side by side: each column
 * follows its search to the end and lists its results; the group's comparison then says which
 * CVs several types found. Pointing at (or focusing) a CV marks it in every column. Every search
 * of a group carries the filter panel's filters and asks for the facets the panel shows. A card's
 * "More like this" hands its CV to the similar panel.
 */
export class SearchPanel {
  private readonly form = byId('search-form', HTMLFormElement);
  private readonly query = byId('query', HTMLInputElement);
  private readonly count = byId('result-count', HTMLInputElement);
  private readonly button = byId('search-button', HTMLButtonElement);
  private readonly error = byId('search-error', HTMLParagraphElement);
  private readonly status = byId('search-status', HTMLParagraphElement);
  private readonly columnsBox = byId('columns', HTMLDivElement);
  private readonly overlap = byId('overlap', HTMLElement);
  private readonly overlapBody = byId('overlap-body', HTMLDivElement);
  private readonly candidates: CandidateList;
  private abort = new AbortController();
  private columns: Column[] = [];

  constructor(
    private readonly client: () => ApiClient | null,
    private readonly filters: FilterPanel,
    private readonly similar: SimilarPanel,
  ) {
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.run();
    });
    filters.onApply(() => void this.run());
    const saveForm = byId('save-search-form', HTMLFormElement);
    saveForm.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.save();
    });
    similar.listenIn(this.columnsBox);
    this.candidates = new CandidateList(client, similar);
    // Delegated, so columns filled later need nothing more.
    for (const name of ['mouseover', 'focusin'] as const)
      this.columnsBox.addEventListener(name, (event) =>
        this.link(event.target instanceof Element ? event.target.closest('.result') : null),
      );
    this.columnsBox.addEventListener('mouseleave', () => this.link(null));
    this.columnsBox.addEventListener('focusout', (event) => {
      if (!(event.relatedTarget instanceof Node) || !this.columnsBox.contains(event.relatedTarget)) this.link(null);
    });
  }

  stop(): void {
    this.abort.abort(new Error('stopped'));
    this.button.disabled = false;
    this.similar.stop();
  }

  private async run(): Promise<void> {
    const client = this.client();
    if (!client) return;
    const query = this.query.value.trim();
    const count = Number(this.count.value);
    this.error.textContent = '';
    if (query.length < 1 || query.length > 500) {
      this.error.textContent = 'Type a query of 1 to 500 characters.';
      this.query.setAttribute('aria-invalid', 'true');
      this.query.focus();
      return;
    }
    if (!Number.isInteger(count) || count < 1 || count > 100) {
      this.error.textContent = 'Results per type must be a whole number from 1 to 100.';
      this.count.setAttribute('aria-invalid', 'true');
      this.count.focus();
      return;
    }
    this.query.removeAttribute('aria-invalid');
    this.count.removeAttribute('aria-invalid');
    this.abort.abort(new Error('replaced by a new search'));
    const abort = (this.abort = new AbortController());
    const run: Run = { query, count, filters: this.filters.current(), signal: abort.signal, facetsShown: false };
    this.filters.searching();
    this.button.disabled = true;
    this.overlap.hidden = true;
    const view = this.form.querySelector<HTMLInputElement>('input[name="search-view"]:checked')?.value;
    if (view !== 'compare') {
      await this.runList(client, run, abort);
      return;
    }
    this.candidates.hide();
    this.columns = SEARCH_TYPES.map((type) => this.column(type));
    replaceChildren(
      this.columnsBox,
      this.columns.map((c) => c.list.parentElement),
    );
    this.status.textContent = `Starting four searches for “${query}”${run.filters ? ' with filters' : ''}…`;
    try {
      // The first search's answer carries the group the server assigned; the other three join it.
      let groupId: string | null = null;
      const waits: Promise<void>[] = [];
      let filtersRefused = false;
      for (const column of this.columns) {
        if (filtersRefused) {
          // The same filters go to every type: the service would refuse them again.
          column.status.textContent = 'not started: the filters were refused';
          continue;
        }
        const created = await this.create(client, column, run, groupId);
        if (created === 'filters refused') filtersRefused = true;
        if (!created || created === 'filters refused') continue;
        groupId = created.searchGroupId;
        waits.push(this.follow(client, column, run));
      }
      await Promise.all(waits);
      if (!groupId) {
        this.status.textContent = filtersRefused
          ? 'The service refused the filters, so nothing was searched: its message is beside the filters.'
          : 'No search could be started.';
        return;
      }
      const group = await client.get<api.GroupResults>(`/v1/public/searches/groups/${encodeURIComponent(groupId)}/results`, {
        signal: abort.signal,
      });
      this.showOverlap(group.body);
      const done = this.columns.filter((c) => c.listed).length;
      this.status.textContent = `Done: ${done} of 4 searches listed. ${this.overlapSentence(group.body.comparison)}`;
    } catch (error) {
      if (abort.signal.aborted) return;
      this.error.textContent = error instanceof Error ? error.message : String(error);
      this.status.textContent = 'The search stopped.';
    } finally {
      if (!abort.signal.aborted) this.button.disabled = false;
    }
  }

  /**
   * Saves the query, the filter panel's filters and the number of results as a hybrid saved
   * search, which the service runs again as CVs are read (the Saved searches view lists them).
   */
  private async save(): Promise<void> {
    const client = this.client();
    const nameInput = byId('save-search-name', HTMLInputElement);
    const said = byId('save-search-status', HTMLSpanElement);
    if (!client) return;
    const name = nameInput.value.trim();
    const query = this.query.value.trim();
    if (!query) {
      said.textContent = 'Type the query to save first.';
      this.query.focus();
      return;
    }
    if (!name) {
      said.textContent = 'Name the saved search first.';
      nameInput.focus();
      return;
    }
    const filters = this.filters.current();
    const count = Number(this.count.value);
    try {
      const { body } = await client.post<api.SavedSearch>('/v1/public/saved-searches', {
        name,
        searchType: 'hybrid',
        query,
        ...(filters ? { filters } : {}),
        ...(Number.isInteger(count) && count >= 1 && count <= 100 ? { top_k: count } : {}),
      });
      nameInput.value = '';
      said.replaceChildren(`Saved as “${body.name}”: `, el('a', { href: `#saved/${body.savedSearchId}` }, ['see what is new']), '.');
    } catch (error) {
      said.textContent = `Not saved: ${error instanceof ApiError ? `${error.message} (${error.status})` : String(error)}`;
    }
  }

  /**
   * One hybrid search (one search of the quota), its results as one ranked list of candidates.
   * The comparison's columns are emptied, so that the page shows one answer at a time.
   */
  private async runList(client: ApiClient, run: Run, abort: AbortController): Promise<void> {
    replaceChildren(this.columnsBox, []);
    this.candidates.clear();
    this.status.textContent = `Searching for “${run.query}”${run.filters ? ' with filters' : ''}…`;
    const say = (text: string) => (this.status.textContent = `Hybrid search ${text}`);
    try {
      const body = {
        query: run.query,
        top_k: run.count,
        rerank_top_n: run.count,
        facets: FACETS,
        ...(run.filters ? { filters: run.filters } : {}),
      };
      const created = await startSearch(client, '/v1/public/searches/hybrid', body, this.filters, { signal: abort.signal, say });
      if (!created || created === 'filters refused') return;
      const results = await followSearch(client, created, { signal: abort.signal, say });
      if (!results) return;
      if (results.facets) this.filters.showFacets(results.facets, run.filters);
      this.candidates.show(results, run.query);
      const found = results.results.length;
      this.status.textContent = `${found} candidate${found === 1 ? '' : 's'} for “${run.query}”, best first.`;
    } catch (error) {
      if (abort.signal.aborted) return;
      this.error.textContent = error instanceof Error ? error.message : String(error);
      this.status.textContent = 'The search stopped.';
    } finally {
      if (!abort.signal.aborted) this.button.disabled = false;
    }
  }

  private column(type: SearchType): Column {
    const titleId = `column-${type}`;
    const status = el('p', { class: 'column-status', role: 'status', 'aria-live': 'polite' }, ['waiting to start']);
    const list = el('ol', { class: 'results', 'aria-labelledby': titleId });
    el('section', { class: `column column-${type}`, 'aria-labelledby': titleId, 'data-type': type }, [
      el('h3', { id: titleId }, [type]),
      el('p', { class: 'hint' }, [DESCRIPTION[type]]),
      status,
      list,
    ]);
    return { type, status, list, searchId: null, listed: false };
  }

  private async create(
    client: ApiClient,
    column: Column,
    { query, count, filters, signal }: Run,
    groupId: string | null,
  ): Promise<api.SearchCreated | 'filters refused' | null> {
    // top_k is what dense and sparse return; the rerankers return rerank_top_n from at least as many candidates.
    const reranks = column.type === 'hybrid' || column.type === 'builtin-rerank';
    const body = {
      query,
      top_k: count,
      ...(reranks ? { rerank_top_n: count } : {}),
      ...(groupId ? { searchGroupId: groupId } : {}),
      ...(filters ? { filters } : {}),
      facets: FACETS,
    };
    const created = await startSearch(client, `/v1/public/searches/${column.type}`, body, this.filters, {
      signal,
      say: (text) => (column.status.textContent = text),
    });
    if (created && created !== 'filters refused') column.searchId = created.searchId;
    return created;
  }

  private async follow(client: ApiClient, column: Column, run: Run): Promise<void> {
    const signal = run.signal;
    try {
      const results = await followSearch(
        client,
        { searchId: column.searchId ?? '', searchType: column.type },
        { signal, say: (text) => (column.status.textContent = text) },
      );
      if (!results) return;
      this.fill(column, results);
      column.listed = true;
      // `passing` counts the CVs that pass the group's filters, the same for each of its searches: the first to complete gives them.
      if (results.facets && !run.facetsShown) {
        run.facetsShown = true;
        this.filters.showFacets(results.facets, run.filters);
      }
    } catch (error) {
      if (signal.aborted) throw error;
      column.status.textContent = `stopped: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  private fill(column: Column, results: api.SearchResults): void {
    column.status.textContent = completedSentence(results);
    replaceChildren(column.list, resultCards(results, 'No CV matched.'));
  }

  /** Marks the CV under the pointer or focus in every column. */
  private link(card: Element | null): void {
    const id = card instanceof HTMLElement ? card.dataset.documentId : undefined;
    for (const result of this.columnsBox.querySelectorAll<HTMLElement>('.result'))
      result.classList.toggle('linked', id !== undefined && result.dataset.documentId === id);
  }

  private showOverlap(group: api.GroupResults): void {
    const typeOf = new Map(group.searches.map((s) => [s.searchId, s.searchType]));
    const nameOf = new Map<string, string>();
    for (const search of group.searches) for (const item of search.results) nameOf.set(item.documentId, item.documentName ?? 'deleted CV');
    const comparison = group.comparison;
    // Each card says where else its CV was found, so the overlap does not rest on colour or pointing alone.
    const ranksOf = new Map(comparison.documents.map((d) => [d.documentId, d.ranks]));
    for (const column of this.columns) {
      for (const card of column.list.querySelectorAll<HTMLElement>('.result')) {
        const ranks = ranksOf.get(card.dataset.documentId ?? '') ?? {};
        const elsewhere = Object.entries(ranks)
          .filter(([searchId, rank]) => rank !== null && searchId !== column.searchId)
          .map(([searchId, rank]) => `${typeOf.get(searchId) ?? 'another search'} #${rank}`);
        const foundBy = card.querySelector('.found-by');
        if (foundBy)
          replaceChildren(foundBy, [elsewhere.length ? `Also found by ${elsewhere.join(', ')}` : `Only ${column.type} found it`]);
        card.classList.toggle('shared', elsewhere.length > 0);
      }
    }
    const several = comparison.documents.filter((d) => Object.values(d.ranks).filter((r) => r !== null).length > 1);
    const compared = new Set(comparison.pairs.flatMap((p) => p.searchIds)).size;
    const rows = comparison.pairs.map((pair) =>
      el('tr', {}, [
        el('th', { scope: 'row' }, [`${pair.searchTypes[0]} and ${pair.searchTypes[1]}`]),
        el('td', {}, [pair.overlap]),
        el('td', {}, [pair.jaccard.toFixed(2)]),
      ]),
    );
    const everyone: Child[] = comparison.foundByAll.length
      ? [
          el(
            'ul',
            { class: 'found-by-all' },
            comparison.foundByAll.map((id) => el('li', {}, [nameOf.get(id) ?? id])),
          ),
        ]
      : [];
    replaceChildren(this.overlapBody, [
      el('p', { class: 'overlap-summary' }, [
        `${comparison.foundByAll.length} CV${comparison.foundByAll.length === 1 ? '' : 's'} found by all ${compared || 'the'} completed searches; `,
        `${several.length} found by more than one.`,
      ]),
      ...everyone,
      rows.length
        ? el('table', { class: 'pairs' }, [
            el('caption', {}, ['CVs two searches both found']),
            el('thead', {}, [
              el('tr', {}, [
                el('th', { scope: 'col' }, ['Pair']),
                el('th', { scope: 'col' }, ['Both found']),
                el('th', { scope: 'col' }, ['Jaccard']),
              ]),
            ]),
            el('tbody', {}, rows),
          ])
        : null,
    ]);
    this.overlap.hidden = false;
  }

  private overlapSentence(comparison: api.GroupResults['comparison']): string {
    return `${comparison.foundByAll.length} CV${comparison.foundByAll.length === 1 ? '' : 's'} found by every search.`;
  }
}
