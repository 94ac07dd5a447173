import { Global, Module } from '@nestjs/common';
import { DENSE_CLIENT } from '@cs/ports';
import { DenseService } from './dense.service';

/** The dense service; in one process its service is the DenseClient others call. */
@Global()
@Module({
  providers: [DenseService, { provide: DENSE_CLIENT, useExisting: DenseService }],
  exports: [DENSE_CLIENT, DenseService],
})
export class DenseModule {}
