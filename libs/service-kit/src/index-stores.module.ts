import { Global, Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { EmbeddedBm25Index } from '@cs/embedded-bm25';
import { EmbeddedVectorIndex } from '@cs/embedded-vector';
import { KEYWORD_INDEX, VECTOR_INDEX, type KeywordIndex, type VectorIndex } from '@cs/ports';

/** GloVe's dimensions: the vector index is sized for them. */
export const DENSE_DIMENSIONS = 100;

@Injectable()
class VectorIndexLifecycle implements OnApplicationShutdown {
  constructor(@Inject(VECTOR_INDEX) private readonly index: VectorIndex) {}
  onApplicationShutdown(): Promise<void> {
    return this.index.close();
  }
}

@Injectable()
class KeywordIndexLifecycle implements OnApplicationShutdown {
  constructor(@Inject(KEYWORD_INDEX) private readonly index: KeywordIndex) {}
  onApplicationShutdown(): Promise<void> {
    return this.index.close();
  }
}

/** The dense service's vector index (the embedded one, in the data folder). */
@Global()
@Module({})
export class VectorIndexModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: VectorIndexModule,
      providers: [{ provide: VECTOR_INDEX, useFactory: () => EmbeddedVectorIndex.open(config.dataDir, DENSE_DIMENSIONS) }, VectorIndexLifecycle],
      exports: [VECTOR_INDEX],
    };
  }
}

/** The sparse service's BM25 index (the embedded one, in the data folder). */
@Global()
@Module({})
export class KeywordIndexModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: KeywordIndexModule,
      providers: [{ provide: KEYWORD_INDEX, useFactory: () => EmbeddedBm25Index.open(config.dataDir) }, KeywordIndexLifecycle],
      exports: [KEYWORD_INDEX],
    };
  }
}
