const STORAGE_KEY = 'candidate-search-console.api-key';

/** The API key lives in this tab's session storage only: closing the tab forgets it. */
export const keyStore = {
  read(): string | null {
    try {
      return sessionStorage.getItem(STORAGE_KEY);
    } catch {
      return null;
    }
  },
  write(key: string): void {
    sessionStorage.setItem(STORAGE_KEY, key);
  },
  forget(): void {
    sessionStorage.removeItem(STORAGE_KEY);
  },
};

/** What the header shows of a key: its first 8 characters, as support and logs name keys. */
export const keyPrefix = (key: string): string => `${key.slice(0, 8)}…`;
