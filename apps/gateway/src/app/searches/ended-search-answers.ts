import { brotliCompressSync, constants as zlib, deflateSync, gzipSync } from 'node:zlib';
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { AppConfig } from '@cs/config';
import { NOTIFICATION_LISTENER, type NotificationListener } from '@cs/ports';
import { DOCUMENT_CHANGED_CHANNEL, parseDocumentChanged } from '@cs/records';
import { APP_CONFIG } from '@cs/service-kit';
import type { SerializedBody } from '../http/conditional-get';

/** The content codings the compression middleware negotiates, made once per kept answer. */
export type ContentCoding = 'br' | 'gzip' | 'deflate';

/** One kept answer: its body, the company it belongs to, and the CVs a result page shows. */
export interface KeptAnswer {
  key: string;
  companyId: string;
  body: SerializedBody;
  documentIds: readonly string[];
  encoded: Partial<Record<ContentCoding, Buffer>>;
}

export interface PageKey {
  offset: number;
  limit: number;
  include: { extractedText: boolean };
}

/** The compression middleware's settings (brotli at quality 4, zlib's defaults), so either path sends the same coding. */
const ENCODERS: Record<ContentCoding, (bytes: Buffer) => Buffer> = {
  br: (bytes) => brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } }),
  gzip: (bytes) => gzipSync(bytes),
  deflate: (bytes) => deflateSync(bytes),
};

const statusKey = (searchId: string) => `status ${searchId}`;
const pageKey = (searchId: string, page: PageKey) =>
  `page ${searchId} ${page.offset} ${page.limit}${page.include.extractedText ? ' text' : ''}`;

/**
 * Ended searches' answers, serialised once and kept within READ_CACHE_MB (least recently read
 * go first). An ended search's status never changes; its result pages show their CVs' current
 * fields, so a CV deleted or changed drops the pages showing it: at once in the process that
 * deleted it, and in every other at the database's notification (migration 0011). A page read
 * while a CV changed is not kept (the generation moved), and while notifications may have been
 * missed (a reconnection) or cannot be heard, no page is kept at all.
 */
@Injectable()
export class EndedSearchAnswers implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('EndedSearchAnswers');
  private readonly answers: LRUCache<string, KeptAnswer> | null;
  private stopListening: (() => Promise<void>) | null = null;
  private hearingChanges = false;
  /** Moves at every change a kept page might show: a page read across a move is not kept. */
  private changes = 0;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(NOTIFICATION_LISTENER) private readonly listener: NotificationListener,
  ) {
    this.answers =
      config.readCacheBytes > 0 ? new LRUCache<string, KeptAnswer>({ maxSize: config.readCacheBytes, sizeCalculation: sizeOf }) : null;
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
        onResync: () => this.forgetPages(),
      });
      this.hearingChanges = true;
    } catch (error) {
      this.logger.warn(
        `listening for changed CVs failed (${error instanceof Error ? error.message : String(error)}); result pages are not kept, only statuses`,
      );
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.stopListening?.().catch(() => undefined);
  }

  /** Where a page read now stands: pass it to rememberPage, which keeps the page only if nothing changed since. */
  get generation(): number {
    return this.changes;
  }

  status(companyId: string, searchId: string): KeptAnswer | undefined {
    return this.read(companyId, statusKey(searchId));
  }

  rememberStatus(companyId: string, searchId: string, body: SerializedBody): void {
    this.keep({ key: statusKey(searchId), companyId, body, documentIds: [], encoded: {} });
  }

  page(companyId: string, searchId: string, page: PageKey): KeptAnswer | undefined {
    return this.read(companyId, pageKey(searchId, page));
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

  /** The answer's bytes in a content coding, compressed on first use and kept with it. */
  encoded(answer: KeptAnswer, coding: ContentCoding): Buffer {
    const made = answer.encoded[coding];
    if (made) return made;
    const bytes = ENCODERS[coding](answer.body.bytes);
    answer.encoded[coding] = bytes;
    // Kept anew (the cache counts a value's size when it is set), unless it went meanwhile.
    if (this.answers?.peek(answer.key) === answer) this.keep({ ...answer });
    return bytes;
  }

  /** Drops every kept page that shows this CV. */
  forgetDocument(documentId: string): void {
    this.changes++;
    if (!this.answers) return;
    for (const [key, kept] of [...this.answers.entries()]) if (kept.documentIds.includes(documentId)) this.answers.delete(key);
  }

  /** Drops every kept page (statuses stay: they show no CV). */
  forgetPages(): void {
    this.changes++;
    if (!this.answers) return;
    for (const key of [...this.answers.keys()]) if (key.startsWith('page ')) this.answers.delete(key);
  }

  private keep(answer: KeptAnswer): void {
    this.answers?.set(answer.key, answer);
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
