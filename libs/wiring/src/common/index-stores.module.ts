import { Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import { QdrantClient } from '@qdrant/js-client-rest';
import type { AppConfig } from '@cs/config';
import { ElasticsearchKeywordIndex, type ElasticsearchApi } from '@cs/elasticsearch';
import { EmbeddedBm25Index } from '@cs/embedded-bm25';
import { EmbeddedVectorIndex } from '@cs/embedded-vector';
import { QdrantVectorIndex } from '@cs/qdrant';
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

/** The dense service's vector index: Qdrant when QDRANT_URL is set, else the embedded one. */
@Module({})
export class VectorIndexModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: VectorIndexModule,
      providers: [
        {
          provide: VECTOR_INDEX,
          useFactory: () => {
            const qdrant = config.cluster.qdrant;
            if (!qdrant) return EmbeddedVectorIndex.open(config.dataDir, DENSE_DIMENSIONS);
            const client = new QdrantClient({ url: qdrant.url, apiKey: qdrant.apiKey, timeout: qdrant.timeoutMs });
            return QdrantVectorIndex.open(client, qdrant.collection, DENSE_DIMENSIONS);
          },
        },
        VectorIndexLifecycle,
      ],
      exports: [VECTOR_INDEX],
    };
  }
}

/** The sparse service's BM25 index: Elasticsearch when ELASTICSEARCH_URL is set, else the embedded one. */
@Module({})
export class KeywordIndexModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: KeywordIndexModule,
      providers: [
        {
          provide: KEYWORD_INDEX,
          useFactory: () => {
            const es = config.cluster.elasticsearch;
            if (!es) return EmbeddedBm25Index.open(config.dataDir);
            const client = new ElasticsearchClient({ node: es.url, requestTimeout: es.timeoutMs });
            return ElasticsearchKeywordIndex.open(client as unknown as ElasticsearchApi, es.index);
          },
        },
        KeywordIndexLifecycle,
      ],
      exports: [KEYWORD_INDEX],
    };
  }
}
