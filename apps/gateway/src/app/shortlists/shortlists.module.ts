import { Module, type DynamicModule } from '@nestjs/common';
import type { ModuleImport } from '@cs/wiring';
import { ShortlistsController } from './shortlists.controller';
import { ShortlistsService } from './shortlists.service';

/** Shortlists: named lists of a company's CVs, each with a note, and their CSV export. */
@Module({})
export class ShortlistsModule {
  /** `ports` binds what its providers inject. */
  static register(ports: ModuleImport): DynamicModule {
    return { module: ShortlistsModule, imports: [ports], controllers: [ShortlistsController], providers: [ShortlistsService] };
  }
}
