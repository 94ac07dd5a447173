import { Inject, Injectable, Logger } from '@nestjs/common';
import { CohereRerankerClient } from '@cs/cohere-reranker';
import type { AppConfig } from '@cs/config';
import { SentenceEmbedder } from '@cs/embeddings';
import type { RerankDocument, RerankResponse, RerankerClient } from '@cs/ports';
import { FeatureReranker } from '@cs/ranking';
import { APP_CONFIG, SENTENCE_EMBEDDER } from '@cs/service-kit';

/**
 * The builtin reranker (our feature scorer) and the external provider of hybrid search: a
 * Cohere-compatible endpoint when configured, else the local scorer, so hybrid needs no account.
 * An external failure degrades to the builtin scorer, said so in the response.
 */
@Injectable()
export class RerankerService implements RerankerClient {
  private readonly logger = new Logger(RerankerService.name);
  private readonly scorer: FeatureReranker;
  private readonly external: CohereRerankerClient | null;

  constructor(@Inject(SENTENCE_EMBEDDER) embedder: SentenceEmbedder, @Inject(APP_CONFIG) config: AppConfig) {
    this.scorer = new FeatureReranker(embedder);
    this.external = config.reranker.provider === 'local' ? null : new CohereRerankerClient({ ...config.reranker, shape: config.reranker.provider });
  }

  async rerankBuiltin(query: string, documents: RerankDocument[], topN: number): Promise<RerankResponse> {
    return { provider: 'builtin', results: this.score(query, documents, topN) };
  }

  async rerankExternal(query: string, documents: RerankDocument[], topN: number): Promise<RerankResponse> {
    if (!this.external) return { provider: 'local', results: this.score(query, documents, topN) };
    try {
      const results = await this.external.rerank(query, documents.map((d) => d.text), topN);
      return {
        provider: this.external.provider,
        results: results
          .map((r) => ({ id: documents[r.index].id, score: Math.max(0, Math.min(1, r.relevanceScore)) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, topN),
      };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(`external reranker failed, using the builtin one: ${reason}`);
      return { provider: 'builtin', results: this.score(query, documents, topN), degraded: { reason } };
    }
  }

  private score(query: string, documents: RerankDocument[], topN: number) {
    return this.scorer.rerank(query, documents, topN).map((r) => ({ id: r.id, score: r.score }));
  }
}
