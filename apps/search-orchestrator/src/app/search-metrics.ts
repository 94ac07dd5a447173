import { Injectable } from '@nestjs/common';
import { MetricsRegistry } from '@cs/service-kit';

/** The searches that ended, by type and status, and the time their stages took. */
@Injectable()
export class SearchMetrics {
  private readonly searches;
  private readonly stages;

  constructor(registry: MetricsRegistry) {
    this.searches = registry.histogram(
      'cs_search_duration_seconds',
      "Searches that ended, by type and final status; a completed search's time is its processingTimeMs",
      ['type', 'status'],
    );
    this.stages = registry.histogram(
      'cs_search_stage_duration_seconds',
      'Time spent in each stage of completed searches (retrieval, documents, rerank, explain)',
      ['type', 'stage'],
    );
  }

  ended(type: string, status: 'completed' | 'failed', ms: number, stages: Record<string, number> = {}): void {
    this.searches.observe({ type, status }, ms / 1000);
    for (const [stage, stageMs] of Object.entries(stages)) this.stages.observe({ type, stage }, stageMs / 1000);
  }
}
