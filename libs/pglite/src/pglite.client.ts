import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { SqlClient } from '@cs/ports';

type Queryable = Pick<PGlite, 'query' | 'exec'> | Transaction;

class PgliteSql implements SqlClient {
  constructor(private readonly db: Queryable, private readonly root: PGlite | null) {}

  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.db.query<T>(sql, params)).rows;
  }

  async exec(sql: string): Promise<void> {
    await this.db.exec(sql);
  }

  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> {
    if (!this.root) return fn(this); // already inside one: PGlite has a single connection
    return this.root.transaction((tx) => fn(new PgliteSql(tx, null)));
  }

  async close(): Promise<void> {
    await this.root?.close();
  }
}

/** Embedded PostgreSQL (WASM) keeping its files in `dir`, or in memory when `dir` is null. */
export async function openPglite(dir: string | null): Promise<SqlClient> {
  const db = dir ? new PGlite(dir) : new PGlite();
  await db.waitReady;
  return new PgliteSql(db, db);
}
