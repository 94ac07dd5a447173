export { CONFIG_KEYS, ConfigError, loadAdminCliConfig, loadConfig } from './config';
export type { AdminCliConfig, AppConfig } from './config';
