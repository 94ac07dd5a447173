export { CONFIG_KEYS, ConfigError, ENV_SCHEMA, loadAdminCliConfig, loadCliEnvironment, loadConfig, requireClusterSettings } from './config';
export type { AdminCliConfig, AppConfig, CliEnvironment, DenseApiProvider, DenseModelConfig } from './config';
