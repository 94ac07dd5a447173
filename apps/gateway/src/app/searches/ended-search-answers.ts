import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { AppConfig } from '@cs/config';
import { NOTIFICATION_LISTENER, type NotificationListener } from '@cs/ports';
import { DOCUMENT_CHANGED_CHANNEL, parseDocumentChanged } from '@cs/records';
import { InjectConfig } from '@cs/service-kit';
import type { SerializedBody } from '../http/conditional-get';
import { ENCODERS, type ContentCoding } from '../http/content-coding';

/** One kept answer: its body, the company it belongs to, and the CVs a result page shows. */
export interface KeptAnswer {
  key: string;
  companyId: string;
  body: SerializedBody;
  documentIds: readonly string[];
  /** Shared by every copy of the entry (each re-set recounts its size). */
  encoded: Partial<Record<ContentCoding, Buffer>>;
}

export interface PageKey {
  offset: number;
  limit: number;
  include: { extractedText: boolean };
}

/**
 * A kept page is read again from the database at least this often: the bound on how long a
 * process shows a CV changed elsewhere should it miss the notification without knowing (a
 * connection cut silently, which TCP keep-alive notices only after hours).
 */
export const PAGE_TTL_MS = 60_000;

const statusKey = (searchId: string) => `status ${searchId}`;
const pageKey = (searchId: string, page: PageKey) => `page ${searchId} ${page.offset} ${page.limit} ${JSON.stringify(page.include)}`;

/**
 * Ended searches' answers, serialised once and kept within READ_CACHE_MB (least recently read
 * go first; no one answer above an eighth of it). An ended search's status never changes; its
 * result pages show their CVs' current fields, so a CV deleted or changed drops the pages
 * showing it: at once in the process that deleted it, and in every other at the database's
 * notification (migration 0011), and a page is read again after PAGE_TTL_MS whatever happens. A
 * page read while a CV changed is not kept (the generation moved), and while notifications
 * cannot be heard (before listening, after a reconnection until it is back, while stopping) no
 * page is kept and those kept are dropped.
 */
