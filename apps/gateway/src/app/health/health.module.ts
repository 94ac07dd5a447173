import { Module, type DynamicModule } from '@nestjs/common';
import type { ModuleImport } from '@cs/wiring';
import { HealthController } from './health.controller';
import { ReadinessService } from './readiness';

/** `/healthz` and `/readyz`. */
@Module({})
export class HealthModule {
  /** `ports` binds what its providers inject (see @cs/wiring's PortsModule). */
  static register(ports: ModuleImport): DynamicModule {
    return { module: HealthModule, imports: [ports], controllers: [HealthController], providers: [ReadinessService] };
  }
}
