import { Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import { QdrantClient } from '@qdrant/js-client-rest';
import type { AppConfig } from '@cs/config';
import { ElasticsearchKeywordIndex, type ElasticsearchApi } from '@cs/elasticsearch';
import { EmbeddedBm25Index } from '@cs/embedded-bm25';
import { EmbeddedVectorSpaces } from '@cs/embedded-vector';
import { LanceDbKeywordIndex, LanceDbVectorSpaces, lanceSession } from '@cs/lancedb';
import { QdrantVectorSpaces } from '@cs/qdrant';
import { KEYWORD_INDEX, VECTOR_SPACES, type KeywordIndex, type VectorSpaces } from '@cs/ports';

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

/** The dense service's vector sets: Qdrant when QDRANT_URL is set, else the embedded store STANDALONE_STORE names. */
@Module({})
export class VectorSpacesModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: VectorSpacesModule,
      providers: [
        {
          provide: VECTOR_SPACES,
          useFactory: () => {
            const qdrant = config.cluster.qdrant;
            if (!qdrant)
              return config.standaloneStore === 'lancedb'
                ? LanceDbVectorSpaces.open(config.dataDir, { tables: { session: lanceSession(config.lancedbCacheMb) } })
                : EmbeddedVectorSpaces.open(config.dataDir);
            const client = new QdrantClient({ url: qdrant.url, apiKey: qdrant.apiKey, timeout: qdrant.timeoutMs });
            return new QdrantVectorSpaces(client, qdrant.collection);
          },
        },
        VectorSpacesLifecycle,
      ],
      exports: [VECTOR_SPACES],
    };
  }
}

/** The sparse service's BM25 index: Elasticsearch when ELASTICSEARCH_URL is set, else the embedded store STANDALONE_STORE names. */
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
            if (!es)
              return config.standaloneStore === 'lancedb'
                ? LanceDbKeywordIndex.open(config.dataDir, { session: lanceSession(config.lancedbCacheMb) })
                : EmbeddedBm25Index.open(config.dataDir);
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
