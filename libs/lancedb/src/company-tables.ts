import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { Table as ArrowTable, type Schema } from 'apache-arrow';

/** A row of a company's table: every row belongs to one document. */
export type Row = Record<string, unknown> & { document_id: string };

export interface CompanyTablesOptions {
  /** What the tables hold ("keyword index", "vector set"), for errors. */
  name: string;
  schema: Schema;
  /**
   * Called after writes have been folded in (and on a freshly built table) with its number of
   * rows: creates or retrains the table's indexes when it needs them; `optimize` keeps them up
   * to date otherwise.
   */
  ensureIndexes(table: lancedb.Table, rows: number): Promise<void>;
  /** How many rows added since the last `optimize` make the next one due (default 2,000). */
  optimizeAfterRows?: number;
  /** How long after a write an `optimize` is due at the latest (default 30 s). */
  optimizeAfterMs?: number;
  /** How often tables that had deletions are rebuilt without them (default 10 min; 0: only on `compact`). */
  eraseEveryMs?: number;
  /** When the first of those passes runs after opening (default 1 min, at most `eraseEveryMs`). */
  firstEraseAfterMs?: number;
  /** The caches the tables read through (`lanceSession`); unset, a connection of its own with Lance's default caches, up to 7 GB. */
  session?: lancedb.Session;
}

const sessions = new Map<number, lancedb.Session>();

/**
 * The process's one LanceDB session of `cacheMb` MB: its index cache (three quarters) and its
 * metadata cache, shared by every table opened with it. Lance's default gives each connection
 * 6 GB of index cache and 1 GB of metadata cache, and the store opens three or more: no bound a
 * pod's memory limit could hold.
 */
export function lanceSession(cacheMb: number): lancedb.Session {
  let session = sessions.get(cacheMb);
  if (!session) {
    const bytes = BigInt(cacheMb) * 1024n * 1024n;
    session = new lancedb.Session((bytes * 3n) / 4n, bytes / 4n);
    sessions.set(cacheMb, session);
  }
  return session;
}

/** `tables.json`: which table holds each company's rows, and whether it still holds deleted ones. */
interface Manifest {
  layout: 1;
  companies: Record<string, { table: string; generation: number; deletions: number }>;
}

type Change = { kind: 'put'; documentId: string; rows: Row[] } | { kind: 'remove'; documentId: string };

interface Pending {
  change: Change;
  resolve(removed: number): void;
  reject(error: unknown): void;
}

/** A SQL string literal (DataFusion's): quotes doubled. */
export const sqlString = (value: string): string => `'${value.replaceAll("'", "''")}'`;

/** The filter for the rows of these documents. */
export const documentIdIn = (ids: readonly string[]): string => `document_id IN (${ids.map(sqlString).join(', ')})`;

const tableName = (companyId: string, generation: number) =>
  `c-${createHash('sha256').update(companyId).digest('hex').slice(0, 24)}-g${generation}`;

// The first erasing pass runs soon after opening: a process restarted more often than the period would otherwise erase nothing.
const DEFAULTS = { optimizeAfterRows: 2_000, optimizeAfterMs: 30_000, eraseEveryMs: 600_000, firstEraseAfterMs: 60_000 };

/** Changes committed together at most: a batch's `IN (...)` filters name each of its documents. */
const MAX_BATCH = 500;

/** How old a table version must be before an optimize deletes its files: a read still running may be on it. */
const CLEANUP_GRACE_MS = 60_000;

/** One company's table and the writes waiting for it. */
class CompanyTable {
  readonly queue: Pending[] = [];
  /**
   * Batches and exclusive work (optimize, compaction) run one at a time, in the order they were
   * asked for: exclusive work asked for during ingestion runs after the batches already asked
   * for (one, unless more than a batch's worth waits), then the next batch takes the writes that
   * arrived meanwhile.
   */
  lane: Promise<void> = Promise.resolve();
  /** A batch is in the lane and has not started: later writes join it. */
  batchAsked = false;
  table: lancedb.Table | null = null;
  rowsSinceOptimize = 0;
  optimizeTimer: NodeJS.Timeout | null = null;
  optimizeQueued = false;
  /** Reads in progress on each table object: a replaced table is dropped once its last one ends. */
  readonly readers = new Map<lancedb.Table, number>();
  readonly retired = new Set<lancedb.Table>();
}

/**
 * Per-company LanceDB tables in one folder, the store the LanceDB adapters share: writes are
 * queued per company and committed in batches (the writes waiting when a batch starts go in
 * it, up to MAX_BATCH: one commit for many CVs at ingestion's pace), indexes are folded in by `optimize` after
 * enough rows or time, and a table that had deletions is rebuilt without them, so a deleted
 * CV leaves no row, text or vector in the folder (Lance's own compaction leaves a fragment's
 * deleted rows in place until a tenth of it is deleted). The manifest names each company's
 * table; a rebuild writes a new one, then switches the manifest, then drops the old one.
 */
