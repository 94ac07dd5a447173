import { Injectable, Logger, Module, type DynamicModule, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { JOB_QUEUE, SQL_CLIENT, type JobQueue, type SqlClient } from '@cs/ports';
import { OutboxRelay } from '@cs/records';
import type { ModuleImport } from './ports.module';

/** Polls from the start (what a stopped process left), and stops before the stores close. */
@Injectable()
class OutboxRelayLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(private readonly relay: OutboxRelay) {}

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.relay.close();
  }
}

/**
 * The transactional outbox's relay, for the processes that write records with jobs (the gateway;
 * standalone's one process): their services write through it, and it publishes to the JobQueue
 * the mode binds.
 */
@Module({})
export class OutboxModule {
  /** `stores` binds the SqlClient the records are written through and the JobQueue the relay publishes to. */
  static over(stores: ModuleImport): DynamicModule {
    return {
      module: OutboxModule,
      imports: [stores],
      providers: [
        {
          provide: OutboxRelay,
          useFactory: (sql: SqlClient, queue: JobQueue) => {
            const logger = new Logger('OutboxRelay');
            return new OutboxRelay(sql, queue, {
              onError: (message, error) => logger.warn(`${message}: ${error instanceof Error ? error.message : String(error)}`),
            });
          },
          inject: [SQL_CLIENT, JOB_QUEUE],
        },
        OutboxRelayLifecycle,
      ],
      exports: [OutboxRelay],
    };
  }
}
