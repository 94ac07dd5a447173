import { describeWith, type TestNeed } from '@cs/test-services';
import type { JobQueue } from '../job-queue.port';

export interface OpenedQueue {
  queue: JobQueue;
  /** Kills the queue's "process": no ack, no hand-back, no more heartbeats. */
  crash: () => Promise<void>;
  /** Another instance over the same storage: a restarted process. */
  reopen: () => Promise<JobQueue>;
  cleanup: () => Promise<void>;
}

const waitFor = async (check: () => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/**
 * What every JobQueue adapter must do. `open` gets a fresh queue whose maxDeliveries is 3, with
 * short backoffs and (where it has one) an ack wait of about a second. Where a need is missing, the
 * cases are declared skipped.
 */
export function describeJobQueueContract(name: string, open: () => Promise<OpenedQueue>, needs: TestNeed[] = []): void {
  describeWith(needs)(`JobQueue contract: ${name}`, () => {
    let opened: OpenedQueue | null;
    const extra: JobQueue[] = [];
    beforeEach(async () => {
      opened = await open();
    });
    afterEach(async () => {
      for (const q of extra.splice(0)) await q.close();
      await opened?.queue.close();
      await opened?.cleanup();
    });
    const test = (title: string, fn: (o: OpenedQueue) => Promise<void>) =>
      it(title, async () => {
        if (!opened) throw new Error('the queue did not open');
        await fn(opened);
      }, 30_000);

    test('delivers each job once, by id, and forgets it when acknowledged', async ({ queue }) => {
      const seen: string[] = [];
      queue.consume<{ n: number }>('search', 2, async (job) => {
        seen.push(`${job.id}:${job.payload.n}:${job.attempt}`);
        return { ack: true };
      });
      await queue.publish('search', 'a', { n: 1 });
      await queue.publish('search', 'b', { n: 2 });
      await queue.publish('search', 'b', { n: 2 });
      await queue.publish('ingestion', 'c', { n: 3 });
      await waitFor(() => seen.length >= 2);
      await new Promise((r) => setTimeout(r, 300));
      expect(seen.sort()).toEqual(['a:1:1', 'b:2:1']);
    });

    test('retries with backoff, then gives up after the last delivery', async ({ queue }) => {
      const attempts: number[] = [];
      queue.consume('ingestion', 1, async (job) => {
        attempts.push(job.attempt);
        return { ack: false, retry: true, reason: 'dependency down' };
      });
      await queue.publish('ingestion', 'poison', {});
      await waitFor(() => attempts.length >= 3);
      await new Promise((r) => setTimeout(r, 1500));
      expect(attempts).toEqual([1, 2, 3]);
    });

    test('gives up at once on a job that cannot succeed', async ({ queue }) => {
      const attempts: number[] = [];
      queue.consume('search', 1, async (job) => {
        attempts.push(job.attempt);
        return { ack: false, retry: false, reason: 'malformed' };
      });
      await queue.publish('search', 'bad', {});
      await waitFor(() => attempts.length >= 1);
      await new Promise((r) => setTimeout(r, 1500));
      expect(attempts).toEqual([1]);
    });

    test('keeps a long job that reports progress from being handed out twice', async ({ queue }) => {
      let calls = 0;
      let finished = false;
      queue.consume('search', 1, async () => {
        calls++;
        await new Promise((r) => setTimeout(r, 2500));
        finished = true;
        return { ack: true };
      });
      await queue.publish('search', 'long', {});
      await waitFor(() => finished);
      await new Promise((r) => setTimeout(r, 500));
      expect(calls).toBe(1);
    });

    test('delivers again, after a restart, a job whose worker died', async ({ queue, crash, reopen }) => {
      let first = false;
      queue.consume('search', 1, async () => {
        first = true;
        return new Promise<never>(() => undefined); // the process "dies" holding it
      });
      await queue.publish('search', 'orphan', { n: 7 });
      await waitFor(() => first);
      await crash();
      const restarted = await reopen();
      extra.push(restarted);
      const redelivered: number[] = [];
      restarted.consume<{ n: number }>('search', 1, async (job) => {
        redelivered.push(job.attempt);
        return { ack: true };
      });
      await waitFor(() => redelivered.length > 0, 15_000);
      expect(redelivered[0]).toBeGreaterThanOrEqual(2);
    });
  });
}
