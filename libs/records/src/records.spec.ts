import { openPglite } from '@cs/pglite';
import { openPostgres } from '@cs/postgres';
import { createTestDatabase, findTestServices, missingLine } from '@cs/test-services';
import { describeRecordsContract } from './records.contract';

describeRecordsContract('PGlite', async () => ({ sql: await openPglite(null), cleanup: async () => undefined }));

describeRecordsContract('PostgreSQL', async () => {
  const services = await findTestServices();
  const missing = missingLine('records on PostgreSQL', services, ['postgresUrl']);
  if (missing || !services.postgresUrl) {
    console.log(missing);
    return null;
  }
  const db = await createTestDatabase(services.postgresUrl);
  return { sql: await openPostgres({ connectionString: db.url }), cleanup: db.drop };
});
