import { Module, type DynamicModule } from '@nestjs/common';
import type { ModuleImport } from '@cs/wiring';
import { GroupsController } from './groups.controller';
import { GroupsService } from './groups.service';

/** Search groups: the searches one request started, read together. */
@Module({})
export class GroupsModule {
  /** `ports` binds what its providers inject; `searches` is the gateway's SearchesModule. */
  static register(ports: ModuleImport, searches: ModuleImport): DynamicModule {
    return { module: GroupsModule, imports: [ports, searches], controllers: [GroupsController], providers: [GroupsService] };
  }
}
