import * as path from 'node:path';
import { Inject, Injectable, Logger, Module, type DynamicModule, type OnApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { LocalFilesStore } from '@cs/local-files';
import type { PgliteDatabase } from '@cs/pglite';
import { BLOB_STORE, JOB_QUEUE, NOTIFICATION_LISTENER, SQL_CLIENT, type JobQueue, type SqlClient } from '@cs/ports';
import { migrate } from '@cs/records';
import { MetricsRegistry, ProcessLifecycle } from '@cs/service-kit';
import { observeQueue } from '../common/queue-metrics';

/** Stops taking jobs first, closes the database last (the indexes close in between). */
@Injectable()
class EmbeddedStoresLifecycle implements OnModuleDestroy, OnApplicationShutdown {
  constructor(
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
  ) {}

  async onModuleDestroy(): Promise<void> {
    await this.queue.close();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sql.close();
  }
}

/**
 * Standalone mode's stores, all in the data folder: PGlite, files, jobs (the indexes are
 * VectorSpacesModule's and KeywordIndexModule's). PGlite and the queue are loaded (import()) only
 * here, so the cluster's services, which import this module's library too, load neither.
 */
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
            const { openPglite } = await import('@cs/pglite');
            const sql = await openPglite(path.join(config.dataDir, 'pg'));
            const ran = await migrate(sql);
            if (ran.length) logger.log(`applied migrations ${ran.join(', ')}`);
            return sql;
          },
        },
        { provide: NOTIFICATION_LISTENER, useFactory: (sql: PgliteDatabase) => sql.notifications, inject: [SQL_CLIENT] },
        { provide: BLOB_STORE, useValue: new LocalFilesStore(path.join(config.dataDir, 'files')) },
        {
          provide: JOB_QUEUE,
          useFactory: async (sql: SqlClient, metrics: MetricsRegistry, lifecycle: ProcessLifecycle) => {
            const { EmbeddedJobQueue } = await import('@cs/embedded-queue');
            const queue = await EmbeddedJobQueue.open(sql, {
              shutdownGraceMs: config.shutdownGraceMs,
              onError: (e) => logger.error(`job worker stopped: ${String(e)}`),
            });
            return observeQueue(queue, metrics, lifecycle);
          },
          inject: [SQL_CLIENT, MetricsRegistry, ProcessLifecycle],
        },
        EmbeddedStoresLifecycle,
      ],
      exports: [SQL_CLIENT, NOTIFICATION_LISTENER, BLOB_STORE, JOB_QUEUE],
    };
  }
}
