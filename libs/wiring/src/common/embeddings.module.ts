import { Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { SentenceEmbedder, WordNet, loadWordVectors } from '@cs/embeddings';
import { embedderTuningOf } from '@cs/ranking';
import { DENSE_ENCODER, DENSE_ENCODER_NEXT, type DenseEncoder } from '@cs/ports';
import { configPart } from '@cs/service-kit';
import { createDenseEncoder } from './dense-encoder.factory';

export const SENTENCE_EMBEDDER = Symbol('SentenceEmbedder');

/**
 * One copy of the word vectors (and of WordNet's index files, 6 MB, for typo repair and query
 * words' synonyms) per process, shared by the builtin dense model and the reranker's features
 * (a static module: one instance).
 */
@Module({
  providers: [
    {
      provide: SENTENCE_EMBEDDER,
      useFactory: async (cacheDir: AppConfig['embeddingsCacheDir'], tuning: AppConfig['rankingTuning']) => {
        const embedder = new SentenceEmbedder(await loadWordVectors(cacheDir), await WordNet.load(), { tuning: embedderTuningOf(tuning) });
        // In the background: a query that comes first builds what it needs itself.
        void embedder.warmUp();
        return embedder;
      },
      inject: [configPart('embeddingsCacheDir'), configPart('rankingTuning')],
    },
  ],
  exports: [SENTENCE_EMBEDDER],
})
export class EmbeddingsModule {}

@Injectable()
class DenseEncodersLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(DENSE_ENCODER) private readonly encoder: DenseEncoder,
    @Inject(DENSE_ENCODER_NEXT) private readonly next: DenseEncoder | null,
  ) {}
  async onApplicationShutdown(): Promise<void> {
    await this.encoder.close();
    await this.next?.close();
  }
}

/**
 * The dense service's encoders: DENSE_MODEL's, and DENSE_MODEL_NEXT's (null when unset). Only
 * the dense service imports it, so no other service loads a model it never runs; the word
 * vectors load only when a model is builtin.
 */
@Module({})
export class DenseEncodersModule {
  static forRoot(config: AppConfig): DynamicModule {
    const needsWords = config.denseModel.kind === 'builtin' || config.denseModelNext?.kind === 'builtin';
    const words = needsWords ? [SENTENCE_EMBEDDER] : [];
    return {
      module: DenseEncodersModule,
      imports: needsWords ? [EmbeddingsModule] : [],
      providers: [
        {
          provide: DENSE_ENCODER,
          useFactory: (embedder?: SentenceEmbedder) =>
            createDenseEncoder(config.denseModel, embedder, config.rankingTuning.denseFeedbackWeight),
          inject: words,
        },
        {
          provide: DENSE_ENCODER_NEXT,
          useFactory: (embedder?: SentenceEmbedder) =>
            config.denseModelNext
              ? createDenseEncoder(config.denseModelNext, embedder, config.rankingTuning.denseFeedbackWeight)
              : Promise.resolve(null),
          inject: words,
        },
        DenseEncodersLifecycle,
      ],
      exports: [DENSE_ENCODER, DENSE_ENCODER_NEXT],
    };
  }
}
