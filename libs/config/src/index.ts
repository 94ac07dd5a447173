export { CONFIG_KEYS, ConfigError, loadAdminCliConfig, loadConfig, requireClusterSettings } from './config';
export type { AdminCliConfig, AppConfig } from './config';
