export { loadConfig, ConfigError, CONFIG_KEYS } from './config';
export type { AppConfig } from './config';
