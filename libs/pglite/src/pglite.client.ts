import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { NotificationHandlers, NotificationListener, SqlClient } from '@cs/ports';
import { clusterTemplate, initialiseInChild } from './cluster-template';

/**
 * PGlite's defaults plus smaller buffers: the embedded database serves one process and a data
 * folder of at most a few GB, and 128 MB of shared buffers would be most of the RSS budget.
 */
export const START_PARAMS = [
  '--single',
  '-F',
  '-O',
  '-j',
  '-c',
  'search_path=public',
  '-c',
  'exit_on_error=false',
  '-c',
  'log_checkpoints=false',
  '-c',
  'max_worker_processes=0',
  '-c',
  'max_parallel_workers=0',
  '-c',
  'max_parallel_workers_per_gather=0',
  '-c',
  'shared_buffers=16MB',
  '-c',
  'wal_buffers=1MB',
  '-c',
  'temp_buffers=2MB',
  '-c',
  'work_mem=4MB',
  '-c',
  'maintenance_work_mem=16MB',
  // ANALYZE's sample: 300 rows a point (see AUTO_VACUUM).
  '-c',
  'default_statistics_target=10',
];

type Queryable = Pick<PGlite, 'query' | 'exec'> | Transaction;

/**
 * PGlite runs no autovacuum. Without it nothing gathers planner statistics (a lookup of a few CVs
 * by id then also scans a company's whole index: 2 ms at 50k CVs, on every search), and no dead
 * row's space is ever reused: every job the embedded queue inserts, claims and deletes, every
 * status update and every deleted CV's text stays in the files, which grow with each upload
 * (48 MB after six rounds of 500 CVs of 20 KB put and deleted, 0.6 MB once vacuumed). So, like
 * autovacuum, each table is vacuumed and analysed once the rows written in it since its last run
 * reach a base plus a share of its rows (PGlite keeps no dead-row counts to go by): the small
 * queue table often and cheaply, the CVs' table when a fifth of it has changed. ANALYZE samples
 * 300 rows per point of its statistics target (START_PARAMS: 10), and the WebAssembly heap keeps
 * what the sample took: 3,000 rows of CVs (not the default 30,000) are plenty for lookups by id
 * and company (at 2.5k CVs the default cost about 25 MB of RSS). VACUUM's memory is
 * `maintenance_work_mem` (16 MB).
 */
export const AUTO_VACUUM = { baseWrites: 200, scaleFactor: 0.2 } as const;

const WRITE_STATEMENT = /^\s*(insert|update|delete|with)\b/i;
/** The tables a write statement names, `WITH ... DELETE FROM jobs` (the queue's claim) included. */
const WRITTEN_TABLE = /\b(?:insert\s+into|update|delete\s+from)\s+([a-z_][a-z0-9_]*)/gi;

/**
 * Counts the rows written in each table and vacuums one in the background when it is due. Rows,
 * not statements: the queue's, the outbox's and the webhooks' pollers claim nothing most of the
 * time, dozens of times a second, and an idle service must not vacuum.
 */
