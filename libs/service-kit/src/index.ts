export { APP_CONFIG } from './tokens';
export { ConfigModule } from './config.module';
export { main, runService } from './bootstrap';
export type { ServiceDefinition } from './bootstrap';
export { ServiceMetrics, processMetrics, startMetricsServer } from './metrics';
