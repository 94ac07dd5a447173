/** The one injection token every process shares: its validated configuration. */
export const APP_CONFIG = Symbol('AppConfig');
