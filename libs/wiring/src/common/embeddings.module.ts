import { Module } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { SentenceEmbedder, loadWordVectors } from '@cs/embeddings';
import { APP_CONFIG } from '@cs/service-kit';

export const SENTENCE_EMBEDDER = Symbol('SentenceEmbedder');

/** One copy of the word vectors per process, shared by the dense and reranker services (a static module: one instance). */
@Module({
  providers: [
    {
      provide: SENTENCE_EMBEDDER,
      useFactory: async (config: AppConfig) => new SentenceEmbedder(await loadWordVectors(config.embeddingsCacheDir)),
      inject: [APP_CONFIG],
    },
  ],
  exports: [SENTENCE_EMBEDDER],
})
export class EmbeddingsModule {}
