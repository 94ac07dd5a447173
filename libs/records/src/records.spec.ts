import { openPglite } from '@cs/pglite';
import { openPostgres } from '@cs/postgres';
import { createTestDatabase, testEnvironment } from '@cs/test-services';
import { describeRecordsContract } from './records.contract';
import { describeWebhooksContract } from './webhooks.contract';

describeRecordsContract('PGlite', async () => ({ sql: await openPglite(null), cleanup: async () => undefined }));

describeRecordsContract(
  'PostgreSQL',
  async () => {
    const db = await createTestDatabase(testEnvironment().postgresUrl!);
    return { sql: await openPostgres({ connectionString: db.url }), cleanup: db.drop };
  },
  ['postgres'],
);

describeWebhooksContract('PGlite', async () => ({ sql: await openPglite(null), cleanup: async () => undefined }));

describeWebhooksContract(
  'PostgreSQL',
  async () => {
    const db = await createTestDatabase(testEnvironment().postgresUrl!);
    return { sql: await openPostgres({ connectionString: db.url }), cleanup: db.drop };
  },
  ['postgres'],
);
