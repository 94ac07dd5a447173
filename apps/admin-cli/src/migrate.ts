import { loadConfig, requireClusterSettings } from '@cs/config';
import { openPostgres } from '@cs/postgres';
import { migrate } from '@cs/records';

/** `npm run migrate`: applies pending migrations to DATABASE_URL (services also do it at start). */
async function run(): Promise<void> {
  const config = loadConfig();
  requireClusterSettings(config, 'migrate', ['databaseUrl']);
  const sql = await openPostgres({ connectionString: config.cluster.databaseUrl! });
  try {
    const ran = await migrate(sql);
    process.stdout.write(ran.length ? `applied ${ran.join(', ')}\n` : 'already up to date\n');
  } finally {
    await sql.close();
  }
}

run().catch((error: unknown) => {
  process.stderr.write(`migrate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
