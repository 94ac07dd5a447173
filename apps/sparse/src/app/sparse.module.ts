import { Global, Module } from '@nestjs/common';
import { SPARSE_CLIENT } from '@cs/ports';
import { SparseService } from './sparse.service';

@Global()
@Module({
  providers: [SparseService, { provide: SPARSE_CLIENT, useExisting: SparseService }],
  exports: [SPARSE_CLIENT, SparseService],
})
export class SparseModule {}
