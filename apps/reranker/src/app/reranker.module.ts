import { Module, type DynamicModule } from '@nestjs/common';
import { RERANKER_CLIENT } from '@cs/ports';
import type { ModuleImport } from '@cs/wiring';
import { RerankerMetrics } from './reranker-metrics';
import { RerankerService } from './reranker.service';

/** The reranker; in one process its service is the RerankerClient others call. */
@Module({
  providers: [RerankerMetrics, RerankerService, { provide: RERANKER_CLIENT, useExisting: RerankerService }],
  exports: [RERANKER_CLIENT, RerankerService],
})
export class RerankerModule {
  /** `ports` binds what its providers inject (see @cs/wiring's PortsModule). */
  static register(ports: ModuleImport): DynamicModule {
    return { module: RerankerModule, imports: [ports] };
  }
}
