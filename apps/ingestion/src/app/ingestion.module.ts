import { Module, type OnModuleDestroy, Inject } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { TextExtractor } from '@cs/document-parsing';
import { APP_CONFIG } from '@cs/service-kit';
import { IngestDocumentHandler } from './ingest-document.handler';

/** Consumes ingestion jobs; needs the stores, the dense and sparse clients and the queue. */
@Module({
  providers: [
    { provide: TextExtractor, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new TextExtractor(config.parseWorkers) },
    IngestDocumentHandler,
  ],
})
export class IngestionModule implements OnModuleDestroy {
  constructor(@Inject(TextExtractor) private readonly extractor: TextExtractor) {}

  /** After the queue has stopped handing out jobs: the parsing threads end with the process. */
  onModuleDestroy(): Promise<void> {
    return this.extractor.close();
  }
}
