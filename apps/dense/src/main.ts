import './instrument';
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { requireClusterSettings } from '@cs/config';
import { addDenseService } from '@cs/grpc';
import { ConfigModule, main } from '@cs/service-kit';
import { DenseEncodersModule, PortsModule, VectorSpacesModule } from '@cs/wiring';
import { DenseModule } from './app/dense.module';
import { DenseService } from './app/dense.service';

@Module({})
class DenseProcessModule {}

/** The dense service alone: embeddings and the vector index, served over gRPC. */
main({
  name: 'dense',
  validate: (config) => requireClusterSettings(config, 'dense', ['grpcPort']),
  module: (config) => ({
    module: DenseProcessModule,
    imports: [
      ConfigModule.forRoot(config),
      DenseModule.register(PortsModule.of(DenseEncodersModule.forRoot(config), VectorSpacesModule.forRoot(config))),
    ],
  }),
  grpc: (app, server) => addDenseService(server, app.get(DenseService)),
});
