export { openPostgres } from './postgres.client';
export type { PostgresOptions } from './postgres.client';
export { PostgresNotificationListener } from './postgres.listener';
export type { PostgresListenerOptions } from './postgres.listener';
