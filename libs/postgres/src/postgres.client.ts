import { Pool, types, type PoolClient } from 'pg';
import type { SqlClient, SqlPoolStats } from '@cs/ports';

// bigint counts as numbers, like PGlite returns them (our counts never pass 2^53).
types.setTypeParser(types.builtins.INT8, (v) => Number(v));

class PoolSql implements SqlClient {
  constructor(private readonly pool: Pool) {}

  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.pool.query(sql, params)).rows as T[];
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(new ClientSql(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  poolStats(): SqlPoolStats {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }
}

class ClientSql implements SqlClient {
  constructor(private readonly client: PoolClient) {}

  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.client.query(sql, params)).rows as T[];
  }

  async exec(sql: string): Promise<void> {
    await this.client.query(sql);
  }

  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> {
    return fn(this);
  }

  async close(): Promise<void> {
    // the pool owns the connection
  }
}

export interface PostgresOptions {
  connectionString: string;
  maxConnections?: number;
  /** Deadline of every statement. */
  statementTimeoutMs?: number;
}

/** The cluster's system of record: a PostgreSQL pool behind the SqlClient port. */
export async function openPostgres(options: PostgresOptions): Promise<SqlClient> {
  const pool = new Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: 5000,
    statement_timeout: options.statementTimeoutMs ?? 15_000,
  });
  pool.on('error', () => undefined); // idle-client errors surface on the next query
  await pool.query('SELECT 1');
  return new PoolSql(pool);
}
