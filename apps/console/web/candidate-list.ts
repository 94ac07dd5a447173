import type { api } from '@cs/contracts';
import type { ApiClient } from './api';
import { candidateCard } from './candidate-card';
import { CvPane } from './cv-pane';
import { byId, el, replaceChildren } from './dom';
import type { SimilarPanel } from './similar-panel';

/** Candidates a page shows: a recruiter reads ten, then turns the page. */
export const PAGE_SIZE = 10;

/**
 * One search's results as one ranked list of candidates, a page at a time, with the CV of the
 * one selected beside it. Arrow keys move between candidates (Home and End to the first and
 * last of the page), Enter or a click opens one.
 */
export class CandidateList {
  private readonly box = byId('candidates', HTMLDivElement);
  private readonly list = byId('candidate-list', HTMLOListElement);
  private readonly pager = byId('candidate-pager', HTMLElement);
  private readonly previous = byId('page-previous', HTMLButtonElement);
  private readonly next = byId('page-next', HTMLButtonElement);
  private readonly pageLabel = byId('page-label', HTMLSpanElement);
  private readonly pane: CvPane;
  private items: api.ResultItem[] = [];
  private offset = 0;
  private query = '';

  constructor(client: () => ApiClient | null, similar: SimilarPanel) {
    this.pane = new CvPane(client, (id) => this.drop(id));
    similar.listenIn(byId('cv-pane', HTMLElement));
    this.list.addEventListener('click', (event) => {
      const card = event.target instanceof Element ? event.target.closest<HTMLElement>('.candidate') : null;
      if (card) this.open(card);
    });
    this.list.addEventListener('keydown', (event) => this.key(event));
    this.previous.addEventListener('click', () => this.showPage(this.offset - PAGE_SIZE, true));
    this.next.addEventListener('click', () => this.showPage(this.offset + PAGE_SIZE, true));
  }

  /** Hides the list (the comparison is shown instead). */
  hide(): void {
    this.box.hidden = true;
    this.pane.close();
  }

  /** Empties the list for a new search. */
  clear(): void {
    this.items = [];
    replaceChildren(this.list, []);
    this.pager.hidden = true;
    this.box.hidden = false;
    this.pane.close();
  }

  show(results: api.SearchResults, query: string): void {
    this.items = results.results.filter((item) => !item.documentDeleted);
    this.query = query;
    this.box.hidden = false;
    this.showPage(0, false);
  }

  private showPage(offset: number, focus: boolean): void {
    this.offset = Math.max(0, Math.min(offset, Math.max(0, this.items.length - 1)));
    this.offset -= this.offset % PAGE_SIZE;
    const page = this.items.slice(this.offset, this.offset + PAGE_SIZE);
    replaceChildren(this.list, page.length ? page.map(candidateCard) : [el('li', { class: 'empty' }, ['No candidate matched.'])]);
    const pages = Math.ceil(this.items.length / PAGE_SIZE);
    this.pager.hidden = pages <= 1;
    this.pageLabel.textContent = `Page ${this.offset / PAGE_SIZE + 1} of ${pages}`;
    this.previous.disabled = this.offset === 0;
    this.next.disabled = this.offset + PAGE_SIZE >= this.items.length;
    // One Tab stop for the whole list (the first candidate); the arrow keys move within it.
    this.list.querySelectorAll<HTMLElement>('.candidate').forEach((card, i) => (card.tabIndex = i === 0 ? 0 : -1));
    if (focus) this.list.querySelector<HTMLElement>('.candidate')?.focus();
  }

  /** Moves the list's one Tab stop to `card`, and the focus with it. */
  private focusCard(card: HTMLElement | undefined): void {
    if (!card) return;
    for (const other of this.list.querySelectorAll<HTMLElement>('.candidate')) other.tabIndex = other === card ? 0 : -1;
    card.focus();
  }

  private open(card: HTMLElement): void {
    const item = this.items.find((i) => i.documentId === card.dataset.documentId);
    if (!item) return;
    for (const other of this.list.querySelectorAll('.candidate[aria-current]')) other.removeAttribute('aria-current');
    card.setAttribute('aria-current', 'true');
    void this.pane.open(item, this.query, card);
  }

  private key(event: KeyboardEvent): void {
    const cards = [...this.list.querySelectorAll<HTMLElement>('.candidate')];
    const at = cards.indexOf(document.activeElement as HTMLElement);
    if (at < 0) return;
    const move = (to: number) => {
      event.preventDefault();
      this.focusCard(cards[Math.max(0, Math.min(cards.length - 1, to))]);
    };
    if (event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'ArrowUp') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(cards.length - 1);
    else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      this.open(cards[at]);
    }
  }

  /** A CV deleted from the pane leaves the list; the focus goes to the candidate after it. */
  private drop(documentId: string): void {
    const at = this.items.findIndex((i) => i.documentId === documentId);
    if (at < 0) return;
    this.items.splice(at, 1);
    this.showPage(this.offset >= this.items.length ? this.offset - PAGE_SIZE : this.offset, false);
    const cards = [...this.list.querySelectorAll<HTMLElement>('.candidate')];
    this.focusCard(cards[Math.min(at - this.offset, cards.length - 1)]);
  }
}
