import './instrument';
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { requireClusterSettings } from '@cs/config';
import { addRerankerService } from '@cs/grpc';
import { ConfigModule, main } from '@cs/service-kit';
import { EmbeddingsModule, HostedRerankerModule, PortsModule } from '@cs/wiring';
import { RerankerModule } from './app/reranker.module';
import { RerankerService } from './app/reranker.service';

@Module({})
class RerankerProcessModule {}

/** The reranker alone: the builtin scorer and the external provider, served over gRPC. */
main({
  name: 'reranker',
  validate: (config) => requireClusterSettings(config, 'reranker', ['grpcPort']),
  module: (config) => ({
    module: RerankerProcessModule,
    imports: [
      ConfigModule.forRoot(config),
      RerankerModule.register(PortsModule.of(EmbeddingsModule, HostedRerankerModule.forRoot(config))),
    ],
  }),
  grpc: (app, server) => addRerankerService(server, app.get(RerankerService)),
});
