export { APP_CONFIG, InjectConfig, configPart } from './tokens';
export { ConfigModule } from './config.module';
export { main, runService } from './bootstrap';
export { EMBEDDED_INDEX_FOLDERS, recordIndexesRebuilt } from './data-dir-store';
export type { DataDirStore } from './data-dir-store';
export type { ServiceDefinition } from './bootstrap';
export { failProcess, liveness, onDrain, processState, startDraining, watchLiveness } from './process-state';
export type { LivenessCheck } from './process-state';
export { ServiceMetrics, processMetrics, startMetricsServer } from './metrics';
