import { randomUUID } from 'node:crypto';
import { describeWith, eventually, waitFor, type TestNeed } from '@cs/test-services';
import type { JobKind, JobPayloads, JobQueue } from '../job-queue.port';

export interface OpenedQueue {
  queue: JobQueue;
  /** Kills the queue's "process": no ack, no hand-back, no more heartbeats. */
  crash: () => Promise<void>;
  /** Another instance over the same storage: a restarted process. */
  reopen: () => Promise<JobQueue>;
  /** Jobs of `kind` the queue gave up on, as the reasons it recorded, oldest first. */
  deadLetters: (kind: JobKind) => Promise<string[]>;
  /** Sends raw bytes as a job of `kind`, past `publish`'s types: what a foreign or older publisher may send. */
  publishRaw: (kind: JobKind, id: string, payload: unknown) => Promise<void>;
  cleanup: () => Promise<void>;
  /** The queue's ack wait, where it has one: the long job outlasts it two and a half times. */
  ackWaitMs?: number;
}

const searchJob = (): JobPayloads['search'] => ({ searchId: randomUUID() });
const ingestionJob = (): JobPayloads['ingestion'] => ({ documentId: randomUUID() });

/** The reasons recorded for the jobs of `kind` given up on, once there are `count` of them. */
const deadLettered = (deadLetters: OpenedQueue['deadLetters'], kind: JobKind, count: number) =>
  eventually(
    async () => {
      const reasons = await deadLetters(kind);
      expect(reasons).toHaveLength(count);
      return reasons;
    },
    { timeoutMs: 10_000, intervalMs: 50 },
  );

/**
 * What every JobQueue adapter must do. `open` gets a fresh queue whose maxDeliveries is 3, with
 * short backoffs and (where it has one) an ack wait of a second or two, which it names; `deadLetters` (where given)
 * reads the reasons of the jobs it gave up on. Where a need is missing, the cases are declared
 * skipped.
 *
 * No case sleeps to see that something does not happen: each waits for an event that comes after
 * it would have (a job published later, the dead letter). That takes a queue to deliver a kind's
 * jobs in the order they were published, as both adapters do (a table claimed oldest first, a
 * JetStream stream).
 */
