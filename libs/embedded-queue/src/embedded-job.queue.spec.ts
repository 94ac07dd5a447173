import { openPglite } from '@cs/pglite';
import { describeJobQueueContract } from '@cs/ports/testing';
import { migrate } from '@cs/records';
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
    cleanup: () => sql.close(),
  };
});

describe('embedded queue claims', () => {
  it('reach the oldest ready job through an index, without sorting the backlog', async () => {
    const sql = await openPglite(null);
    try {
      await migrate(sql);
      // A backlog like a big upload's, with planner statistics, so the plan is the one it would get.
      await sql.query(`INSERT INTO jobs (id, kind, payload, created_at)
        SELECT 'job-' || n, 'ingestion', '{}'::jsonb, now() - make_interval(secs => 20000 - n) FROM generate_series(1, 20000) AS n`);
      await sql.exec('ANALYZE jobs');
      const plan = (await sql.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${CLAIM_SQL}`, ['ingestion'])).map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toContain('jobs_claim');
      expect(plan).not.toMatch(/\bSort\b/);
      expect(await sql.query<{ id: string }>(CLAIM_SQL, ['ingestion'])).toEqual([expect.objectContaining({ id: 'job-1' })]);
    } finally {
      await sql.close();
    }
  }, 30_000);
});
