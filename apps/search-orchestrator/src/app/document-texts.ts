import { Injectable } from '@nestjs/common';
import { DocumentsRepository } from '@cs/records';

/** Characters of CV text kept between searches (about 2 bytes each). */
const CACHE_CHARS = 64_000_000;

/**
 * CV texts for the reranker and the explanations, kept between searches: a completed document's
 * text never changes (a new upload is a new document), so only whether it is still searchable
 * must be asked of the database each time. Least recently used texts leave first.
 */
@Injectable()
export class DocumentTexts {
  private readonly cache = new Map<string, string>();
  private chars = 0;

  constructor(private readonly documents: DocumentsRepository) {}

  async get(companyId: string, ids: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const missing: string[] = [];
    for (const id of ids) {
      const text = this.cache.get(id);
      if (text === undefined) {
        missing.push(id);
        continue;
      }
      this.cache.delete(id); // re-insert: Map order is the recency order
      this.cache.set(id, text);
      found.set(id, text);
    }
    for (const [id, text] of await this.documents.getTexts(companyId, missing)) {
      found.set(id, text);
      this.remember(id, text);
    }
    return found;
  }

  private remember(id: string, text: string): void {
    this.cache.set(id, text);
    this.chars += text.length;
    for (const [oldest, old] of this.cache) {
      if (this.chars <= CACHE_CHARS) break;
      this.cache.delete(oldest);
      this.chars -= old.length;
    }
  }
}
