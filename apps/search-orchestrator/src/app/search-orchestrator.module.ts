import { Module } from '@nestjs/common';
import { DocumentTexts } from './document-texts';
import { RunSearchHandler } from './run-search.handler';
import { SearchPipelineService } from './search-pipeline.service';
import { SearchWatchdogService } from './search-watchdog.service';

/** Consumes search jobs: legs -> fusion -> rerank -> stored results; and the watchdog. */
@Module({ providers: [DocumentTexts, SearchPipelineService, RunSearchHandler, SearchWatchdogService] })
export class SearchOrchestratorModule {}
