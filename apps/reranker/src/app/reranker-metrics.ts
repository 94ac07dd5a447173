import { Injectable } from '@nestjs/common';
import { MetricsRegistry } from '@cs/service-kit';

/** The hybrid searches the builtin reranker answered in the external one's place. */
@Injectable()
export class RerankerMetrics {
  private readonly fallbacks;

  constructor(registry: MetricsRegistry) {
    this.fallbacks = registry.counter(
      'cs_reranker_fallbacks_total',
      'Hybrid searches the builtin reranker answered because the external one failed (results say degraded)',
      ['provider'],
    );
  }

  fellBack(provider: string): void {
    this.fallbacks.inc({ provider });
  }
}
