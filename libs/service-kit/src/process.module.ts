import { Global, Module, type DynamicModule } from '@nestjs/common';
import { MetricsRegistry } from './metrics';
import { ProcessLifecycle } from './process-lifecycle';

/**
 * What there is one of per process, injectable everywhere: its metrics registry (each subsystem
 * defines its own families on it) and its lifecycle (draining, liveness, failing). runService
 * gives it to every service's module.
 */
@Global()
@Module({})
export class ProcessModule {
  /** `service`: the `component` label of every metric (the name `main` starts). */
  static forRoot(service: string): DynamicModule {
    return {
      module: ProcessModule,
      providers: [
        { provide: MetricsRegistry, useFactory: () => new MetricsRegistry(service) },
        { provide: ProcessLifecycle, useFactory: () => new ProcessLifecycle() },
      ],
      exports: [MetricsRegistry, ProcessLifecycle],
    };
  }
}
