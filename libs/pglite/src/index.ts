export { openPglite } from './pglite.client';
