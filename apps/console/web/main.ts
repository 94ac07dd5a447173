import './console.css';
import { ApiClient, ApiError } from './api';
import { byId } from './dom';
import { FilterPanel } from './filter-panel';
import { keyPrefix, keyStore } from './key-store';
import { LibraryView } from './library-view';
import { MatchPanel } from './match-panel';
import { SavedView } from './saved-view';
import { SearchPanel } from './search-panel';
import { ShortlistsView } from './shortlists-view';
import { SimilarPanel } from './similar-panel';
import { UploadPanel } from './upload-panel';
import { Views } from './views';

/**
 * The console's two states: no key (the key screen), or a key (uploads and searches). A 401 from
 * any call forgets the key and returns to the key screen with the API's message.
 */
class ConsoleApp {
  private readonly keyScreen = byId('key-screen', HTMLElement);
  private readonly workspace = byId('workspace', HTMLDivElement);
  private readonly keyForm = byId('key-form', HTMLFormElement);
  private readonly keyInput = byId('api-key', HTMLInputElement);
  private readonly keyError = byId('key-error', HTMLParagraphElement);
  private readonly keyState = byId('key-state', HTMLDivElement);
  private readonly keyLabel = byId('key-label', HTMLSpanElement);
  private readonly uploads: UploadPanel;
  private readonly searches: SearchPanel;
  private readonly views = new Views();
  private client: ApiClient | null = null;

  constructor() {
    byId('no-script', HTMLParagraphElement).remove();
    const currentClient = () => this.client;
    this.uploads = new UploadPanel(currentClient);
    const filters = new FilterPanel();
    this.searches = new SearchPanel(currentClient, filters, new SimilarPanel(currentClient, filters));
    new MatchPanel(currentClient, filters);
    new LibraryView(currentClient, this.views);
    new ShortlistsView(currentClient, this.views);
    new SavedView(currentClient, this.views);
    this.keyForm.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.useKey(this.keyInput.value.trim());
    });
    byId('forget-key', HTMLButtonElement).addEventListener('click', () => {
      this.signOut('Key forgotten. Paste a key to go on.');
    });
    const stored = keyStore.read();
    if (stored) {
      this.signIn(stored);
      // A key kept from earlier in this tab may have been revoked since: a 401 returns to the key screen.
      void this.client?.get('/v1/public/documents?limit=1').catch(() => undefined);
    } else this.showKeyScreen('');
  }

  private async useKey(key: string): Promise<void> {
    if (!key) {
      this.keyError.textContent = 'Paste an API key first.';
      this.keyInput.focus();
      return;
    }
    this.keyError.textContent = 'Checking the key…';
    try {
      // One cheap read tells a good key from a bad one before anything else is tried.
      await new ApiClient(key, () => undefined).get('/v1/public/documents?limit=1');
    } catch (error) {
      this.keyInput.setAttribute('aria-invalid', 'true');
      this.keyError.textContent =
        error instanceof ApiError && error.status === 401
          ? `The API refused this key (401): ${error.message}`
          : `Could not check the key: ${error instanceof Error ? error.message : String(error)}`;
      this.keyInput.focus();
      return;
    }
    keyStore.write(key);
    this.keyInput.value = '';
    this.keyInput.removeAttribute('aria-invalid');
    this.signIn(key);
    // The shown view's heading (a shared link may have opened another view than the search).
    document.querySelector<HTMLElement>('.view:not([hidden]) h2')?.focus();
  }

  private signIn(key: string): void {
    this.client = new ApiClient(key, (message) => {
      this.signOut(`The API refused the key (401): ${message}. Paste a valid key.`);
    });
    this.keyLabel.textContent = `Key ${keyPrefix(key)}`;
    this.keyState.hidden = false;
    this.keyScreen.hidden = true;
    this.workspace.hidden = false;
    this.keyError.textContent = '';
    this.views.show();
  }

  private signOut(message: string): void {
    keyStore.forget();
    this.client = null;
    this.uploads.stop();
    this.searches.stop();
    this.showKeyScreen(message);
  }

  private showKeyScreen(message: string): void {
    this.keyState.hidden = true;
    this.workspace.hidden = true;
    this.keyScreen.hidden = false;
    this.keyError.textContent = message;
    this.keyInput.focus();
  }
}

new ConsoleApp();
