import './instrument';
import 'reflect-metadata';
import { main } from '@cs/service-kit';
import { configureGatewayHttp } from '../../gateway/src/app/http-setup';
import { standaloneConsoleFiles } from './app/console-files';
import { StandaloneModule } from './app/standalone.module';

/** Every service in one process on embedded stores: `npm start`. */
main({
  name: 'standalone',
  module: (config, dataDirStore) => StandaloneModule.forRoot(config, dataDirStore),
  http: async (app, config) => configureGatewayHttp(app, config, await standaloneConsoleFiles(config)),
  ownsDataDir: true,
});
