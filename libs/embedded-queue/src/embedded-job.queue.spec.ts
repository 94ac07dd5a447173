import { randomUUID } from 'node:crypto';
import { openPglite } from '@cs/pglite';
import type { SqlClient } from '@cs/ports';
import { describeJobQueueContract } from '@cs/ports/testing';
import { migrate } from '@cs/records';
import { waitFor } from '@cs/test-services';
import { CLAIM_SQL, EmbeddedJobQueue } from './embedded-job.queue';

describeJobQueueContract('embedded (PGlite)', async () => {
  const sql = await openPglite(null);
  await migrate(sql);
  const options = { maxDeliveries: 3, backoffMs: 20, pollMs: 10, shutdownGraceMs: 300 };
  const queue = await EmbeddedJobQueue.open(sql, options);
  return {
    queue,
    crash: () => queue.abandon(),
    reopen: () => EmbeddedJobQueue.open(sql, options),
    deadLetters: async (kind) =>
      (
        await sql.query<{ last_error: string }>(`SELECT last_error FROM jobs WHERE kind = $1 AND status = 'dead' ORDER BY created_at`, [
          kind,
        ])
      ).map((r) => r.last_error),
    publishRaw: async (kind, id, payload) => {
      await sql.query('INSERT INTO jobs (id, kind, payload) VALUES ($1, $2, $3)', [id, kind, payload]);
    },
    cleanup: () => sql.close(),
  };
});

/** A migrated in-memory database for one test, closed after it. */
async function withDatabase(test: (sql: SqlClient) => Promise<void>): Promise<void> {
  const sql = await openPglite(null);
  try {
    await migrate(sql);
    await test(sql);
  } finally {
    await sql.close();
  }
}

/** The client, passing every statement on and keeping its text in `statements`, and again in `finished` once it has run. */
function recording(sql: SqlClient): { client: SqlClient; statements: string[]; finished: string[] } {
  const statements: string[] = [];
  const finished: string[] = [];
  const query = async <T>(text: string, params?: unknown[]) => {
    statements.push(text);
    const rows = await sql.query<T>(text, params);
    finished.push(text);
    return rows;
  };
  return { client: { ...sql, query }, statements, finished };
}

describe('embedded queue claims', () => {
  it('for a new job come from one woken worker, not from every idle worker racing for it', async () => {
    await withDatabase(async (sql) => {
      const { client, statements, finished } = recording(sql);
      const claims = (of = statements) => of.filter((text) => text === CLAIM_SQL).length;
      const queue = await EmbeddedJobQueue.open(client, { pollMs: 60_000, shutdownGraceMs: 100 });
      const handled: string[] = [];
      queue.consume('search', 4, async (job) => {
        handled.push(job.id);
        return { ack: true };
      });
      // The four look once, find nothing and go idle (the poll is a minute away).
      await waitFor(() => claims(finished) === 4, { what: 'four empty claims' });
      await queue.publish('search', 'job-1', { searchId: randomUUID() });
      // Other workers woken by the publish would claim at once, before the woken one's look for more is done.
      await waitFor(() => handled.length === 1 && claims(finished) >= 6, { what: 'the job handled, and a look for more' });
      expect(handled).toEqual(['job-1']);
      expect(claims()).toBe(6); // the woken worker's claim, and its look for more once done
      await queue.close();
    });
  }, 30_000);

  it('remove a finished job in the same statement that claims the next', async () => {
    await withDatabase(async (sql) => {
      const { client, statements, finished } = recording(sql);
      const queue = await EmbeddedJobQueue.open(client, { pollMs: 60_000, shutdownGraceMs: 100 });
      for (const id of ['job-1', 'job-2', 'job-3']) await queue.publish('ingestion', id, { documentId: randomUUID() });
      statements.length = 0;
      finished.length = 0;
      const handled: string[] = [];
      queue.consume('ingestion', 1, async (job) => {
        handled.push(job.id);
        return { ack: true };
      });
      // The fourth claim, finding nothing, is the worker's last statement until the poll a minute away.
      await waitFor(() => finished.length >= 4, { what: 'four statements run' });
      expect(handled).toEqual(['job-1', 'job-2', 'job-3']);
      expect(statements).toEqual([CLAIM_SQL, CLAIM_SQL, CLAIM_SQL, CLAIM_SQL]); // three jobs, then a look that finds none
      expect(await sql.query('SELECT id FROM jobs')).toEqual([]);
      await queue.close();
    });
  }, 30_000);

  it('delete the last finished job when the queue closes before another claim', async () => {
    await withDatabase(async (sql) => {
      const queue = await EmbeddedJobQueue.open(sql, { pollMs: 60_000, shutdownGraceMs: 1000 });
      let release: () => void = () => undefined;
      const finishing = new Promise<void>((resolve) => (release = resolve));
      let taken: () => void = () => undefined;
      const inHand = new Promise<void>((resolve) => (taken = resolve));
      queue.consume('ingestion', 1, async () => {
        taken();
        await finishing;
        return { ack: true };
      });
      await queue.publish('ingestion', 'job-1', { documentId: randomUUID() });
      await inHand;
      const closed = queue.close();
      release();
      await closed;
      expect(await sql.query('SELECT id FROM jobs')).toEqual([]);
    });
  }, 30_000);

  it('reach the oldest ready job through an index, without sorting the backlog', async () => {
    await withDatabase(async (sql) => {
      // A backlog like a big upload's, with planner statistics, so the plan is the one it would get.
      await sql.query(`INSERT INTO jobs (id, kind, payload, created_at)
        SELECT 'job-' || n, 'ingestion', '{}'::jsonb, now() - make_interval(secs => 20000 - n) FROM generate_series(1, 20000) AS n`);
      await sql.exec('ANALYZE jobs');
      const plan = (await sql.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${CLAIM_SQL}`, ['ingestion', null]))
        .map((r) => r['QUERY PLAN'])
        .join('\n');
      expect(plan).toContain('jobs_claim');
      expect(plan).not.toMatch(/\bSort\b/);
      expect(await sql.query<{ id: string }>(CLAIM_SQL, ['ingestion', null])).toEqual([expect.objectContaining({ id: 'job-1' })]);
    });
  }, 30_000);
});
