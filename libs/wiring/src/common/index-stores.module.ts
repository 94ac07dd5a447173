import { Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import type { ElasticsearchApi } from '@cs/elasticsearch';
import { KEYWORD_INDEX, VECTOR_SPACES, type KeywordIndex, type VectorSpaces } from '@cs/ports';

// Each store's adapter is loaded only where it is the one configured (import() in the factory):
// a process loads one engine, not Qdrant's and Elasticsearch's clients besides (hundreds of
// modules at every start).

@Injectable()
class VectorSpacesLifecycle implements OnApplicationShutdown {
  constructor(@Inject(VECTOR_SPACES) private readonly spaces: VectorSpaces) {}
  onApplicationShutdown(): Promise<void> {
    return this.spaces.close();
  }
}

@Injectable()
class KeywordIndexLifecycle implements OnApplicationShutdown {
  constructor(@Inject(KEYWORD_INDEX) private readonly index: KeywordIndex) {}
  onApplicationShutdown(): Promise<void> {
    return this.index.close();
  }
}

/** The dense service's vector sets: Qdrant when QDRANT_URL is set, else the embedded one in DATA_DIR. */
@Module({})
export class VectorSpacesModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: VectorSpacesModule,
      providers: [
        {
          provide: VECTOR_SPACES,
          useFactory: async (): Promise<VectorSpaces> => {
            const qdrant = config.cluster.qdrant;
            if (qdrant) {
              const [{ QdrantClient }, { QdrantVectorSpaces }] = await Promise.all([
                import('@qdrant/js-client-rest'),
                import('@cs/qdrant'),
              ]);
              const client = new QdrantClient({ url: qdrant.url, apiKey: qdrant.apiKey, timeout: qdrant.timeoutMs });
              return new QdrantVectorSpaces(client, qdrant.collection);
            }
            const { EmbeddedVectorSpaces } = await import('@cs/embedded-vector');
            return EmbeddedVectorSpaces.open(config.dataDir);
          },
        },
        VectorSpacesLifecycle,
      ],
      exports: [VECTOR_SPACES],
    };
  }
}

/** The sparse service's BM25 index: Elasticsearch when ELASTICSEARCH_URL is set, else the embedded one in DATA_DIR. */
@Module({})
export class KeywordIndexModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: KeywordIndexModule,
      providers: [
        {
          provide: KEYWORD_INDEX,
          useFactory: async (): Promise<KeywordIndex> => {
            const es = config.cluster.elasticsearch;
            if (es) {
              const [{ Client }, { ElasticsearchKeywordIndex }] = await Promise.all([
                import('@elastic/elasticsearch'),
                import('@cs/elasticsearch'),
              ]);
              const client = new Client({ node: es.url, requestTimeout: es.timeoutMs });
              return ElasticsearchKeywordIndex.open(client as unknown as ElasticsearchApi, es.index);
            }
            const { EmbeddedBm25Index } = await import('@cs/embedded-bm25');
            return EmbeddedBm25Index.open(config.dataDir);
          },
        },
        KeywordIndexLifecycle,
      ],
      exports: [KEYWORD_INDEX],
    };
  }
}
