export { CONFIG_KEYS, ConfigError, loadAdminCliConfig, loadCliEnvironment, loadConfig, requireClusterSettings } from './config';
export type { AdminCliConfig, AppConfig, CliEnvironment, DenseApiProvider, DenseModelConfig } from './config';
