import { Module, type DynamicModule } from '@nestjs/common';
import type { ModuleImport } from '@cs/wiring';
import { GatewaySecretsModule } from '../gateway-secrets';
import { AdminTokenGuard } from './admin-token.guard';
import { AdminController } from './admin.controller';
import { DenseController } from './dense.controller';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/** The admin API behind ADMIN_TOKEN: companies and keys, dead letters, dense reindexes, webhooks. */
@Module({})
export class AdminModule {
  /** `ports` binds what its providers inject (see @cs/wiring's PortsModule). */
  static register(ports: ModuleImport): DynamicModule {
    return {
      module: AdminModule,
      imports: [ports, GatewaySecretsModule],
      controllers: [AdminController, DenseController, WebhooksController],
      providers: [AdminTokenGuard, WebhooksService],
    };
  }
}
