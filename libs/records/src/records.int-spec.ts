import { openPostgres } from '@cs/postgres';
import { createTestDatabase, testEnvironment } from '@cs/test-services';
import { describeRecordsContract } from './records.contract';
import { describeWebhooksContract } from './webhooks.contract';

const openTestDatabase = async () => {
  const db = await createTestDatabase(testEnvironment().postgresUrl!);
  return { sql: await openPostgres({ connectionString: db.url }), cleanup: db.drop };
};

describeRecordsContract('PostgreSQL', openTestDatabase, ['postgres']);

describeWebhooksContract('PostgreSQL', openTestDatabase, ['postgres']);