export function describeJobQueueContract(name: string, open: () => Promise<OpenedQueue>, needs: TestNeed[] = []): void {
  describeWith(needs)(`JobQueue contract: ${name}`, () => {
    let opened: OpenedQueue | null;
    const extra: JobQueue[] = [];
    // Opening can mean a database's initdb (PGlite's, in WebAssembly: seconds on a loaded machine).
    beforeEach(async () => {
      opened = null;
      opened = await open();
    }, 30_000);
    afterEach(async () => {
      for (const q of extra.splice(0)) await q.close();
      await opened?.queue.close();
      await opened?.cleanup();
    }, 30_000);
    const test = (title: string, fn: (o: OpenedQueue) => Promise<void>) =>
      it(
        title,
        async () => {
          if (!opened) throw new Error('the queue did not open');
          await fn(opened);
        },
        30_000,
      );

    test('delivers each job once, by id, and forgets it when acknowledged', async ({ queue }) => {
      const seen: string[] = [];
      queue.consume('search', 2, async (job) => {
        seen.push(`${job.id}:${job.payload.searchId}:${job.attempt}`);
        return { ack: true };
      });
      const [a, b] = [searchJob(), searchJob()];
      await queue.publish('search', 'a', a);
      await queue.publish('search', 'b', b);
      await queue.publish('search', 'b', b);
      await queue.publish('ingestion', 'c', ingestionJob());
      // Published last, so delivered after a second copy of b, had the queue kept one.
      const last = searchJob();
      await queue.publish('search', 'last', last);
      await waitFor(() => seen.some((s) => s.startsWith('last:')), { timeoutMs: 10_000, what: 'the last job delivered' });
      expect(seen.sort()).toEqual([`a:${a.searchId}:1`, `b:${b.searchId}:1`, `last:${last.searchId}:1`]);
    });

    test('retries with backoff, then gives up after the last delivery', async ({ queue, deadLetters }) => {
      const attempts: number[] = [];
      queue.consume('ingestion', 1, async (job) => {
        attempts.push(job.attempt);
        return { ack: false, retry: true, reason: 'dependency down' };
      });
      await queue.publish('ingestion', 'poison', ingestionJob());
      // Dead-lettered, a job is never delivered again: the attempts made by then are all it gets.
      expect(await deadLettered(deadLetters, 'ingestion', 1)).toEqual(['dependency down']);
      expect(attempts).toEqual([1, 2, 3]);
    });

    test('gives up at once on a job that cannot succeed', async ({ queue, deadLetters }) => {
      const attempts: number[] = [];
      queue.consume('search', 1, async (job) => {
        attempts.push(job.attempt);
        return { ack: false, retry: false, reason: 'malformed' };
      });
      await queue.publish('search', 'bad', searchJob());
      expect(await deadLettered(deadLetters, 'search', 1)).toEqual(['malformed']);
      expect(attempts).toEqual([1]);
    });

    test('dead-letters a job whose payload its kind does not accept, with the reason, and never hands it to the handler', async ({
      queue,
      deadLetters,
      publishRaw,
    }) => {
      const handled: string[] = [];
      queue.consume('search', 1, async (job) => {
        handled.push(job.id);
        return { ack: true };
      });
      await publishRaw('search', 'not-a-uuid', { searchId: 'not-a-uuid' });
      await publishRaw('search', 'missing', { documentId: randomUUID() });
      await queue.publish('search', 'valid', searchJob());
      await waitFor(() => handled.length >= 1, { timeoutMs: 10_000, what: 'the valid job handled' });
      const reasons = await deadLettered(deadLetters, 'search', 2);
      expect(handled).toEqual(['valid']);
      expect(reasons).toEqual([
        expect.stringMatching(/^invalid search job payload: searchId: /),
        expect.stringMatching(/^invalid search job payload: searchId: /),
      ]);
    });

    test('lists and shows a job it gave up on, and replays it once, under its job id, from its first delivery', async ({ queue }) => {
      const deliveries: string[] = [];
      queue.consume('search', 1, async (job) => {
        deliveries.push(`${job.id}:${job.attempt}`);
        // Given up on at its first delivery; handled when delivered again (a fixed dependency).
        return deliveries.length === 1 ? { ack: false, retry: false, reason: 'malformed' } : { ack: true };
      });
      const payload = searchJob();
      await queue.publish('search', 'bad', payload);
      const [letter] = await eventually(
        async () => {
          const { letters } = await queue.deadLetters({ kind: 'search', limit: 10 });
          expect(letters).toHaveLength(1);
          return letters;
        },
        { timeoutMs: 10_000, intervalMs: 50 },
      );
      const { id, deadAt, ...rest } = letter;
      expect(rest).toEqual({ kind: 'search', jobId: 'bad', payload, reason: 'malformed', deliveries: 1 });
      expect(typeof id).toBe('string');
      expect(deadAt).toBeInstanceOf(Date);
      expect(await queue.deadLetter('search', letter.id)).toEqual(letter);
      expect(await queue.deadLetter('ingestion', letter.id)).toBeNull();
      expect((await queue.deadLetters({ kind: 'ingestion', limit: 10 })).letters).toEqual([]);
      expect((await queue.deadLetters({ limit: 10 })).letters).toEqual([letter]);

      // Replayed within the publish's duplicate window: still delivered, under the same job id.
      expect(await queue.replayDeadLetters('search', letter.id)).toBe(1);
      expect(await queue.replayDeadLetters('search', letter.id)).toBe(0);
      await waitFor(() => deliveries.length === 2, { timeoutMs: 10_000, what: 'the replayed job delivered' });
      expect(deliveries).toEqual(['bad:1', 'bad:1']);
      expect(await queue.deadLetter('search', letter.id)).toBeNull();
      expect((await queue.deadLetters({ limit: 10 })).letters).toEqual([]);
    });

    test('pages its dead letters, replays all of a kind, and purges one or all', async ({ queue }) => {
      const handled: string[] = [];
      const seen = new Set<string>();
      const giveUpFirst = async (job: { id: string }) => {
        if (seen.has(job.id)) {
          handled.push(job.id);
          return { ack: true } as const;
        }
        seen.add(job.id);
        return { ack: false, retry: false, reason: `no ${job.id}` } as const;
      };
      queue.consume('ingestion', 1, giveUpFirst);
      queue.consume('search', 1, giveUpFirst);
      for (const id of ['a', 'b', 'c', 'd']) await queue.publish('ingestion', id, ingestionJob());
      await queue.publish('search', 's', searchJob());
      await eventually(async () => expect((await queue.deadLetters({ limit: 10 })).letters).toHaveLength(5), {
        timeoutMs: 10_000,
        intervalMs: 50,
      });

      const first = await queue.deadLetters({ kind: 'ingestion', limit: 3 });
      expect(first.letters).toHaveLength(3);
      expect(first.next).toBe(first.letters[2].id);
      const second = await queue.deadLetters({ kind: 'ingestion', limit: 3, after: first.next! });
      expect(second).toEqual({ letters: [expect.objectContaining({ kind: 'ingestion' })], next: null });
      const ingestion = [...first.letters, ...second.letters];
      expect(ingestion.map((l) => l.jobId).sort()).toEqual(['a', 'b', 'c', 'd']);
      expect(ingestion.map((l) => l.reason).sort()).toEqual(['no a', 'no b', 'no c', 'no d']);

      const d = ingestion.find((l) => l.jobId === 'd')!;
      expect(await queue.purgeDeadLetters('search', d.id)).toBe(0);
      expect(await queue.purgeDeadLetters('ingestion', d.id)).toBe(1);
      expect(await queue.purgeDeadLetters('ingestion', d.id)).toBe(0);

      expect(await queue.replayDeadLetters('ingestion')).toBe(3);
      await waitFor(() => handled.length === 3, { timeoutMs: 10_000, what: 'the replayed jobs handled' });
      expect(handled.sort()).toEqual(['a', 'b', 'c']);
      expect((await queue.deadLetters({ limit: 10 })).letters).toEqual([expect.objectContaining({ kind: 'search', jobId: 's' })]);

      expect(await queue.purgeDeadLetters('search')).toBe(1);
      expect(await queue.purgeDeadLetters('search')).toBe(0);
      expect((await queue.deadLetters({ limit: 10 })).letters).toEqual([]);
      expect(handled).not.toContain('d');
      expect(handled).not.toContain('s');
    });

    test('keeps a long job that reports progress from being handed out twice', async ({ queue, ackWaitMs = 1000 }) => {
      let calls = 0;
      let finished = false;
      const workMs = 2.5 * ackWaitMs;
      // A second worker stands by, so a job handed out again is taken while the first still holds it.
      queue.consume('search', 2, async () => {
        calls++;
        // The job's work: long past the ack wait, which only its heartbeats extend.
        await new Promise((r) => setTimeout(r, workMs));
        finished = true;
        return { ack: true };
      });
      await queue.publish('search', 'long', searchJob());
      await waitFor(() => finished, { timeoutMs: workMs + 10_000, what: 'the long job finished' });
      expect(calls).toBe(1);
    });

    test('delivers again, after a restart, a job whose worker died', async ({ queue, crash, reopen }) => {
      let first = false;
      queue.consume('search', 1, async () => {
        first = true;
        return new Promise<never>(() => undefined); // the process "dies" holding it
      });
      await queue.publish('search', 'orphan', searchJob());
      await waitFor(() => first, { timeoutMs: 10_000, what: 'the job taken' });
      await crash();
      const restarted = await reopen();
      extra.push(restarted);
      const redelivered: number[] = [];
      restarted.consume('search', 1, async (job) => {
        redelivered.push(job.attempt);
        return { ack: true };
      });
      await waitFor(() => redelivered.length > 0, { timeoutMs: 15_000, what: 'the job delivered again' });
      expect(redelivered[0]).toBeGreaterThanOrEqual(2);
    });
  });
}
