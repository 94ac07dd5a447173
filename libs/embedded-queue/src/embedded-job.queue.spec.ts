import { openPglite } from '@cs/pglite';
import { describeJobQueueContract } from '@cs/ports/testing';
import { migrate } from '@cs/records';
import { EmbeddedJobQueue } from './embedded-job.queue';

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
