import { PostgresNotificationListener, openPostgres } from '@cs/postgres';
import { createTestDatabase, describeWith, eventually, testEnvironment } from '@cs/test-services';
import { describeNotificationsContract } from './notifications.contract';

describeWith(['postgres'])('PostgreSQL', () => {
  describeNotificationsContract('PostgreSQL', async () => {
    const db = await createTestDatabase(testEnvironment().postgresUrl!);
    return {
      sql: await openPostgres({ connectionString: db.url }),
      listener: new PostgresNotificationListener({ connectionString: db.url }),
      cleanup: db.drop,
    };
  });

  it('listens again after its connection is cut, and says that notifications may have been missed', async () => {
    const db = await createTestDatabase(testEnvironment().postgresUrl!);
    const sql = await openPostgres({ connectionString: db.url });
    const errors: string[] = [];
    const listener = new PostgresNotificationListener({ connectionString: db.url, retryMs: 50, onError: (e) => errors.push(e.message) });
    const payloads: string[] = [];
    let resyncs = 0;
    try {
      await listener.listen('cs_test', { onMessage: (p) => payloads.push(p), onResync: () => resyncs++ });
      await sql.query(`SELECT pg_notify('cs_test', 'one')`);
      await eventually(() => expect(payloads).toEqual(['one']));
      // What an idle-connection reaper or a database restart does to the listening connection.
      await sql.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`);
      await eventually(() => expect(resyncs).toBe(1), { timeoutMs: 10_000 });
      expect(errors.length).toBeGreaterThanOrEqual(1);
      await sql.query(`SELECT pg_notify('cs_test', 'two')`);
      await eventually(() => expect(payloads).toEqual(['one', 'two']));
    } finally {
      await listener.close();
      await sql.close();
      await db.drop();
    }
  }, 30_000);
});
