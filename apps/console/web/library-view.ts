import type { api } from '@cs/contracts';
import { ApiError, type ApiClient } from './api';
import { byId, el, replaceChildren } from './dom';
import { candidateName } from './candidate-card';
import { DOCUMENTS_CHANGED } from './upload-panel';
import type { Views } from './views';

const PAGE_SIZE = 20;
/** While a document of the page is still being read, the page is read again this often. */
const FOLLOW_MS = 2000;
const FINAL = new Set(['completed', 'invalid', 'failed']);
const message = (error: unknown) => (error instanceof ApiError ? `${error.message} (${error.status})` : String(error));

/**
 * Every document of the company, a page at a time, found by name and ordered by date, name or
 * status, each deletable (after a confirmation); a page holding documents still being read is
 * read again every two seconds while the view is shown, so their states follow.
 */
export class LibraryView {
  private readonly form = byId('library-form', HTMLFormElement);
  private readonly name = byId('library-name', HTMLInputElement);
  private readonly sort = byId('library-sort', HTMLSelectElement);
  private readonly error = byId('library-error', HTMLParagraphElement);
  private readonly status = byId('library-status', HTMLParagraphElement);
  private readonly rows = byId('library-rows', HTMLTableSectionElement);
  private readonly pager = byId('library-pager', HTMLElement);
  private readonly previous = byId('library-previous', HTMLButtonElement);
  private readonly next = byId('library-next', HTMLButtonElement);
  private readonly pageLabel = byId('library-page', HTMLSpanElement);
  private offset = 0;
  private follow: ReturnType<typeof setTimeout> | undefined;
  /** Reads may overlap (the timer, uploads, the form): only the latest one's answer is shown. */
  private reads = 0;
  /** What the last action did, said before the count until the next action. */
  private done = '';

  constructor(
    private readonly client: () => ApiClient | null,
    views: Views,
  ) {
    views.on('library', () => void this.read());
    // Coalesced: a batch of uploads reads the page once a moment after its last change.
    let soon: ReturnType<typeof setTimeout> | undefined;
    document.addEventListener(DOCUMENTS_CHANGED, () => {
      clearTimeout(soon);
      soon = setTimeout(() => void this.read(), 300);
    });
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.offset = 0;
      this.done = '';
      void this.read();
    });
    this.sort.addEventListener('change', () => {
      this.offset = 0;
      void this.read();
    });
    this.previous.addEventListener('click', () => {
      this.offset = Math.max(0, this.offset - PAGE_SIZE);
      void this.read();
    });
    this.next.addEventListener('click', () => {
      this.offset += PAGE_SIZE;
      void this.read();
    });
    this.rows.addEventListener('click', (event) => {
      const button = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('button.delete-document') : null;
      if (button?.dataset.documentId) void this.delete(button.dataset.documentId, button.dataset.documentName ?? '');
    });
  }

  private visible(): boolean {
    return !byId('view-library', HTMLElement).hidden;
  }

  private async read(): Promise<void> {
    clearTimeout(this.follow);
    const client = this.client();
    if (!client || !this.visible()) return;
    const query = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(this.offset), sort: this.sort.value });
    const name = this.name.value.trim();
    if (name) query.set('name', name);
    const read = ++this.reads;
    try {
      const { body } = await client.get<api.DocumentList>(`/v1/public/documents?${query.toString()}`);
      if (read !== this.reads) return;
      // Past the end (the last page's last document deleted): the last page there is.
      if (body.data.length === 0 && this.offset > 0 && body.pagination.total > 0) {
        this.offset = Math.floor((body.pagination.total - 1) / PAGE_SIZE) * PAGE_SIZE;
        await this.read();
        return;
      }
      this.error.textContent = '';
      this.show(body, name);
      // Followed while some are still being read, and only while the library is in view.
      if (body.data.some((d) => !FINAL.has(d.status))) this.follow = setTimeout(() => void this.read(), FOLLOW_MS);
    } catch (error) {
      this.error.textContent = `The library could not be read: ${message(error)}`;
    }
  }

  private show(list: api.DocumentList, name: string): void {
    const { total } = list.pagination;
    const count = name
      ? `${total} document${total === 1 ? '' : 's'} named like “${name}”.`
      : `${total} document${total === 1 ? '' : 's'} in all.`;
    const said = `${this.done}${count}`;
    // Said again only when it changed: the live region is not repeated by each follow-up read.
    if (this.status.textContent !== said) this.status.textContent = said;
    replaceChildren(
      this.rows,
      list.data.length
        ? list.data.map((d) =>
            el('tr', { 'data-document-id': d.documentId }, [
              el('td', {}, [d.documentName, d.kind === 'job' ? el('span', { class: 'hint' }, [' (job posting)']) : null]),
              el('td', {}, [candidateName(d.contact) ?? '']),
              el('td', { class: `doc-status status-${d.status}`, title: d.message ?? '' }, [d.status]),
              el('td', {}, [new Date(d.createdAt).toLocaleString('en')]),
              el('td', {}, [
                el(
                  'button',
                  {
                    type: 'button',
                    class: 'secondary delete-document',
                    'data-document-id': d.documentId,
                    'data-document-name': d.documentName,
                    'aria-label': `Delete ${d.documentName}`,
                  },
                  ['Delete'],
                ),
              ]),
            ]),
          )
        : [
            el('tr', {}, [
              el('td', { colspan: 5, class: 'empty' }, [name ? 'No document is named like that.' : 'No document yet: upload CVs above.']),
            ]),
          ],
    );
    const pages = Math.ceil(total / PAGE_SIZE);
    this.pager.hidden = pages <= 1;
    this.pageLabel.textContent = `Page ${Math.floor(this.offset / PAGE_SIZE) + 1} of ${pages}`;
    this.previous.disabled = this.offset === 0;
    this.next.disabled = this.offset + PAGE_SIZE >= total;
  }

  private async delete(documentId: string, documentName: string): Promise<void> {
    const client = this.client();
    if (!client) return;
    if (!window.confirm(`Delete “${documentName}”? Its file and index entries go too, and no search finds it again.`)) return;
    try {
      await client.request('DELETE', `/v1/public/documents/${encodeURIComponent(documentId)}`);
      this.done = `“${documentName}” deleted. `;
      await this.read();
    } catch (error) {
      this.error.textContent = `Not deleted: ${message(error)}`;
    }
  }
}