@Injectable()
export class EndedSearchAnswers implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('EndedSearchAnswers');
  private readonly answers: LRUCache<string, KeptAnswer> | null;
  /** Each CV's kept pages, so that a change drops them without a scan of the cache. */
  private readonly pagesShowing = new Map<string, Set<string>>();
  private stopListening: (() => Promise<void>) | null = null;
  private hearingChanges = false;
  /** Moves at every change a kept page might show: a page read across a move is not kept. */
  private changes = 0;
  /** How long a page is kept at most (PAGE_TTL_MS). */
  pageTtlMs = PAGE_TTL_MS;

  constructor(
    @InjectConfig('readCacheBytes') readCacheBytes: AppConfig['readCacheBytes'],
    @Inject(NOTIFICATION_LISTENER) private readonly listener: NotificationListener,
  ) {
    this.answers =
      readCacheBytes > 0
        ? new LRUCache<string, KeptAnswer>({
            maxSize: readCacheBytes,
            maxEntrySize: Math.ceil(readCacheBytes / 8),
            sizeCalculation: sizeOf,
            dispose: (answer, key) => this.unindex(answer, key),
          })
        : null;
  }

  /** Whether anything is kept at all (READ_CACHE_MB above 0). */
  get enabled(): boolean {
    return this.answers !== null;
  }

  /** Bytes kept, as counted against READ_CACHE_MB. */
  get keptBytes(): number {
    return this.answers?.calculatedSize ?? 0;
  }

  async onModuleInit(): Promise<void> {
    if (!this.answers) return;
    try {
      this.stopListening = await this.listener.listen(DOCUMENT_CHANGED_CHANNEL, {
        onMessage: (payload) => {
          const changed = parseDocumentChanged(payload);
          if (changed) this.forgetDocument(changed.id);
          else this.forgetPages();
        },
        // Listening again after a cut, or at last after a failed start: what was missed meanwhile is unknown.
        onResync: () => {
          this.forgetPages();
          this.hearingChanges = true;
        },
      });
      this.hearingChanges = true;
    } catch (error) {
      this.logger.warn(
        `listening for changed CVs failed (${error instanceof Error ? error.message : String(error)}); result pages are not kept until it works`,
      );
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.hearingChanges = false;
    this.forgetPages();
    await this.stopListening?.().catch(() => undefined);
  }

  /** Where a page read now stands: pass it to rememberPage, which keeps the page only if nothing changed since. */
  get generation(): number {
    return this.changes;
  }

  status(companyId: string, searchId: string): KeptAnswer | undefined {
    return this.read(companyId, statusKey(searchId));
  }

  /** Whether a status is kept, whoever's: a cheap look before authentication. */
  hasStatus(searchId: string): boolean {
    return this.answers?.has(statusKey(searchId)) ?? false;
  }

  rememberStatus(companyId: string, searchId: string, body: SerializedBody): void {
    this.keep({ key: statusKey(searchId), companyId, body, documentIds: [], encoded: {} });
  }

  page(companyId: string, searchId: string, page: PageKey): KeptAnswer | undefined {
    return this.read(companyId, pageKey(searchId, page));
  }

  hasPage(searchId: string, page: PageKey): boolean {
    return this.answers?.has(pageKey(searchId, page)) ?? false;
  }

  rememberPage(
    companyId: string,
    searchId: string,
    page: PageKey,
    body: SerializedBody,
    documentIds: readonly string[],
    generation: number,
  ): void {
    if (!this.hearingChanges || generation !== this.changes) return;
    this.keep({ key: pageKey(searchId, page), companyId, body, documentIds, encoded: {} });
  }

  /** The answer's bytes in a content coding, compressed on first use and kept with it (each coding made once per kept answer). */
  async encoded(answer: KeptAnswer, coding: ContentCoding): Promise<Buffer> {
    const made = answer.encoded[coding];
    if (made) return made;
    const bytes = await ENCODERS[coding](answer.body.bytes);
    answer.encoded[coding] ??= bytes;
    // Set again (the cache counts a value's size when it is set), if this entry is still kept.
    const current = this.answers?.peek(answer.key);
    if (current?.encoded === answer.encoded) this.keep({ ...current });
    return answer.encoded[coding];
  }

  /** Drops every kept page that shows this CV. */
  forgetDocument(documentId: string): void {
    this.changes++;
    for (const key of [...(this.pagesShowing.get(documentId) ?? [])]) this.answers?.delete(key);
  }

  /** Drops every kept page (statuses stay: they show no CV). */
  forgetPages(): void {
    this.changes++;
    if (!this.answers) return;
    for (const key of [...this.answers.keys()]) if (key.startsWith('page ')) this.answers.delete(key);
  }

  private keep(answer: KeptAnswer): void {
    if (!this.answers) return;
    const isPage = answer.key.startsWith('page ');
    this.answers.set(answer.key, answer, isPage ? { ttl: this.pageTtlMs } : {});
    // Indexed once the set replaced (and so unindexed) any earlier copy; not at all if it was too big to keep.
    if (!this.answers.has(answer.key)) return;
    for (const id of answer.documentIds) {
      const keys = this.pagesShowing.get(id) ?? new Set<string>();
      keys.add(answer.key);
      this.pagesShowing.set(id, keys);
    }
  }

  private unindex(answer: KeptAnswer, key: string): void {
    for (const id of answer.documentIds) {
      const keys = this.pagesShowing.get(id);
      keys?.delete(key);
      if (keys?.size === 0) this.pagesShowing.delete(id);
    }
  }

  private read(companyId: string, key: string): KeptAnswer | undefined {
    const kept = this.answers?.get(key);
    // Another company's search reads as unknown: the caller answers from the database (a 404).
    return kept?.companyId === companyId ? kept : undefined;
  }
}

function sizeOf(answer: KeptAnswer): number {
  const encoded = Object.values(answer.encoded).reduce((sum, b) => sum + (b?.length ?? 0), 0);
  return answer.body.bytes.length + encoded + 40 * answer.documentIds.length + 200;
}
