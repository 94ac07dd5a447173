/** The SQL the records use runs unchanged on PGlite (standalone) and PostgreSQL (cluster). */
export interface SqlClient {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** A connection pool's use, where there is one (PostgreSQL; PGlite has a single connection). */
  poolStats?(): SqlPoolStats;
}

export interface SqlPoolStats {
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}
export const SQL_CLIENT = Symbol('SqlClient');
