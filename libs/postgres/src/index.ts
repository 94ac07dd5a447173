export { openPostgres } from './postgres.client';
export type { PostgresOptions } from './postgres.client';
