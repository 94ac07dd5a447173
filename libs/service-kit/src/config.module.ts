import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { APP_CONFIG, configPart } from './tokens';

/** Makes the validated config injectable everywhere, whole or by part (only the config lib reads the env). */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    // A factory, not a value: Nest takes a provider whose useValue is undefined (an unset part) for a class.
    const parts = (Object.keys(config) as (keyof AppConfig)[]).map((key) => ({ provide: configPart(key), useFactory: () => config[key] }));
    const tokens = [APP_CONFIG, ...parts.map((p) => p.provide)];
    return { module: ConfigModule, providers: [{ provide: APP_CONFIG, useValue: config }, ...parts], exports: tokens };
  }
}
