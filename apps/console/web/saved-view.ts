import type { api } from '@cs/contracts';
import { ApiError, type ApiClient } from './api';
import { byId, el, replaceChildren } from './dom';
import { placeHash, sinceWords, type Views } from './views';

const SEEN_KEY = 'candidate-search-console.saved-search-seen';
const message = (error: unknown) => (error instanceof ApiError ? `${error.message} (${error.status})` : String(error));

/**
 * The newest finding (`foundAt`, the service's time) this browser has listed of each saved
 * search: what "new since" counts from, whatever this machine's clock says. Ids and times only,
 * kept in local storage so that "3 new since Monday" holds across visits (the key itself stays in
 * the tab's session storage).
 */
const seen = {
  all(): Record<string, string> {
    try {
      return JSON.parse(localStorage.getItem(SEEN_KEY) ?? '{}') as Record<string, string>;
    } catch {
      return {};
    }
  },
  get(id: string): Date | null {
    const at = this.all()[id];
    return at ? new Date(at) : null;
  },
  mark(id: string, at: Date): void {
    try {
      localStorage.setItem(SEEN_KEY, JSON.stringify({ ...this.all(), [id]: at.toISOString() }));
    } catch {
      // Storage refused (private mode): "new since" counts from the saved search's creation.
    }
  },
};

/** The company's saved searches, each with the candidates new since this browser last looked, and their lists. */
export class SavedView {
  private readonly error = byId('saved-error', HTMLParagraphElement);
  private readonly status = byId('saved-status', HTMLParagraphElement);
  private readonly list = byId('saved-list', HTMLUListElement);
  private readonly detail = byId('saved-detail', HTMLElement);
  private readonly title = byId('saved-detail-title', HTMLHeadingElement);
  private readonly query = byId('saved-query', HTMLParagraphElement);
  private readonly matches = byId('saved-matches', HTMLOListElement);
  private open: api.SavedSearch | null = null;

  constructor(
    private readonly client: () => ApiClient | null,
    private readonly views: Views,
  ) {
    views.on('saved', (id) => void this.show(id));
    byId('saved-delete', HTMLButtonElement).addEventListener('click', () => void this.delete());
  }

  private async show(id: string | null): Promise<void> {
    const client = this.client();
    if (!client) return;
    this.error.textContent = '';
    try {
      const { body } = await client.get<api.SavedSearchList>('/v1/public/saved-searches?limit=100');
      // One count failing (a read limit reached) leaves its line without a count, not the list empty.
      const counts = (await Promise.allSettled(body.data.map((s) => this.newSince(client, s)))).map((c) =>
        c.status === 'fulfilled' ? c.value : null,
      );
      replaceChildren(
        this.list,
        body.data.length
          ? body.data.map((s, i) =>
              el('li', {}, [
                el(
                  'a',
                  { href: placeHash({ view: 'saved', id: s.savedSearchId }), 'aria-current': s.savedSearchId === id ? 'true' : null },
                  [s.name],
                ),
                ' · ',
                counts[i]
                  ? el('span', { class: counts[i].count > 0 ? 'new-count' : 'hint' }, [
                      `${counts[i].count} new since ${sinceWords(counts[i].since)}`,
                    ])
                  : el('span', { class: 'hint' }, [`${s.newMatchesCount} new in all`]),
              ]),
            )
          : [el('li', { class: 'empty' }, ['No saved search yet: search, then save it under the search form.'])],
      );
      if (id) await this.openSearch(client, id);
      else this.detail.hidden = true;
    } catch (error) {
      this.error.textContent = `The saved searches could not be read: ${message(error)}`;
    }
  }

  /** How many candidates were found since the newest this browser listed (since it was saved, before). */
  private async newSince(client: ApiClient, saved: api.SavedSearch): Promise<{ count: number; since: Date }> {
    const since = seen.get(saved.savedSearchId) ?? new Date(saved.createdAt);
    if (saved.lastNewMatchAt === null || new Date(saved.lastNewMatchAt) <= since) return { count: 0, since };
    const { body } = await client.get<api.SavedSearchNewMatches>(
      `/v1/public/saved-searches/${saved.savedSearchId}/new?limit=1&since=${encodeURIComponent(since.toISOString())}`,
    );
    return { count: body.pagination.total, since };
  }

  private async openSearch(client: ApiClient, id: string): Promise<void> {
    let saved: api.SavedSearch;
    try {
      saved = (await client.get<api.SavedSearch>(`/v1/public/saved-searches/${encodeURIComponent(id)}`)).body;
    } catch (error) {
      this.detail.hidden = true;
      this.error.textContent =
        error instanceof ApiError && error.status === 404 ? 'This saved search does not exist (any more) in your company.' : message(error);
      return;
    }
    this.open = saved;
    // Never listed here: everything it found is new.
    const since = seen.get(saved.savedSearchId) ?? new Date(saved.createdAt);
    const { body } = await client.get<api.SavedSearchNewMatches>(`/v1/public/saved-searches/${saved.savedSearchId}/new?limit=100`);
    this.title.textContent = saved.name;
    this.query.textContent = `${saved.searchType} search for “${saved.query}”, first ${saved.top_k} results${saved.filters ? ', with filters' : ''}.`;
    const unseen = (m: api.SavedSearchMatch) => new Date(m.foundAt) > since;
    replaceChildren(
      this.matches,
      body.data.length
        ? body.data.map((m) =>
            el('li', { class: unseen(m) ? 'saved-match unseen' : 'saved-match' }, [
              el('span', { class: 'candidate-name' }, [m.documentName]),
              ` · #${m.rank} when found · read ${new Date(m.arrivedAt).toLocaleString('en')}`,
              unseen(m) ? el('span', { class: 'new-count' }, [' · new']) : null,
            ]),
          )
        : [el('li', { class: 'empty' }, ['No new candidate yet: CVs read from now on that rank in its first page will show here.'])],
    );
    this.detail.hidden = false;
    const newest = body.data[0]?.foundAt;
    if (newest && new Date(newest) > since) seen.mark(saved.savedSearchId, new Date(newest));
  }

  private async delete(): Promise<void> {
    const client = this.client();
    if (!client || !this.open) return;
    if (!window.confirm(`Delete the saved search “${this.open.name}”? Its new candidates' CVs stay.`)) return;
    try {
      await client.request('DELETE', `/v1/public/saved-searches/${this.open.savedSearchId}`);
      this.status.textContent = `Saved search “${this.open.name}” deleted.`;
      this.open = null;
      this.views.go({ view: 'saved', id: null });
    } catch (error) {
      this.error.textContent = message(error);
    }
  }
}
