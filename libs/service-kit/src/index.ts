export { APP_CONFIG } from './tokens';
export { ConfigModule } from './config.module';
export { main, runService } from './bootstrap';
export type { ServiceDefinition } from './bootstrap';
export { processState } from './process-state';
export { ServiceMetrics, processMetrics, startMetricsServer } from './metrics';
