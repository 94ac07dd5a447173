import type { api } from '@cs/contracts';
import { ApiError, type ApiClient } from './api';
import { byId, el, replaceChildren, type Child } from './dom';
import { candidateHeading, profileFacts } from './candidate-card';
import { download } from './views';

/** Words of the query worth marking in a CV's text: three letters or more, as written. */
export function queryWords(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}+#.-]{2,}/gu) ?? [])].map((w) => w.replace(/[.-]+$/, ''));
}

/** The text as text nodes, with each word that starts like one of `words` in <mark>. */
export function markedText(text: string, words: readonly string[]): Child[] {
  if (words.length === 0) return [text];
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join('|')})[\\p{L}\\p{N}]*`, 'giu');
  const parts: Child[] = [];
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) parts.push(text.slice(at, match.index));
    parts.push(el('mark', {}, [match[0]]));
    at = match.index + match[0].length;
  }
  parts.push(text.slice(at));
  return parts;
}

/**
 * The CV beside the list: who the candidate is, what was read from the CV, its text with the
 * query's words marked, the original file, "More like this", and delete after a confirmation.
 */
export class CvPane {
  private readonly section = byId('cv-pane', HTMLElement);
  private readonly title = byId('cv-title', HTMLHeadingElement);
  private readonly status = byId('cv-status', HTMLParagraphElement);
  private readonly body = byId('cv-body', HTMLDivElement);
  private readonly moreLike = byId('cv-more-like', HTMLButtonElement);
  private readonly deleteButton = byId('cv-delete', HTMLButtonElement);
  private readonly confirm = byId('cv-confirm', HTMLDialogElement);
  private readonly confirmText = byId('cv-confirm-text', HTMLParagraphElement);
  private abort = new AbortController();
  private documentId: string | null = null;
  private opener: HTMLElement | null = null;

  constructor(
    private readonly client: () => ApiClient | null,
    /** Told when a CV is deleted from the pane, so that the list drops it. */
    private readonly onDeleted: (documentId: string) => void,
  ) {
    byId('cv-close', HTMLButtonElement).addEventListener('click', () => this.close());
    this.deleteButton.addEventListener('click', () => {
      // Escape closes the dialog keeping its last returnValue: cleared, it can only mean "keep".
      this.confirm.returnValue = '';
      this.confirm.showModal();
    });
    this.confirm.addEventListener('close', () => {
      if (this.confirm.returnValue === 'delete') void this.delete();
    });
    const select = byId('cv-shortlist', HTMLSelectElement);
    select.addEventListener('change', () => {
      byId('cv-new-shortlist', HTMLInputElement).hidden = select.value !== 'new';
    });
    byId('cv-shortlist-form', HTMLFormElement).addEventListener('submit', (event) => {
      event.preventDefault();
      void this.addToShortlist();
    });
    this.section.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && !this.confirm.open) this.close();
    });
  }

  /** Opens the CV of a result; `opener` gets the focus back when the pane closes. */
  async open(item: api.ResultItem, query: string, opener: HTMLElement): Promise<void> {
    const client = this.client();
    if (!client) return;
    this.abort.abort(new Error('another CV opened'));
    const abort = (this.abort = new AbortController());
    this.documentId = item.documentId;
    this.opener = opener;
    const heading = candidateHeading(item.contact, item.documentName);
    this.title.textContent = heading;
    this.confirmText.textContent = `${heading}: the CV, its file and its index entries are deleted for good, and no search finds it again.`;
    this.moreLike.dataset.documentId = item.documentId;
    this.moreLike.dataset.documentName = item.documentName ?? '';
    this.moreLike.classList.add('more-like');
    this.moreLike.setAttribute('aria-label', `More like this: ${heading}`);
    this.status.textContent = 'Reading the CV…';
    byId('cv-shortlist-status', HTMLSpanElement).textContent = '';
    replaceChildren(this.body, []);
    this.section.hidden = false;
    this.title.focus();
    try {
      const { body: document } = await client.get<api.Document>(`/v1/public/documents/${encodeURIComponent(item.documentId)}`, {
        signal: abort.signal,
      });
      this.show(document, query);
      this.status.textContent = '';
    } catch (error) {
      if (abort.signal.aborted) return;
      this.status.textContent =
        error instanceof ApiError && error.status === 404 ? 'This CV was deleted.' : `The CV could not be read: ${String(error)}`;
      return;
    }
    try {
      await this.loadShortlists(client, abort.signal);
    } catch (error) {
      if (abort.signal.aborted) return;
      byId('cv-shortlist-status', HTMLSpanElement).textContent = `The shortlists could not be read: ${String(error)}`;
    }
  }

  /** The company's shortlists to choose from, with a new one named after today when there is none. */
  private async loadShortlists(client: ApiClient, signal: AbortSignal): Promise<void> {
    const select = byId('cv-shortlist', HTMLSelectElement);
    const { body } = await client.get<api.ShortlistList>('/v1/public/shortlists?limit=100', { signal });
    const chosen = select.value;
    byId('cv-new-shortlist', HTMLInputElement).hidden = body.data.length > 0 && chosen !== 'new';
    replaceChildren(select, [
      ...body.data.map((s) => el('option', { value: s.shortlistId, selected: s.shortlistId === chosen }, [s.name])),
      el('option', { value: 'new' }, ['A new shortlist…']),
    ]);
  }

  private async addToShortlist(): Promise<void> {
    const client = this.client();
    const id = this.documentId;
    const select = byId('cv-shortlist', HTMLSelectElement);
    const note = byId('cv-note', HTMLInputElement);
    const said = byId('cv-shortlist-status', HTMLSpanElement);
    if (!client || !id) return;
    try {
      let listId = select.value;
      let listName = select.selectedOptions[0]?.textContent ?? '';
      if (listId === 'new') {
        const named = byId('cv-new-shortlist', HTMLInputElement);
        listName = named.value.trim();
        if (!listName) {
          said.textContent = 'Name the new shortlist first.';
          named.focus();
          return;
        }
        listId = (await client.post<api.Shortlist>('/v1/public/shortlists', { name: listName })).body.shortlistId;
        named.value = '';
      }
      const added = await client.post<api.ShortlistItem>(`/v1/public/shortlists/${encodeURIComponent(listId)}/items`, {
        documentId: id,
        note: note.value.trim() || null,
      });
      note.value = '';
      said.replaceChildren(
        added.status === 201 ? `Added to ` : `Already on `,
        el('a', { href: `#shortlists/${listId}` }, [listName]),
        added.status === 201 ? '.' : '; its note replaced.',
      );
      await this.loadShortlists(client, new AbortController().signal);
      select.value = listId;
      byId('cv-new-shortlist', HTMLInputElement).hidden = true;
    } catch (error) {
      said.textContent = `Not added: ${error instanceof ApiError ? `${error.message} (${error.status})` : String(error)}`;
    }
  }

  close(): void {
    this.abort.abort(new Error('closed'));
    this.section.hidden = true;
    if (this.opener?.isConnected) this.opener.focus();
  }

  private show(document: api.Document, query: string): void {
    const facts = profileFacts(document.profile, document.contact);
    const contact = document.contact;
    const reach = [contact?.email, contact?.phone, contact?.linkedin].filter((v): v is string => !!v);
    const skills = document.profile?.skills ?? [];
    replaceChildren(this.body, [
      el('dl', { class: 'cv-facts' }, [
        ...facts.flatMap(([label, value]) => [el('dt', {}, [label]), el('dd', {}, [value])]),
        ...(reach.length ? [el('dt', {}, ['Contact']), el('dd', {}, [reach.join(' · ')])] : []),
        ...(skills.length ? [el('dt', {}, ['Skills']), el('dd', {}, [skills.slice(0, 15).join(', ')])] : []),
        el('dt', {}, ['File']),
        el('dd', {}, [`${document.file.name} (${document.documentDate})`]),
      ]),
      this.fileButton(document),
      document.file.contentType === 'application/pdf' ? this.original(document, query) : null,
      el('h4', {}, ['The CV’s text']),
      el('div', { class: 'cv-text', tabindex: 0, 'aria-label': 'The CV’s text, the query’s words marked' }, [
        ...markedText(document.extractedText ?? '', queryWords(query)),
      ]),
    ]);
  }

  /**
   * The PDF as uploaded, its first pages drawn in the pane with the query's words marked: pdf.js,
   * loaded the first time a PDF is shown (a chunk of the console's own bundle, same origin).
   */
  private original(document: api.Document, query: string): HTMLElement {
    const pages = el('div', { class: 'pdf-pages' });
    const note = el('p', { class: 'hint', role: 'status' }, ['Drawing the original…']);
    const box = el('section', { class: 'cv-original', 'aria-label': 'The original PDF' }, [el('h4', {}, ['The original']), note, pages]);
    const signal = this.abort.signal;
    const client = this.client();
    void (async () => {
      try {
        if (!client) return;
        const file = await client.blob(`/v1/public/documents/${encodeURIComponent(document.documentId)}/file`, { signal });
        const { MAX_PAGES, renderPdf } = await import('./pdf-view');
        const total = await renderPdf(new Uint8Array(await file.arrayBuffer()), pages, queryWords(query), signal);
        note.textContent = total > MAX_PAGES ? `The first ${MAX_PAGES} of ${total} pages; open the original for the rest.` : '';
      } catch (error) {
        if (signal.aborted) return;
        note.textContent = `The original could not be drawn here (${error instanceof Error ? error.message : String(error)}); its text is below.`;
      }
    })();
    return box;
  }

  /** Downloads the file as uploaded under its own name, fetched with the key (a link could not carry it). */
  private fileButton(document: api.Document): HTMLButtonElement {
    const button = el('button', { type: 'button', class: 'secondary' }, [`Download the original (${document.file.name})`]);
    button.addEventListener('click', () => {
      const client = this.client();
      if (!client) return;
      void (async () => {
        try {
          download(await client.blob(`/v1/public/documents/${encodeURIComponent(document.documentId)}/file`), document.file.name);
        } catch (error) {
          this.status.textContent = `The file could not be downloaded: ${error instanceof Error ? error.message : String(error)}`;
        }
      })();
    });
    return button;
  }

  private async delete(): Promise<void> {
    const client = this.client();
    const id = this.documentId;
    if (!client || !id) return;
    this.status.textContent = 'Deleting…';
    try {
      await client.request('DELETE', `/v1/public/documents/${encodeURIComponent(id)}`);
      this.onDeleted(id);
      this.status.textContent = '';
      this.section.hidden = true;
    } catch (error) {
      this.status.textContent = `Not deleted: ${error instanceof ApiError ? `${error.message} (${error.status})` : String(error)}`;
    }
  }
}
