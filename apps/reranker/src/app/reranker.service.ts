import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { SentenceEmbedder } from '@cs/embeddings';
import type { HostedRerankerClient } from '@cs/hosted-reranker';
import { OnnxCrossEncoder, rerankWithCrossEncoder } from '@cs/onnx-reranker';
import {
  textsFrom,
  type CandidateTexts,
  type RerankCandidate,
  type RerankResponse,
  type RerankResult,
  type RerankerClient,
} from '@cs/ports';
import { FeatureReranker, rerankerTuningOf } from '@cs/ranking';
import { InjectConfig } from '@cs/service-kit';
import { HOSTED_RERANKER, SENTENCE_EMBEDDER } from '@cs/wiring';
import { RerankerMetrics } from './reranker-metrics';

/**
 * The builtin reranker (our feature scorer, its best read again by a local ONNX cross-encoder
 * when an operator gives one) and the external provider of hybrid search: a hosted endpoint
 * (Cohere, Jina, Voyage or TEI) when configured, else the local scorer, so hybrid needs no account. An external
 * failure degrades to the builtin scorer, said so in the response.
 */
@Injectable()
export class RerankerService implements RerankerClient, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RerankerService.name);
  private readonly scorer: FeatureReranker;
  /** The cross-encoder and how many of the feature scorer's best it reads, when configured. */
  private crossEncoder: { encoder: OnnxCrossEncoder; topN: number } | null = null;

  constructor(
    @Inject(SENTENCE_EMBEDDER) embedder: SentenceEmbedder,
    @InjectConfig('crossEncoder') private readonly crossEncoderSettings: AppConfig['crossEncoder'],
    @InjectConfig('rankingTuning') tuning: AppConfig['rankingTuning'],
    @Inject(HOSTED_RERANKER) private readonly external: HostedRerankerClient | null,
    private readonly metrics: RerankerMetrics,
  ) {
    this.scorer = new FeatureReranker(embedder, rerankerTuningOf(tuning));
  }

  async onModuleInit(): Promise<void> {
    const settings = this.crossEncoderSettings;
    if (!settings) return;
    // A named model that cannot load stops the boot: silently ranking without it would mislead.
    const encoder = await OnnxCrossEncoder.load(settings.modelDir, { maxTokens: settings.maxTokens });
    this.crossEncoder = { encoder, topN: settings.topN };
    this.logger.log(`cross-encoder ${encoder.name} reads the builtin reranker's best ${settings.topN}`);
  }

  async onModuleDestroy(): Promise<void> {
    await this.crossEncoder?.encoder.close();
  }

  /** 'builtin', or 'builtin+onnx:<model folder>' when the cross-encoder takes part. */
  private get builtinName(): string {
    return this.crossEncoder ? `builtin+onnx:${this.crossEncoder.encoder.name}` : 'builtin';
  }

  async rerankBuiltin(
    query: string,
    candidates: RerankCandidate[],
    texts: CandidateTexts,
    topN: number,
    wordContexts?: ReadonlyMap<string, string>,
  ): Promise<RerankResponse> {
    return { provider: this.builtinName, results: await this.score(query, candidates, texts, topN, wordContexts) };
  }

  async rerankExternal(
    query: string,
    candidates: RerankCandidate[],
    texts: CandidateTexts,
    topN: number,
    wordContexts?: ReadonlyMap<string, string>,
  ): Promise<RerankResponse> {
    if (!this.external)
      return {
        provider: this.crossEncoder ? this.builtinName : 'local',
        results: await this.score(query, candidates, texts, topN, wordContexts),
      };
    const known = await texts(candidates.map((c) => c.id));
    const documents = candidates.filter((c) => known.has(c.id));
    try {
      const results = await this.external.rerank(
        query,
        documents.map((d) => known.get(d.id)!),
        topN,
      );
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
      this.metrics.fellBack(this.external.provider);
      return {
        provider: this.builtinName,
        results: await this.score(query, documents, textsFrom(known), topN, wordContexts),
        degraded: { reason },
      };
    }
  }

  private async score(
    query: string,
    candidates: RerankCandidate[],
    texts: CandidateTexts,
    topN: number,
    wordContexts?: ReadonlyMap<string, string>,
  ): Promise<RerankResult[]> {
    const cross = this.crossEncoder;
    const ranked = (await this.scorer.rerankReading(query, candidates, texts, cross ? Math.max(topN, cross.topN) : topN, wordContexts)).map(
      (r) => ({ id: r.id, score: r.score }),
    );
    if (!cross) return ranked;
    const best = await texts(ranked.slice(0, cross.topN).map((r) => r.id));
    const reread = await rerankWithCrossEncoder(cross.encoder, query, ranked, (id) => best.get(id) ?? '', cross.topN);
    return reread.slice(0, topN);
  }
}
