import { Module, type DynamicModule } from '@nestjs/common';
import { SPARSE_CLIENT } from '@cs/ports';
import type { ModuleImport } from '@cs/wiring';
import { SparseService } from './sparse.service';

/** The sparse service; in one process its service is the SparseClient others call. */
@Module({
  providers: [SparseService, { provide: SPARSE_CLIENT, useExisting: SparseService }],
  exports: [SPARSE_CLIENT, SparseService],
})
export class SparseModule {
  /** `ports` binds what its providers inject (see @cs/wiring's PortsModule). */
  static register(ports: ModuleImport): DynamicModule {
    return { module: SparseModule, imports: [ports] };
  }
}
