import { Module, type DynamicModule } from '@nestjs/common';
import type { ModuleImport } from '@cs/wiring';
import { EndedSearchAnswers } from './ended-search-answers';
import { EndedSearchReads } from './ended-search-reads';
import { SearchEventsService } from './search-events.service';
import { SearchWaitersService } from './search-waiters.service';
import { SearchesController } from './searches.controller';
import { SearchFilterResolver } from './search-filter-resolver';
import { SearchesService } from './searches.service';

/** Searches: creating them, their status (waited for, or streamed), their results, and the ended ones' kept answers. */
@Module({})
export class SearchesModule {
  /** `ports` binds what its providers inject; `edge` is the gateway's HttpEdgeModule, whose pipeline the kept reads go through. */
  static register(ports: ModuleImport, edge: ModuleImport): DynamicModule {
    return {
      module: SearchesModule,
      imports: [ports, edge],
      controllers: [SearchesController],
      providers: [SearchesService, SearchFilterResolver, EndedSearchAnswers, EndedSearchReads, SearchWaitersService, SearchEventsService],
      exports: [SearchesService, EndedSearchAnswers, EndedSearchReads, SearchWaitersService],
    };
  }
}
