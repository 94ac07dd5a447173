import './instrument';
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { requireClusterSettings } from '@cs/config';
import { addSparseService } from '@cs/grpc';
import { ConfigModule, main } from '@cs/service-kit';
import { KeywordIndexModule } from '@cs/wiring';
import { SparseModule } from './app/sparse.module';
import { SparseService } from './app/sparse.service';

@Module({})
class SparseProcessModule {}

/** The sparse service alone: the BM25 index, served over gRPC. */
main({
  name: 'sparse',
  validate: (config) => requireClusterSettings(config, 'sparse', ['grpcPort']),
  module: (config) => ({
    module: SparseProcessModule,
    imports: [ConfigModule.forRoot(config), SparseModule.register(KeywordIndexModule.forRoot(config))],
  }),
  grpc: (app, server) => addSparseService(server, app.get(SparseService)),
});
