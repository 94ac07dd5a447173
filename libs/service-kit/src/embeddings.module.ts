import { Global, Module } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { SentenceEmbedder, loadWordVectors } from '@cs/embeddings';
import { APP_CONFIG, SENTENCE_EMBEDDER } from './tokens';

/** One copy of the word vectors per process, shared by the dense and reranker services. */
@Global()
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
