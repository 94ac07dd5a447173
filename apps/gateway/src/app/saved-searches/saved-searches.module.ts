import { Module, type DynamicModule } from '@nestjs/common';
import type { ModuleImport } from '@cs/wiring';
import { SearchFilterResolver } from '../searches/search-filter-resolver';
import { SavedSearchesController } from './saved-searches.controller';
import { SavedSearchesService } from './saved-searches.service';

/** Saved searches: a query and its filters kept by name, and the CVs read since that entered its first page. */
@Module({})
export class SavedSearchesModule {
  /** `ports` binds what its providers inject. */
  static register(ports: ModuleImport): DynamicModule {
    return {
      module: SavedSearchesModule,
      imports: [ports],
      controllers: [SavedSearchesController],
      providers: [SavedSearchesService, SearchFilterResolver],
    };
  }
}
