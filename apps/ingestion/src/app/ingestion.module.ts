import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { TextExtractor } from '@cs/document-parsing';
import { configPart } from '@cs/service-kit';
import type { ModuleImport } from '@cs/wiring';
import { DenseReindexRunner } from './dense-reindex.runner';
import { DocumentWatchdogService } from './document-watchdog.service';
import { IngestDocumentHandler } from './ingest-document.handler';
import { IngestionMetrics } from './ingestion-metrics';
import { ProfileRefresh } from './profile-refresh.service';

/** Consumes ingestion jobs and carries out dense reindexes; needs the stores, the dense and sparse clients and the queue. */
@Module({
  providers: [
    {
      provide: TextExtractor,
      inject: [configPart('parseWorkers')],
      useFactory: (workers: AppConfig['parseWorkers']) => new TextExtractor(workers),
    },
    IngestionMetrics,
    IngestDocumentHandler,
    DocumentWatchdogService,
    DenseReindexRunner,
    ProfileRefresh,
  ],
})
export class IngestionModule implements OnApplicationShutdown {
  constructor(@Inject(TextExtractor) private readonly extractor: TextExtractor) {}

  /** `ports` binds what its providers inject (see @cs/wiring's PortsModule). */
  static register(ports: ModuleImport): DynamicModule {
    return { module: IngestionModule, imports: [ports] };
  }

  /**
   * Not at module destroy: Nest destroys modules nearest the root first, so this module would
   * go before the stores, and a parse still running would lose its thread while the queue
   * waits for it. Shutdown hooks come after every queue has closed.
   */
  onApplicationShutdown(): Promise<void> {
    return this.extractor.close();
  }
}
