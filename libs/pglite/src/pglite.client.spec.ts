import type { SqlClient } from '@cs/ports';
import { AUTO_VACUUM, openPglite } from './pglite.client';

const reltuples = async (sql: SqlClient, table = 'items') =>
  (await sql.query<{ n: number }>(`SELECT reltuples::float8 AS n FROM pg_class WHERE relname = $1`, [table]))[0].n;

describe('PGlite adapter', () => {
  let sql: SqlClient;
  beforeAll(async () => {
    sql = await openPglite(null);
  }, 60_000);
  afterAll(() => sql.close());

  it('gathers planner statistics itself once enough rows were written', async () => {
    await sql.exec('CREATE TABLE items (id int PRIMARY KEY, owner int NOT NULL)');
    // The first run is due when the rows written in the table reach the base: it held none before.
    const writes = AUTO_VACUUM.baseWrites;
    for (let i = 0; i < writes - 1; i++) await sql.query('INSERT INTO items VALUES ($1, 1)', [i]);
    // Never analysed: PostgreSQL says so with -1.
    expect(await reltuples(sql)).toBe(-1);
    await sql.query('INSERT INTO items VALUES ($1, 1)', [writes - 1]);
    // The VACUUM (ANALYZE) was queued behind that statement; the next query waits for it.
    expect(await reltuples(sql)).toBe(writes);
  }, 60_000);

  it('counts rows written, not statements: pollers that claim nothing never set it off', async () => {
    await sql.exec('CREATE TABLE idle (id int PRIMARY KEY)');
    const claim = 'WITH claimed AS (DELETE FROM idle WHERE id = (SELECT id FROM idle LIMIT 1) RETURNING id) SELECT id FROM claimed';
    for (let i = 0; i < 3 * AUTO_VACUUM.baseWrites; i++) expect(await sql.query(claim)).toEqual([]);
    expect(await reltuples(sql, 'idle')).toBe(-1);
    await sql.query(`INSERT INTO idle SELECT generate_series(1, ${AUTO_VACUUM.baseWrites})`);
    expect(await reltuples(sql, 'idle')).toBe(AUTO_VACUUM.baseWrites);
  }, 60_000);

  it("reuses deleted rows' space, so a table that is written and emptied over and over stops growing", async () => {
    await sql.exec('CREATE TABLE texts (id int PRIMARY KEY, body text NOT NULL); ALTER TABLE texts ALTER COLUMN body SET STORAGE EXTERNAL');
    const size = async () => (await sql.query<{ n: number }>(`SELECT pg_total_relation_size('texts')::float8 AS n`))[0].n;
    const body = 'x'.repeat(10_000);
    const sizes: number[] = [];
    // Each round puts 200 rows of 10 KB (2 MB) and deletes them one by one, as CVs and jobs come and go.
    for (let round = 0; round < 16; round++) {
      for (let i = 0; i < 200; i++) await sql.query('INSERT INTO texts VALUES ($1, $2)', [i, body]);
      for (let i = 0; i < 200; i++) await sql.query('DELETE FROM texts WHERE id = $1', [i]);
      sizes.push(await size());
    }
    // Without vacuuming, 16 rounds leave 32 MB of dead rows (each round's size 2 MB above the last);
    // vacuumed every 200 to 240 rows written (twice a round), the space is reused.
    expect(sizes[15]).toBeLessThan(0.4 * 16 * 2_000_000);
    expect(Math.max(...sizes.slice(8))).toBeLessThanOrEqual(1.25 * Math.max(...sizes.slice(0, 8)));
  }, 120_000);
});