export class LanceCompanyTables {
  private readonly companies = new Map<string, CompanyTable>();
  private closed = false;
  private closed$: Promise<void> | null = null;
  /** The erasing pass in progress: the timer starts none while one runs. */
  private erasing: Promise<void> | null = null;
  private eraseTimer: NodeJS.Timeout | null = null;
  private firstErase: NodeJS.Timeout | null = null;
  private manifestWrite: Promise<void> = Promise.resolve();
  private readonly settings: typeof DEFAULTS;

  private constructor(
    private readonly folder: string,
    private readonly db: lancedb.Connection,
    private readonly manifest: Manifest,
    private readonly options: CompanyTablesOptions,
  ) {
    this.settings = { ...DEFAULTS, ...options };
  }

  /** Opens the tables in `folder` (created when missing); tables the manifest does not name (a rebuild cut off) are dropped. */
  static async open(folder: string, options: CompanyTablesOptions): Promise<LanceCompanyTables> {
    await fs.mkdir(folder, { recursive: true });
    const db = await lancedb.connect(folder, {}, options.session);
    const manifest = await readManifest(folder, options.name);
    const named = new Set(Object.values(manifest.companies).map((c) => c.table));
    for (const name of await db.tableNames()) if (!named.has(name)) await db.dropTable(name);
    const tables = new LanceCompanyTables(folder, db, manifest, options);
    if (tables.settings.eraseEveryMs > 0) {
      const erase = () => {
        tables.erasing ??= tables
          .compact()
          .catch(() => undefined)
          .finally(() => (tables.erasing = null));
      };
      tables.firstErase = setTimeout(erase, Math.min(tables.settings.firstEraseAfterMs, tables.settings.eraseEveryMs));
      tables.firstErase.unref();
      tables.eraseTimer = setInterval(erase, tables.settings.eraseEveryMs);
      tables.eraseTimer.unref();
    }
    return tables;
  }

  private company(companyId: string): CompanyTable {
    let company = this.companies.get(companyId);
    if (!company) {
      company = new CompanyTable();
      this.companies.set(companyId, company);
    }
    return company;
  }

  private async tableOf(companyId: string, company: CompanyTable): Promise<lancedb.Table | null> {
    if (company.table) return company.table;
    const entry = this.manifest.companies[companyId];
    if (!entry) return null;
    company.table = await this.db.openTable(entry.table);
    return company.table;
  }

  /** Runs `read` on the company's table; null when the company has none. The table is not dropped under it. */
  async read<T>(companyId: string, read: (table: lancedb.Table) => Promise<T>): Promise<T | null> {
    this.requireOpen();
    const company = this.company(companyId);
    const table = await this.tableOf(companyId, company);
    if (!table) return null;
    company.readers.set(table, (company.readers.get(table) ?? 0) + 1);
    try {
      return await read(table);
    } finally {
      const left = company.readers.get(table)! - 1;
      if (left > 0) company.readers.set(table, left);
      else {
        company.readers.delete(table);
        if (company.retired.has(table)) await this.dropRetired(company, table);
      }
    }
  }

  /** Replaces the document's rows with `rows`; resolves once they are committed. */
  put(companyId: string, documentId: string, rows: Row[]): Promise<void> {
    return this.enqueue(companyId, { kind: 'put', documentId, rows }).then(() => undefined);
  }

  /** Removes the document's rows; resolves with 1 when it had any, else 0. */
  remove(companyId: string, documentId: string): Promise<number> {
    return this.enqueue(companyId, { kind: 'remove', documentId });
  }

  /** The company's documents. */
  async count(companyId: string): Promise<number> {
    return (await this.read(companyId, (table) => table.countRows())) ?? 0;
  }

  private enqueue(companyId: string, change: Change): Promise<number> {
    this.requireOpen();
    if (this.closing) throw new Error(`${this.options.name} is closing`);
    const company = this.company(companyId);
    return new Promise<number>((resolve, reject) => {
      company.queue.push({ change, resolve, reject });
      this.askBatch(companyId, company);
    });
  }

