import { Module } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { SentenceEmbedder, WordNet, loadWordVectors } from '@cs/embeddings';
import { DENSE_ENCODER } from '@cs/ports';
import { APP_CONFIG } from '@cs/service-kit';
import { createDenseEncoder } from './dense-encoder.factory';

export const SENTENCE_EMBEDDER = Symbol('SentenceEmbedder');

/**
 * One copy of the word vectors (and of WordNet's index files, 6 MB, for typo repair and query
 * words' synonyms) per process, shared by the builtin dense encoder and the
 * reranker's features, and the dense encoder DENSE_MODEL names (a static module: one instance).
 */
@Module({
  providers: [
    {
      provide: SENTENCE_EMBEDDER,
      useFactory: async (config: AppConfig) => {
        const embedder = new SentenceEmbedder(await loadWordVectors(config.embeddingsCacheDir), await WordNet.load());
        // In the background: a query that comes first builds what it needs itself.
        void embedder.warmUp();
        return embedder;
      },
      inject: [APP_CONFIG],
    },
    {
      provide: DENSE_ENCODER,
      useFactory: (config: AppConfig, embedder: SentenceEmbedder) => createDenseEncoder(config.denseModel, embedder),
      inject: [APP_CONFIG, SENTENCE_EMBEDDER],
    },
  ],
  exports: [SENTENCE_EMBEDDER, DENSE_ENCODER],
})
export class EmbeddingsModule {}