class AutoVacuum {
  /** Per table: rows written since its last run, and its rows then (Infinity: not a table to vacuum). */
  private readonly writes = new Map<string, number>();
  private readonly rows = new Map<string, number>();
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly db: PGlite) {}

  /** `affectedRows`: what PostgreSQL says the statement changed (of a `WITH`, its last part's rows). */
  noteStatement(sql: string, affectedRows: number): void {
    if (this.closed || affectedRows === 0 || !WRITE_STATEMENT.test(sql)) return;
    for (const [, name] of sql.matchAll(WRITTEN_TABLE)) {
      const table = name.toLowerCase();
      this.writes.set(table, (this.writes.get(table) ?? 0) + affectedRows);
    }
    if (this.running) return;
    const due = [...this.writes].find(([table, n]) => n >= AUTO_VACUUM.baseWrites + AUTO_VACUUM.scaleFactor * (this.rows.get(table) ?? 0));
    if (!due) return;
    const [table] = due;
    this.writes.set(table, 0);
    this.running = this.vacuum(table)
      .catch((error: unknown) => {
        // `DO UPDATE SET` and `FOR UPDATE SKIP` name no table: never again. Anything else is tried at the next due.
        if ((error as Error).message.includes('does not exist')) this.rows.set(table, Infinity);
      })
      .finally(() => {
        this.running = null;
      });
  }

  private async vacuum(table: string): Promise<void> {
    await this.db.exec(`VACUUM (ANALYZE) "${table}"`);
    const { rows } = await this.db.query<{ n: number }>(
      `SELECT greatest(reltuples, 0)::float8 AS n FROM pg_class WHERE relname = $1 AND relnamespace = 'public'::regnamespace`,
      [table],
    );
    this.rows.set(table, rows[0]?.n ?? Infinity);
  }

  /** Starts no other run and waits for a running one, so that closing never cuts one short. */
  async close(): Promise<void> {
    this.closed = true;
    await this.running;
  }
}

class PgliteSql implements SqlClient {
  constructor(
    private readonly db: Queryable,
    private readonly root: PGlite | null,
    private readonly autoVacuum: AutoVacuum,
  ) {}

  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    const result = await this.db.query<T>(sql, params);
    this.autoVacuum.noteStatement(sql, result.affectedRows ?? 0);
    return result.rows;
  }

  async exec(sql: string): Promise<void> {
    await this.db.exec(sql);
  }

  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> {
    if (!this.root) return fn(this); // already inside one: PGlite has a single connection
    return this.root.transaction((tx) => fn(new PgliteSql(tx, null, this.autoVacuum)));
  }

  async close(): Promise<void> {
    await this.autoVacuum.close();
    await this.root?.close();
  }
}

/** LISTEN on the embedded database: its one connection is in this process, so it is never lost. */
class PgliteNotificationListener implements NotificationListener {
  constructor(private readonly db: PGlite) {}

  async listen(channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>> {
    const stop = await this.db.listen(channel, (payload) => handlers.onMessage(payload));
    return async () => {
      if (!this.db.closed) await stop();
    };
  }

  async close(): Promise<void> {
    // the database is closed by its SqlClient
  }
}

/** The embedded database: SQL, and the notifications it sends. */
export interface PgliteDatabase extends SqlClient {
  readonly notifications: NotificationListener;
}

/** Embedded PostgreSQL (WASM) keeping its files in `dir`, or in memory when `dir` is null. */
export async function openPglite(dir: string | null): Promise<PgliteDatabase> {
  const db = dir ? await openFolder(dir) : await openInMemory();
  await db.waitReady;
  return Object.assign(new PgliteSql(db, db, new AutoVacuum(db)), { notifications: new PgliteNotificationListener(db) });
}

/**
 * A new folder gets the cached cluster's files (see cluster-template.ts), or initdb's when there is
 * no cache. `PG_VERSION` is copied last: a copy cut short leaves a folder taken for a new one, and
 * copied over at the next open.
 */
async function openFolder(dir: string): Promise<PGlite> {
  const version = path.join(dir, 'PG_VERSION');
  if (!existsSync(version)) {
    const template = await clusterTemplate(START_PARAMS);
    if (template) {
      const templateVersion = path.join(template.folder, 'PG_VERSION');
      await fs.cp(template.folder, dir, { recursive: true, filter: (source) => source !== templateVersion });
      await fs.chmod(dir, 0o700);
      await fs.copyFile(templateVersion, version);
    } else initialiseInChild(dir, START_PARAMS);
  }
  return new PGlite(dir, { startParams: START_PARAMS });
}

async function openInMemory(): Promise<PGlite> {
  const template = await clusterTemplate(START_PARAMS);
  const loadDataDir = template ? new Blob([await fs.readFile(template.tarball)]) : undefined;
  return new PGlite({ startParams: START_PARAMS, loadDataDir });
}
