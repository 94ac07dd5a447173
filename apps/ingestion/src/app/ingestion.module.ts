import { Module } from '@nestjs/common';
import { IngestDocumentHandler } from './ingest-document.handler';

/** Consumes ingestion jobs; needs the stores, the dense and sparse clients and the queue. */
@Module({ providers: [IngestDocumentHandler] })
export class IngestionModule {}
