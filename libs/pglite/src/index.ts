export { openPglite } from './pglite.client';
export type { PgliteDatabase } from './pglite.client';
