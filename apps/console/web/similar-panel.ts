import type { ApiClient } from './api';
import { byId, replaceChildren } from './dom';
import type { FilterPanel } from './filter-panel';
import { completedSentence, resultCards } from './result-card';
import { followSearch, startSearch } from './search-run';

/**
 * "More like this": a card's button runs a similar search from its CV, with the filter panel's
 * filters, and this panel follows it to its end and lists the CVs most like it (never the CV
 * itself), with the words of it the keyword leg searched. Its own cards have the button too. One
 * similar search at a time: a new one replaces the last.
 */
export class SimilarPanel {
  private readonly section = byId('similar', HTMLElement);
  private readonly title = byId('similar-title', HTMLHeadingElement);
  private readonly status = byId('similar-status', HTMLParagraphElement);
  private readonly terms = byId('similar-terms', HTMLParagraphElement);
  private readonly list = byId('similar-results', HTMLOListElement);
  private readonly count = byId('result-count', HTMLInputElement);
  private abort = new AbortController();
  /** The button that opened the panel, where Close returns the focus. */
  private opener: HTMLElement | null = null;

  constructor(
    private readonly client: () => ApiClient | null,
    private readonly filters: FilterPanel,
  ) {
    this.listenIn(this.list);
    byId('similar-close', HTMLButtonElement).addEventListener('click', () => {
      this.stop();
      this.section.hidden = true;
      if (this.opener?.isConnected) this.opener.focus();
    });
  }

  /** Runs a similar search when a "More like this" button inside `container` is pressed (delegated: cards added later need nothing more). */
  listenIn(container: HTMLElement): void {
    container.addEventListener('click', (event) => {
      const button = event.target instanceof Element ? event.target.closest('button.more-like') : null;
      if (!(button instanceof HTMLButtonElement)) return;
      const { documentId, documentName } = button.dataset;
      if (!documentId || documentName === undefined) return;
      this.opener = button;
      void this.run(documentId, documentName);
    });
  }

  stop(): void {
    this.abort.abort(new Error('stopped'));
  }

  private async run(documentId: string, name: string): Promise<void> {
    const client = this.client();
    if (!client) return;
    this.abort.abort(new Error('replaced by another similar search'));
    const abort = (this.abort = new AbortController());
    const filters = this.filters.current();
    const count = Number(this.count.value);
    const say = (text: string) => (this.status.textContent = text);
    this.section.hidden = false;
    this.section.dataset.documentId = documentId;
    this.title.textContent = `More like ${name}`;
    this.terms.textContent = '';
    replaceChildren(this.list, []);
    say(`Starting a similar search${filters ? ' with the filters' : ''}…`);
    this.title.focus();
    const body = {
      documentId,
      // The comparison's "Results per type", when it holds one the API takes.
      ...(Number.isInteger(count) && count >= 1 && count <= 100 ? { top_k: count } : {}),
      ...(filters ? { filters } : {}),
    };
    try {
      const created = await startSearch(client, '/v1/public/searches/similar', body, this.filters, { signal: abort.signal, say });
      if (!created || created === 'filters refused') return;
      const results = await followSearch(client, created, { signal: abort.signal, say });
      if (!results) return;
      say(completedSentence(results));
      const terms = results.metadata.distinctiveTerms ?? [];
      this.terms.textContent = terms.length ? `Its distinctive words: ${terms.join(', ')}` : '';
      replaceChildren(this.list, resultCards(results, `No other CV is like it${filters ? ' within the filters' : ''}.`));
    } catch (error) {
      if (abort.signal.aborted) return;
      say(`stopped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
