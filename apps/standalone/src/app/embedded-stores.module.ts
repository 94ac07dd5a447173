import * as path from 'node:path';
import { Global, Inject, Injectable, Logger, Module, type DynamicModule, type OnApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { EmbeddedBm25Index } from '@cs/embedded-bm25';
import { EmbeddedJobQueue } from '@cs/embedded-queue';
import { EmbeddedVectorIndex } from '@cs/embedded-vector';
import { LocalFilesStore } from '@cs/local-files';
import { openPglite } from '@cs/pglite';
import {
  BLOB_STORE,
  JOB_QUEUE,
  KEYWORD_INDEX,
  SQL_CLIENT,
  VECTOR_INDEX,
  type JobQueue,
  type KeywordIndex,
  type SqlClient,
  type VectorIndex,
} from '@cs/ports';
import { migrate } from '@cs/records';

/** GloVe's dimensions: the embedded vector index is sized for them. */
const DENSE_DIMENSIONS = 100;

/** Closes the stores in dependency order: stop taking jobs, then indexes, then the database. */
@Injectable()
class EmbeddedStoresLifecycle implements OnModuleDestroy, OnApplicationShutdown {
  constructor(
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(VECTOR_INDEX) private readonly vectors: VectorIndex,
    @Inject(KEYWORD_INDEX) private readonly keywords: KeywordIndex,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
  ) {}

  async onModuleDestroy(): Promise<void> {
    await this.queue.close();
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.vectors.close(), this.keywords.close()]);
    await this.sql.close();
  }
}

/** Standalone mode's stores, all in the data folder: PGlite, vector and BM25 logs, files, jobs. */
@Global()
@Module({})
export class EmbeddedStoresModule {
  static forRoot(config: AppConfig): DynamicModule {
    const logger = new Logger('EmbeddedStores');
    return {
      module: EmbeddedStoresModule,
      providers: [
        {
          provide: SQL_CLIENT,
          useFactory: async () => {
            const sql = await openPglite(path.join(config.dataDir, 'pg'));
            const ran = await migrate(sql);
            if (ran.length) logger.log(`applied migrations ${ran.join(', ')}`);
            return sql;
          },
        },
        { provide: VECTOR_INDEX, useFactory: () => EmbeddedVectorIndex.open(config.dataDir, DENSE_DIMENSIONS) },
        { provide: KEYWORD_INDEX, useFactory: () => EmbeddedBm25Index.open(config.dataDir) },
        { provide: BLOB_STORE, useValue: new LocalFilesStore(path.join(config.dataDir, 'files')) },
        {
          provide: JOB_QUEUE,
          useFactory: (sql: SqlClient) => EmbeddedJobQueue.open(sql, { onError: (e) => logger.error(`job worker stopped: ${String(e)}`) }),
          inject: [SQL_CLIENT],
        },
        EmbeddedStoresLifecycle,
      ],
      exports: [SQL_CLIENT, VECTOR_INDEX, KEYWORD_INDEX, BLOB_STORE, JOB_QUEUE],
    };
  }
}
