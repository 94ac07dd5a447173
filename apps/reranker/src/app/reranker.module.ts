import { Global, Module } from '@nestjs/common';
import { RERANKER_CLIENT } from '@cs/ports';
import { RerankerService } from './reranker.service';

@Global()
@Module({
  providers: [RerankerService, { provide: RERANKER_CLIENT, useExisting: RerankerService }],
  exports: [RERANKER_CLIENT, RerankerService],
})
export class RerankerModule {}
