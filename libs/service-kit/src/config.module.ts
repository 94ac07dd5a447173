import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { APP_CONFIG } from './tokens';

/** Makes the validated config injectable everywhere (only the config lib reads the env). */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] };
  }
}
