import type { SqlClient } from '@cs/ports';
import { AUTO_ANALYZE, openPglite } from './pglite.client';

const reltuples = async (sql: SqlClient) =>
  (await sql.query<{ n: number }>(`SELECT reltuples::float8 AS n FROM pg_class WHERE relname = 'items'`))[0].n;

describe('PGlite adapter', () => {
  let sql: SqlClient;
  beforeAll(async () => {
    sql = await openPglite(null);
  }, 60_000);
  afterAll(() => sql.close());

  it('gathers planner statistics itself once enough rows were written', async () => {
    await sql.exec('CREATE TABLE items (id int PRIMARY KEY, owner int NOT NULL)');
    // The first run is due when the writes reach the base plus the share of themselves.
    const writes = Math.ceil(AUTO_ANALYZE.baseWrites / (1 - AUTO_ANALYZE.scaleFactor));
    for (let i = 0; i < writes - 1; i++) await sql.query('INSERT INTO items VALUES ($1, 1)', [i]);
    // Never analysed: PostgreSQL says so with -1.
    expect(await reltuples(sql)).toBe(-1);
    await sql.query('INSERT INTO items VALUES ($1, 1)', [writes - 1]);
    // The ANALYZE was queued behind that statement; the next query waits for it.
    expect(await reltuples(sql)).toBe(writes);
  }, 60_000);
});
