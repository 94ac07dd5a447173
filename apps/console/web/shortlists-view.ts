import type { api } from '@cs/contracts';
import { ApiError, type ApiClient } from './api';
import { byId, el, replaceChildren } from './dom';
import { download, placeHash, type Views } from './views';

const message = (error: unknown) => (error instanceof ApiError ? `${error.message} (${error.status})` : String(error));

/**
 * The company's shortlists: made here or from the CV pane, each with its candidates and notes,
 * exported as CSV or as a ZIP of the files, and shared inside the company by its link (whoever
 * opens it with a key of the company sees the same list).
 */
export class ShortlistsView {
  private readonly form = byId('shortlist-form', HTMLFormElement);
  private readonly name = byId('shortlist-name', HTMLInputElement);
  private readonly error = byId('shortlists-error', HTMLParagraphElement);
  private readonly status = byId('shortlists-status', HTMLParagraphElement);
  private readonly list = byId('shortlist-list', HTMLUListElement);
  private readonly detail = byId('shortlist-detail', HTMLElement);
  private readonly title = byId('shortlist-title', HTMLHeadingElement);
  private readonly items = byId('shortlist-items', HTMLOListElement);
  private open: api.Shortlist | null = null;

  constructor(
    private readonly client: () => ApiClient | null,
    private readonly views: Views,
  ) {
    views.on('shortlists', (id) => void this.show(id));
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.create();
    });
    byId('shortlist-copy-link', HTMLButtonElement).addEventListener('click', () => void this.copyLink());
    byId('shortlist-export-csv', HTMLButtonElement).addEventListener('click', () => void this.export('csv'));
    byId('shortlist-export-zip', HTMLButtonElement).addEventListener('click', () => void this.export('zip'));
    byId('shortlist-delete', HTMLButtonElement).addEventListener('click', () => void this.delete());
    this.items.addEventListener('click', (event) => {
      const button = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('button.remove-item') : null;
      if (button?.dataset.documentId) void this.remove(button.dataset.documentId);
    });
  }

  private async show(id: string | null): Promise<void> {
    const client = this.client();
    if (!client) return;
    this.error.textContent = '';
    try {
      const { body } = await client.get<api.ShortlistList>('/v1/public/shortlists?limit=100');
      replaceChildren(
        this.list,
        body.data.length
          ? body.data.map((s) =>
              el('li', {}, [
                el(
                  'a',
                  { href: placeHash({ view: 'shortlists', id: s.shortlistId }), 'aria-current': s.shortlistId === id ? 'true' : null },
                  [s.name],
                ),
                ` · ${s.itemsCount} candidate${s.itemsCount === 1 ? '' : 's'}`,
              ]),
            )
          : [el('li', { class: 'empty' }, ['No shortlist yet: create one, or add a candidate from the CV beside a search.'])],
      );
      if (id) await this.openList(client, id);
      else this.detail.hidden = true;
    } catch (error) {
      this.error.textContent = `The shortlists could not be read: ${message(error)}`;
    }
  }

  private async openList(client: ApiClient, id: string): Promise<void> {
    try {
      const { body } = await client.get<api.Shortlist>(`/v1/public/shortlists/${encodeURIComponent(id)}`);
      this.open = body;
      this.title.textContent = body.name;
      replaceChildren(
        this.items,
        body.items.length
          ? body.items.map((item) =>
              el('li', { class: 'shortlist-item' }, [
                el('span', { class: 'candidate-name' }, [item.documentName]),
                item.note ? el('span', { class: 'note' }, [item.note]) : null,
                el(
                  'button',
                  {
                    type: 'button',
                    class: 'secondary remove-item',
                    'data-document-id': item.documentId,
                    'aria-label': `Remove ${item.documentName}`,
                  },
                  ['Remove'],
                ),
              ]),
            )
          : [el('li', { class: 'empty' }, ['No candidate on it yet.'])],
      );
      this.detail.hidden = false;
    } catch (error) {
      this.detail.hidden = true;
      this.error.textContent =
        error instanceof ApiError && error.status === 404 ? 'This shortlist does not exist (any more) in your company.' : message(error);
    }
  }

  private async create(): Promise<void> {
    const client = this.client();
    const name = this.name.value.trim();
    if (!client) return;
    if (!name) {
      this.error.textContent = 'Name the shortlist first.';
      this.name.focus();
      return;
    }
    try {
      const { body } = await client.post<api.Shortlist>('/v1/public/shortlists', { name });
      this.name.value = '';
      this.status.textContent = `Shortlist “${body.name}” created.`;
      this.views.go({ view: 'shortlists', id: body.shortlistId });
    } catch (error) {
      this.error.textContent = message(error);
    }
  }

  private async remove(documentId: string): Promise<void> {
    const client = this.client();
    if (!client || !this.open) return;
    try {
      await client.request('DELETE', `/v1/public/shortlists/${this.open.shortlistId}/items/${encodeURIComponent(documentId)}`);
      this.status.textContent = 'Removed from the shortlist.';
      await this.show(this.open.shortlistId);
      this.title.focus();
    } catch (error) {
      this.error.textContent = message(error);
    }
  }

  private async copyLink(): Promise<void> {
    if (!this.open) return;
    const link = `${location.origin}/console${placeHash({ view: 'shortlists', id: this.open.shortlistId })}`;
    try {
      await navigator.clipboard.writeText(link);
      this.status.textContent = `Link copied: ${link} (it opens for whoever has a key of your company).`;
    } catch {
      this.status.textContent = `The link: ${link} (it opens for whoever has a key of your company).`;
    }
  }

  private async export(format: 'csv' | 'zip'): Promise<void> {
    const client = this.client();
    if (!client || !this.open) return;
    this.status.textContent = `Exporting ${format === 'csv' ? 'the CSV' : 'the files'}…`;
    try {
      download(await client.blob(`/v1/public/shortlists/${this.open.shortlistId}/export?format=${format}`), `${this.open.name}.${format}`);
      this.status.textContent = `Exported “${this.open.name}” as ${format.toUpperCase()}.`;
    } catch (error) {
      this.error.textContent = `Not exported: ${message(error)}`;
    }
  }

  private async delete(): Promise<void> {
    const client = this.client();
    if (!client || !this.open) return;
    if (!window.confirm(`Delete the shortlist “${this.open.name}”? Its candidates' CVs stay.`)) return;
    try {
      await client.request('DELETE', `/v1/public/shortlists/${this.open.shortlistId}`);
      this.status.textContent = `Shortlist “${this.open.name}” deleted.`;
      this.open = null;
      this.views.go({ view: 'shortlists', id: null });
    } catch (error) {
      this.error.textContent = message(error);
    }
  }
}
