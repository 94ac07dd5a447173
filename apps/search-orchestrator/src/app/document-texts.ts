import { Injectable } from '@nestjs/common';
import { DocumentsRepository, type ChunkSpan } from '@cs/records';

export interface DocumentContent {
  text: string;
  chunks: ChunkSpan[];
}

/** Characters of CV text kept between searches (about 2 bytes each). */
const CACHE_CHARS = 32_000_000;

/**
 * CV texts (and passage spans) for the reranker and the explanations, kept between searches: a
 * processed document's text never changes (a new upload is a new document), so only whether it
 * is still searchable must be asked of the database each time. Least recently used leave first.
 */
@Injectable()
export class DocumentTexts {
  private readonly cache = new Map<string, DocumentContent>();
  private chars = 0;

  constructor(private readonly documents: DocumentsRepository) {}

  async get(companyId: string, ids: string[]): Promise<Map<string, DocumentContent>> {
    const found = new Map<string, DocumentContent>();
    const missing: string[] = [];
    for (const id of ids) {
      const content = this.cache.get(id);
      if (content === undefined) {
        missing.push(id);
        continue;
      }
      this.cache.delete(id); // re-insert: Map order is the recency order
      this.cache.set(id, content);
      found.set(id, content);
    }
    for (const [id, content] of await this.documents.getContents(companyId, missing)) {
      found.set(id, content);
      this.remember(id, content);
    }
    return found;
  }

  private remember(id: string, content: DocumentContent): void {
    this.cache.set(id, content);
    this.chars += content.text.length;
    for (const [oldest, old] of this.cache) {
      if (this.chars <= CACHE_CHARS) break;
      this.cache.delete(oldest);
      this.chars -= old.text.length;
    }
  }
}
