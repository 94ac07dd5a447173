import { Module, type DynamicModule } from '@nestjs/common';
import type { ModuleImport } from '@cs/wiring';
import { AdminModule } from './admin/admin.module';
import { DocumentsModule } from './documents/documents.module';
import { GroupsModule } from './groups/groups.module';
import { HealthModule } from './health/health.module';
import { HttpEdgeModule } from './http/http-edge.module';
import { UnmatchedRoutesModule } from './http/unmatched-route';
import { SearchesModule } from './searches/searches.module';
import { SavedSearchesModule } from './saved-searches/saved-searches.module';
import { ShortlistsModule } from './shortlists/shortlists.module';

/** HTTP: auth, rate limits, the /v1/public contract, the admin API and OpenAPI, one feature module each. */
@Module({})
export class GatewayModule {
  /** `ports` binds what its providers inject (see @cs/wiring's PortsModule). */
  static register(ports: ModuleImport): DynamicModule {
    // Each made once and handed to the modules that import it: Nest keeps one instance per module object.
    const edge = HttpEdgeModule.register(ports);
    const searches = SearchesModule.register(ports, edge);
    return {
      module: GatewayModule,
      // Routes are tried in the order their modules are first imported: groups before searches, as
      // `/searches/groups` must not be taken for a search id; the unmatched routes last, since they take every /v1/public path.
      imports: [
        GroupsModule.register(ports, searches),
        searches,
        DocumentsModule.register(ports, searches),
        ShortlistsModule.register(ports),
        SavedSearchesModule.register(ports),
        AdminModule.register(ports),
        HealthModule.register(ports),
        edge,
        UnmatchedRoutesModule,
      ],
    };
  }
}
