import './instrument';
import 'reflect-metadata';
import { main } from '@cs/service-kit';
import { configureGatewayHttp } from '../../gateway/src/app/http-setup';
import { StandaloneModule } from './app/standalone.module';

/** Every service in one process on embedded stores: `npm start`. */
main({
  name: 'standalone',
  module: (config) => StandaloneModule.forRoot(config),
  http: (app) => configureGatewayHttp(app),
});
