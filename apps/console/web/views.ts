import { byId } from './dom';

export type ViewName = 'search' | 'library' | 'shortlists' | 'saved';
const VIEWS: readonly ViewName[] = ['search', 'library', 'shortlists', 'saved'];

/** Where the page is: a view and, for the lists, the one open (`#shortlists/<id>`): links to it can be shared inside the company. */
export interface Place {
  view: ViewName;
  id: string | null;
}

export function placeOf(hash: string): Place {
  const [view, id] = hash.replace(/^#/, '').split('/');
  return VIEWS.includes(view as ViewName)
    ? { view: view as ViewName, id: id && /^[0-9a-f-]{36}$/i.test(id) ? id : null }
    : { view: 'search', id: null };
}

export const placeHash = ({ view, id }: Place): string => `#${view}${id ? `/${id}` : ''}`;

/**
 * The console's views, one shown at a time, chosen by the address's fragment so that the back
 * button and a shared link work; each view is told when it is shown, with the id the link names.
 */
export class Views {
  private readonly listeners = new Map<ViewName, (id: string | null) => void>();

  constructor() {
    window.addEventListener('hashchange', () => this.show());
  }

  on(view: ViewName, shown: (id: string | null) => void): void {
    this.listeners.set(view, shown);
  }

  /** Goes to a place (a new history entry); shows it at once. */
  go(place: Place): void {
    if (location.hash === placeHash(place)) this.show();
    else location.hash = placeHash(place);
  }

  /** Shows the view the address names. */
  show(): void {
    const place = placeOf(location.hash);
    for (const view of VIEWS) byId(`view-${view}`, HTMLElement).hidden = view !== place.view;
    for (const link of document.querySelectorAll<HTMLAnchorElement>('nav.views a'))
      if (link.dataset.view === place.view) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    this.listeners.get(place.view)?.(place.id);
  }
}

/** Saves a blob under a file name, as a browser download, without a link to another origin. */
export function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** "Monday", "Nov 3": when something last was, in the words a list's "new since" uses. */
export function sinceWords(date: Date, now = new Date()): string {
  const days = (now.getTime() - date.getTime()) / 86_400_000;
  if (days < 1 && now.getDate() === date.getDate()) return `${date.toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit' })} today`;
  if (days < 7) return date.toLocaleDateString('en', { weekday: 'long' });
  return date.toLocaleDateString('en', { month: 'short', day: 'numeric' });
}
