import { Module, type DynamicModule } from '@nestjs/common';
import { DENSE_CLIENT } from '@cs/ports';
import type { ModuleImport } from '@cs/wiring';
import { DenseService } from './dense.service';

/** The dense service; in one process its service is the DenseClient others call. */
@Module({
  providers: [DenseService, { provide: DENSE_CLIENT, useExisting: DenseService }],
  exports: [DENSE_CLIENT, DenseService],
})
export class DenseModule {
  /** `ports` binds what its providers inject (see @cs/wiring's PortsModule). */
  static register(ports: ModuleImport): DynamicModule {
    return { module: DenseModule, imports: [ports] };
  }
}
