import { openPglite } from '@cs/pglite';
import { describeRecordsContract } from './records.contract';
import { describeWebhooksContract } from './webhooks.contract';

// The same contracts against PostgreSQL: records.int-spec.ts.
describeRecordsContract('PGlite', async () => ({ sql: await openPglite(null), cleanup: async () => undefined }));

describeWebhooksContract('PGlite', async () => ({ sql: await openPglite(null), cleanup: async () => undefined }));
