import { Injectable } from '@nestjs/common';
import { MetricsRegistry } from '@cs/service-kit';

/** Ingestion runs from tens of milliseconds (a text file) to seconds (a long PDF). */
const INGESTION_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Ingestion's families: CVs ingested by outcome, and the documents the watchdog finds stuck. */
@Injectable()
export class IngestionMetrics {
  private readonly ingestions;
  private readonly stuckHandled;
  private stuckDocuments: (() => Promise<number>) | undefined;

  constructor(registry: MetricsRegistry) {
    this.ingestions = registry.histogram(
      'cs_ingestion_duration_seconds',
      'CVs ingestion finished with, by outcome (completed, invalid, failed), from parsing to searchable',
      ['outcome'],
      INGESTION_BUCKETS,
    );
    this.stuckHandled = registry.counter(
      'cs_stuck_documents_total',
      'Documents the watchdog found stuck in uploading or pending, by what it did (requeued, failed)',
      ['action'],
    );
    registry.gauge(
      'cs_stuck_documents',
      'Documents waiting in uploading or pending past the watchdog bound (a lost job)',
      [],
      async (stuck) => {
        if (this.stuckDocuments) stuck.set(await this.stuckDocuments().catch(() => 0));
      },
    );
  }

  ingested(outcome: 'completed' | 'invalid' | 'failed', seconds: number): void {
    this.ingestions.observe({ outcome }, seconds);
  }

  stuckDocumentsHandled(action: 'requeued' | 'failed', count: number): void {
    this.stuckHandled.inc({ action }, count);
  }

  /** How many documents are stuck, read at each scrape (by the watchdog, once it runs). */
  observeStuckDocuments(count: () => Promise<number>): void {
    this.stuckDocuments = count;
  }
}
