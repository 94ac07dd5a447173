import { openPglite } from '@cs/pglite';
import type { SqlClient } from '@cs/ports';
import { migrate } from '@cs/records';
import { EmbeddedJobQueue } from './embedded-job.queue';

describe('EmbeddedJobQueue', () => {
  let sql: SqlClient;
  beforeAll(async () => {
    sql = await openPglite(null);
    await migrate(sql);
  }, 30_000);
  afterAll(() => sql.close());
  afterEach(() => sql.query('DELETE FROM jobs'));

  it('delivers each published job once and removes it when acknowledged', async () => {
    const queue = await EmbeddedJobQueue.open(sql);
    const seen: string[] = [];
    const done = new Promise<void>((resolve) => {
      queue.consume<{ n: number }>('search', 2, async (job) => {
        seen.push(`${job.id}:${job.payload.n}:${job.attempt}`);
        if (seen.length === 3) resolve();
        return { ack: true };
      });
    });
    await queue.publish('search', 'a', { n: 1 });
    await queue.publish('search', 'b', { n: 2 });
    await queue.publish('search', 'b', { n: 2 }); // same id: idempotent
    await queue.publish('search', 'c', { n: 3 });
    await done;
    await queue.close();
    expect(seen.sort()).toEqual(['a:1:1', 'b:2:1', 'c:3:1']);
    expect(await sql.query('SELECT id FROM jobs')).toEqual([]);
  });

  it('retries with backoff, then dead-letters after the last delivery', async () => {
    const queue = await EmbeddedJobQueue.open(sql, { maxDeliveries: 3, backoffMs: 10, pollMs: 10 });
    const attempts: number[] = [];
    queue.consume('ingestion', 1, async (job) => {
      attempts.push(job.attempt);
      return { ack: false, retry: true, reason: 'dependency down' };
    });
    await queue.publish('ingestion', 'poison', {});
    while (attempts.length < 3) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 50));
    await queue.close();
    expect(attempts).toEqual([1, 2, 3]);
    expect(await sql.query('SELECT status, last_error FROM jobs')).toEqual([{ status: 'dead', last_error: 'dependency down' }]);
  });

  it('hands out again the jobs a crashed process left running', async () => {
    await sql.query(`INSERT INTO jobs (id, kind, payload, status, attempts) VALUES ('left', 'search', '{}', 'running', 1)`);
    const queue = await EmbeddedJobQueue.open(sql, { pollMs: 10 });
    const attempt = await new Promise<number>((resolve) => queue.consume('search', 1, async (job) => (resolve(job.attempt), { ack: true })));
    await queue.close();
    expect(attempt).toBe(2);
  });
});
