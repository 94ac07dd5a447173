import { Inject, Injectable } from '@nestjs/common';
import { DocumentsRepository, type ChunkSpan } from '@cs/records';

export interface DocumentContent {
  text: string;
  chunks: ChunkSpan[];
}

/** A cached CV: its text, and its passage spans once something has asked for them. */
interface Cached {
  text: string;
  chunks: ChunkSpan[] | null;
}

/** The records read here: texts and passage spans of processed CVs. */
export type DocumentTextReads = Pick<DocumentsRepository, 'getTexts' | 'getChunks' | 'getContents'>;

/** Characters of CV text kept between searches (about 2 bytes each). */
const CACHE_CHARS = 32_000_000;

/**
 * CV texts (and passage spans) for the reranker and the explanations, kept between searches: a
 * processed document's text never changes (a new upload is a new document), so only whether it
 * is still searchable must be asked of the database each time. Least recently used leave first.
 * The reranker's hundreds of candidates need texts only; spans are read for the results alone.
 */
@Injectable()
export class DocumentTexts {
  private readonly cache = new Map<string, Cached>();
  private chars = 0;

  constructor(@Inject(DocumentsRepository) private readonly documents: DocumentTextReads) {}

  /** Texts by id; ids whose text is gone (deleted, or not processed) are absent. */
  async texts(companyId: string, ids: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const missing: string[] = [];
    for (const id of ids) {
      const cached = this.touch(id);
      if (cached) found.set(id, cached.text);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    for (const [id, text] of await this.documents.getTexts(companyId, missing)) {
      found.set(id, text);
      this.remember(id, { text, chunks: null });
    }
    return found;
  }

  /** Texts with their passage spans, by id; ids whose text is gone are absent. */
  async contents(companyId: string, ids: string[]): Promise<Map<string, DocumentContent>> {
    const found = new Map<string, DocumentContent>();
    const missing: string[] = [];
    // Texts the reranker's read left here need only their spans, not the text again.
    const withoutSpans = new Map<string, Cached>();
    for (const id of ids) {
      const cached = this.touch(id);
      if (cached?.chunks) found.set(id, { text: cached.text, chunks: cached.chunks });
      else if (cached) withoutSpans.set(id, cached);
      else missing.push(id);
    }
    const [spans, contents] = await Promise.all([
      withoutSpans.size ? this.documents.getChunks(companyId, [...withoutSpans.keys()]) : new Map<string, ChunkSpan[]>(),
      missing.length ? this.documents.getContents(companyId, missing) : new Map<string, DocumentContent>(),
    ]);
    for (const [id, chunks] of spans) {
      const cached = withoutSpans.get(id)!;
      cached.chunks = chunks;
      found.set(id, { text: cached.text, chunks });
    }
    for (const [id, content] of contents) {
      found.set(id, content);
      this.remember(id, content);
    }
    return found;
  }

  /** The cached entry, moved to the recent end (Map order is the recency order). */
  private touch(id: string): Cached | undefined {
    const cached = this.cache.get(id);
    if (cached) {
      this.cache.delete(id);
      this.cache.set(id, cached);
    }
    return cached;
  }

  private remember(id: string, entry: Cached): void {
    const previous = this.cache.get(id);
    if (previous) this.chars -= previous.text.length;
    this.cache.set(id, entry);
    this.chars += entry.text.length;
    for (const [oldest, old] of this.cache) {
      if (this.chars <= CACHE_CHARS) break;
      this.cache.delete(oldest);
      this.chars -= old.text.length;
    }
  }
}
