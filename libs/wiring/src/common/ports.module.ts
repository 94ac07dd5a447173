import { Module, type DynamicModule, type Type } from '@nestjs/common';

export type ModuleImport = DynamicModule | Type;

/**
 * What one process binds its ports to, gathered once by its wiring and handed to each feature
 * module (`register(ports)`): nothing is global but the configuration, so a module sees only
 * what its process gave it. Nest keeps one instance of a dynamic module imported in many places.
 */
@Module({})
export class PortsModule {
  static of(...modules: ModuleImport[]): DynamicModule {
    return { module: PortsModule, imports: modules, exports: modules };
  }
}