  /** Puts a batch in the lane unless one is waiting there already. */
  private askBatch(companyId: string, company: CompanyTable): void {
    if (company.batchAsked) return;
    company.batchAsked = true;
    void this.inLane(company, async () => {
      company.batchAsked = false;
      const batch = company.queue.splice(0, MAX_BATCH);
      if (company.queue.length > 0) this.askBatch(companyId, company);
      if (batch.length === 0) return;
      try {
        const removed = await this.commit(
          companyId,
          company,
          batch.map((p) => p.change),
        );
        batch.forEach((p, i) => p.resolve(removed[i]));
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    });
  }

  /** Runs `work` after everything already in the company's lane. */
  private inLane<T>(company: CompanyTable, work: () => Promise<T>): Promise<T> {
    const result = company.lane.then(work);
    company.lane = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** One batch: a delete of every document it touches, then one add of the rows they end with. */
  private async commit(companyId: string, company: CompanyTable, changes: Change[]): Promise<number[]> {
    const ids = [...new Set(changes.map((c) => c.documentId))];
    const existing = new Set<string>();
    let table = await this.tableOf(companyId, company);
    if (table) {
      const found = await table.query().where(documentIdIn(ids)).select(['document_id']).toArray();
      for (const row of found as { document_id: string }[]) existing.add(row.document_id);
    }
    // What each change found: a remove reports whether the document was there when it ran.
    const present = new Set(existing);
    const removed = changes.map((change) => {
      if (change.kind === 'put') {
        present.add(change.documentId);
        return 0;
      }
      return present.delete(change.documentId) ? 1 : 0;
    });
    const finalRows = new Map<string, Row[] | null>();
    for (const change of changes) finalRows.set(change.documentId, change.kind === 'put' ? change.rows : null);
    const rows = [...finalRows.values()].flatMap((r) => r ?? []);
    const toDelete = ids.filter((id) => existing.has(id));

    if (table && toDelete.length > 0) {
      // Counted first: a crash between the two then leaves a rebuild due, never deleted rows no rebuild will erase.
      await this.noteDeletions(companyId, toDelete.length);
      await table.delete(documentIdIn(toDelete));
    }
    if (rows.length > 0) {
      if (table) await table.add(rows);
      else table = await this.createTable(companyId, company, rows);
      company.rowsSinceOptimize += rows.length;
    }
    this.scheduleOptimize(companyId, company);
    return removed;
  }

  private async createTable(companyId: string, company: CompanyTable, rows: Row[]): Promise<lancedb.Table> {
    const generation = 1;
    const name = tableName(companyId, generation);
    // A table of this name not in the manifest is a leftover of a create cut off before the manifest was written.
    if ((await this.db.tableNames()).includes(name)) await this.db.dropTable(name);
    const table = await this.db.createTable(name, rows, { schema: this.options.schema });
    await this.updateManifest((manifest) => {
      manifest.companies[companyId] = { table: name, generation, deletions: 0 };
    });
    company.table = table;
    return table;
  }

  private async noteDeletions(companyId: string, count: number): Promise<void> {
    await this.updateManifest((manifest) => {
      manifest.companies[companyId].deletions += count;
    });
  }

  private scheduleOptimize(companyId: string, company: CompanyTable): void {
    if (company.optimizeQueued || this.closing) return;
    if (company.rowsSinceOptimize >= this.settings.optimizeAfterRows) {
      // It runs after the batches already in the lane.
      company.optimizeQueued = true;
      void this.optimize(companyId, company).catch(() => undefined);
      return;
    }
    if (!company.optimizeTimer && company.rowsSinceOptimize > 0) {
      company.optimizeTimer = setTimeout(() => {
        company.optimizeQueued = true;
        void this.optimize(companyId, company).catch(() => undefined);
      }, this.settings.optimizeAfterMs);
      company.optimizeTimer.unref();
    }
  }

  /**
   * Folds the company's committed rows into its indexes now, after the batch in hand: a search
   * that must not meet unindexed rows (Lance scans them without the query's boosts) waits on it.
   */
  async optimizeNow(companyId: string): Promise<void> {
    this.requireOpen();
    await this.optimize(companyId, this.company(companyId));
  }

  /**
   * Folds small fragments together and new rows into the indexes; versions older than the grace
   * go. Runs between batches; rejects when it failed (the rows stay for the next one to fold).
   */
  private optimize(companyId: string, company: CompanyTable): Promise<void> {
    if (company.optimizeTimer) clearTimeout(company.optimizeTimer);
    company.optimizeTimer = null;
    return this.exclusive(companyId, company, async (table) => {
      company.optimizeQueued = false;
      company.rowsSinceOptimize = 0;
      await this.options.ensureIndexes(table, await table.countRows());
      await table.optimize({ cleanupOlderThan: new Date(Date.now() - CLEANUP_GRACE_MS), deleteUnverified: false });
    });
  }

  /** Runs `work` on the company's table with no batch being committed, after what is in the lane; none once closing. */
  private exclusive(companyId: string, company: CompanyTable, work: (table: lancedb.Table) => Promise<void>): Promise<void> {
    return this.inLane(company, async () => {
      if (this.closing) return;
      const table = await this.tableOf(companyId, company);
      if (table) await work(table);
    });
  }

  /**
   * Rebuilds each table that had deletions (or only `companyId`'s) without them: a new table of
   * its live rows with fresh indexes, then the manifest switched, then the old one dropped once
   * no read is on it. Writes to the company wait meanwhile; reads go on.
   */
  async compact(companyId?: string): Promise<void> {
    const ids = companyId === undefined ? Object.keys(this.manifest.companies) : [companyId];
    for (const id of ids) {
      if (this.closing) return;
      if (!this.manifest.companies[id]?.deletions) continue;
      const company = this.company(id);
      await this.exclusive(id, company, async (old) => {
        // Read again in the lane: a pass that ran meanwhile may have rebuilt this table already.
        const entry = this.manifest.companies[id];
        if (!entry || entry.deletions === 0) return;
        const generation = entry.generation + 1;
        const name = tableName(id, generation);
        if ((await this.db.tableNames()).includes(name)) await this.db.dropTable(name);
        const rebuilt = await this.db.createEmptyTable(name, this.options.schema);
        for await (const batch of old.query()) await rebuilt.add(new ArrowTable(batch));
        await this.options.ensureIndexes(rebuilt, await rebuilt.countRows());
        await rebuilt.optimize({ cleanupOlderThan: new Date() });
        await this.updateManifest((manifest) => {
          manifest.companies[id] = { table: name, generation, deletions: 0 };
        });
        company.table = rebuilt;
        company.retired.add(old);
        if (!company.readers.has(old)) await this.dropRetired(company, old);
      });
    }
  }

  private async dropRetired(company: CompanyTable, table: lancedb.Table): Promise<void> {
    company.retired.delete(table);
    const name = table.name;
    table.close();
    await this.db.dropTable(name).catch(() => undefined);
  }

  /**
   * Writes the manifest with `change` made (aside, flushed, renamed over, the folder flushed), one
   * write at a time; memory takes the change only once it is on disk, so a failed write changes
   * nothing a later one would persist.
   */
  private updateManifest(change: (manifest: Manifest) => void): Promise<void> {
    const write = this.manifestWrite.then(async () => {
      const next = structuredClone(this.manifest);
      change(next);
      const file = path.join(this.folder, 'tables.json');
      const aside = `${file}.${randomUUID()}.tmp`;
      const handle = await fs.open(aside, 'w');
      try {
        await handle.writeFile(JSON.stringify(next));
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(aside, file);
      const folder = await fs.open(this.folder, 'r');
      try {
        await folder.sync();
      } finally {
        await folder.close();
      }
      this.manifest.companies = next.companies;
    });
    this.manifestWrite = write.catch(() => undefined);
    return write;
  }

  /** Waits for queued writes, then closes every table; later calls fail. Every call waits for the same close. */
  close(): Promise<void> {
    this.closed$ ??= this.shutDown();
    return this.closed$;
  }

  /** Once `close` is called: no write is taken and no exclusive work starts while the lanes drain. */
  private get closing(): boolean {
    return this.closed$ !== null;
  }

  private async shutDown(): Promise<void> {
    if (this.eraseTimer) clearInterval(this.eraseTimer);
    if (this.firstErase) clearTimeout(this.firstErase);
    await this.erasing;
    // A batch may ask for the next one: passes over every lane until one finds them all idle.
    for (let settled = false; !settled;) {
      settled = true;
      for (const company of this.companies.values()) {
        const lane = company.lane;
        await lane;
        if (company.lane !== lane || company.batchAsked || company.queue.length > 0) settled = false;
      }
    }
    for (const company of this.companies.values()) if (company.optimizeTimer) clearTimeout(company.optimizeTimer);
    this.closed = true;
    await this.manifestWrite;
    for (const company of this.companies.values()) company.table?.close();
    this.db.close();
  }

  private requireOpen(): void {
    if (this.closed) throw new Error(`${this.options.name} is closed`);
  }
}

async function readManifest(folder: string, name: string): Promise<Manifest> {
  const file = path.join(folder, 'tables.json');
  try {
    const manifest = JSON.parse(await fs.readFile(file, 'utf8')) as Manifest;
    if (manifest.layout !== 1) throw new Error(`layout ${String(manifest.layout)} is not one this version reads`);
    return manifest;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { layout: 1, companies: {} };
    throw new Error(`the ${name}'s ${file} is unreadable: ${(error as Error).message}`);
  }
}

/**
 * Every write finds the rows of the documents it replaces, and passages are read by document: a
 * scalar index on `document_id` finds them without a scan.
 */
export async function ensureDocumentIdIndex(table: lancedb.Table): Promise<void> {
  if ((await table.listIndices()).some((i) => i.columns.includes('document_id'))) return;
  await table.createIndex('document_id', { config: lancedb.Index.btree() });
}
