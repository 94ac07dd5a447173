import * as path from 'node:path';
import {
  Inject,
  Injectable,
  Logger,
  Module,
  Optional,
  type DynamicModule,
  type OnApplicationShutdown,
  type OnModuleDestroy,
  type Provider,
} from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { GrpcDenseClient, GrpcRerankerClient, GrpcSparseClient } from '@cs/grpc';
import { LocalFilesStore } from '@cs/local-files';
import {
  BLOB_STORE,
  DENSE_CLIENT,
  JOB_QUEUE,
  NOTIFICATION_LISTENER,
  RERANKER_CLIENT,
  SPARSE_CLIENT,
  SQL_CLIENT,
  type JobQueue,
  type NotificationListener,
  type SqlClient,
} from '@cs/ports';
import { migrate } from '@cs/records';
import { MetricsRegistry, ProcessLifecycle } from '@cs/service-kit';
import { observeQueue } from '../common/queue-metrics';

/** The pool's connections at each scrape: a pool spent shows as requests waiting for one. */
function observeSqlPool(sql: SqlClient, metrics: MetricsRegistry): void {
  metrics.gauge('cs_db_pool_connections', 'PostgreSQL pool connections: total, idle, and requests waiting for one', ['state'], (pool) => {
    const stats = sql.poolStats?.() ?? { total: 0, idle: 0, waiting: 0 };
    for (const state of ['total', 'idle', 'waiting'] as const) pool.set({ state }, stats[state]);
  });
}

/** What one cluster service needs bound; each is a real adapter of the cluster column. */
export interface ClusterNeeds {
  sql?: boolean;
  /** LISTEN on PostgreSQL (a connection of its own). */
  notifications?: boolean;
  queue?: boolean;
  blobs?: boolean;
  dense?: boolean;
  sparse?: boolean;
  reranker?: boolean;
}

type Closable = { close(): void | Promise<void> };

@Injectable()
class ClusterLifecycle implements OnModuleDestroy, OnApplicationShutdown {
  constructor(
    @Optional() @Inject(JOB_QUEUE) private readonly queue?: JobQueue,
    @Optional() @Inject(SQL_CLIENT) private readonly sql?: SqlClient,
    @Optional() @Inject(DENSE_CLIENT) private readonly dense?: Closable,
    @Optional() @Inject(SPARSE_CLIENT) private readonly sparse?: Closable,
    @Optional() @Inject(RERANKER_CLIENT) private readonly reranker?: Closable,
    @Optional() @Inject(NOTIFICATION_LISTENER) private readonly notifications?: NotificationListener,
  ) {}

  async onModuleDestroy(): Promise<void> {
    await this.queue?.close();
  }

  async onApplicationShutdown(): Promise<void> {
    for (const client of [this.dense, this.sparse, this.reranker, this.notifications]) await client?.close();
    await this.sql?.close();
  }
}

/**
 * Binds the ports to PostgreSQL, NATS JetStream, the file store and gRPC clients. Each adapter is
 * loaded (import()) only by a service that needs it: standalone, which imports this module's
 * library too, loads none of them, and the sparse service no S3 client. (@cs/grpc is loaded by
 * every service, for service-kit.)
 */
@Module({})
export class ClusterStoresModule {
  static forRoot(config: AppConfig, needs: ClusterNeeds): DynamicModule {
    const logger = new Logger('ClusterStores');
    const { cluster } = config;
    const providers: Provider[] = [];
    if (needs.sql) {
      providers.push({
        provide: SQL_CLIENT,
        useFactory: async (metrics: MetricsRegistry) => {
          const { openPostgres } = await import('@cs/postgres');
          const sql = await openPostgres({ connectionString: cluster.databaseUrl! });
          observeSqlPool(sql, metrics);
          const ran = await migrate(sql);
          if (ran.length) logger.log(`applied migrations ${ran.join(', ')}`);
          return sql;
        },
        inject: [MetricsRegistry],
      });
    }
    if (needs.notifications) {
      providers.push({
        provide: NOTIFICATION_LISTENER,
        useFactory: async () =>
          new (await import('@cs/postgres')).PostgresNotificationListener({
            connectionString: cluster.databaseUrl!,
            onError: (e) => logger.warn(`database notifications: ${e.message}; reconnecting`),
          }),
      });
    }
    if (needs.queue) {
      providers.push({
        provide: JOB_QUEUE,
        useFactory: async (metrics: MetricsRegistry, lifecycle: ProcessLifecycle) => {
          const { NatsJobQueue } = await import('@cs/nats');
          const queue = await NatsJobQueue.open({
            servers: cluster.natsUrl!,
            prefix: cluster.natsPrefix,
            shutdownGraceMs: config.shutdownGraceMs,
            ackWaitMs: cluster.jobsAckWaitMs,
            connectionName: `candidate-search-${process.pid}`,
            onError: (e) => logger.warn(`job queue: ${e instanceof Error ? e.message : String(e)}`),
            onFatal: (reason) => lifecycle.fail(reason),
          });
          return observeQueue(queue, metrics, lifecycle);
        },
        inject: [MetricsRegistry, ProcessLifecycle],
      });
    }
    if (needs.blobs) {
      const s3 = cluster.s3;
      providers.push(
        s3
          ? { provide: BLOB_STORE, useFactory: async () => (await import('@cs/s3')).S3BlobStore.open(s3) }
          : { provide: BLOB_STORE, useValue: new LocalFilesStore(path.join(config.dataDir, 'files')) },
      );
    }
    if (needs.dense) providers.push({ provide: DENSE_CLIENT, useValue: new GrpcDenseClient(cluster.denseAddress, cluster.grpcTimeoutMs) });
    if (needs.sparse)
      providers.push({ provide: SPARSE_CLIENT, useValue: new GrpcSparseClient(cluster.sparseAddress, cluster.grpcTimeoutMs) });
    if (needs.reranker)
      providers.push({ provide: RERANKER_CLIENT, useValue: new GrpcRerankerClient(cluster.rerankerAddress, cluster.grpcTimeoutMs) });
    const tokens = providers.map((p) => (p as { provide: symbol }).provide);
    return { module: ClusterStoresModule, providers: [...providers, ClusterLifecycle], exports: tokens };
  }
}
