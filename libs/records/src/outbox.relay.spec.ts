import { randomUUID } from 'node:crypto';
import type { DeadLetterPage, JobKind, JobPayloads, JobQueue, QueueStats, SqlClient } from '@cs/ports';
import { waitFor } from '@cs/test-services';
import { outboxId, type OutboxEntry, type OutboxRow } from './outbox.repository';
import { OutboxRelay, type OutboxRelayOptions, type OutboxStore } from './outbox.relay';

/** The outbox table in memory, with its leases and retry times on the clock (Date.now: jest's fake one where installed). */
class FakeOutbox implements OutboxStore {
  readonly rows = new Map<string, OutboxRow & { dueAt: number; lastError: string | null }>();
  /** Set, claims and deletes throw: the database is down. */
  down = false;
  claims = 0;
  /** When each claim came. */
  readonly claimedAt: number[] = [];

  async add(entries: readonly OutboxEntry[], leaseMs: number, tx?: SqlClient): Promise<void> {
    if (!(tx instanceof FakeTransaction) || !tx.open) throw new Error('written outside the transaction');
    for (const entry of entries)
      tx.pending.push(() =>
        this.rows.set(outboxId(entry), { ...entry, id: outboxId(entry), attempts: 0, dueAt: Date.now() + leaseMs, lastError: null }),
      );
  }

  async claimDue(limit: number, leaseMs: number): Promise<OutboxRow[]> {
    this.claims++;
    this.claimedAt.push(Date.now());
    if (this.down) throw new Error('database down');
    const due = [...this.rows.values()].filter((row) => row.dueAt <= Date.now()).slice(0, limit);
    for (const row of due) row.dueAt = Date.now() + leaseMs;
    return due.map(({ dueAt: _, lastError: __, ...row }) => ({ ...row }));
  }

  async delete(ids: readonly string[]): Promise<void> {
    if (this.down) throw new Error('database down');
    for (const id of ids) this.rows.delete(id);
  }

  async release(id: string, delayMs: number, reason: string): Promise<void> {
    const row = this.rows.get(id);
    if (row) Object.assign(row, { attempts: row.attempts + 1, dueAt: Date.now() + delayMs, lastError: reason });
  }
}

/** A transaction whose writes apply at commit, and not at all when its work throws. */
class FakeTransaction implements SqlClient {
  readonly pending: (() => void)[] = [];
  open = true;
  async query<T>(): Promise<T[]> {
    return [];
  }
  async exec(): Promise<void> {
    // nothing to run: the fake holds no tables
  }
  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> {
    return fn(this);
  }
  async close(): Promise<void> {
    // nothing to close
  }
}

const fakeSql: SqlClient = {
  query: async () => [],
  exec: async () => undefined,
  close: async () => undefined,
  async transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> {
    const tx = new FakeTransaction();
    try {
      const value = await fn(tx);
      for (const write of tx.pending) write();
      return value;
    } finally {
      tx.open = false;
    }
  },
};

/** A queue that records what it was given, and refuses while `down`. */
class FakeQueue implements JobQueue {
  readonly published: string[] = [];
  down = false;
  attempts = 0;
  async publish<K extends JobKind>(kind: K, id: string, payload: JobPayloads[K]): Promise<void> {
    this.attempts++;
    if (this.down) throw new Error('queue unreachable');
    this.published.push(`${kind}:${id}:${JSON.stringify(payload)}`);
  }
  consume(): void {
    // the relay only publishes
  }
  stats(): Promise<QueueStats[]> {
    return Promise.resolve([]);
  }
  health() {
    return { ok: true, problems: [] };
  }
  async close(): Promise<void> {
    // nothing to close
  }
  // The relay never reads dead letters.
  deadLetters(): Promise<DeadLetterPage> {
    return Promise.resolve({ letters: [], next: null });
  }
  deadLetter(): Promise<null> {
    return Promise.resolve(null);
  }
  replayDeadLetters(): Promise<number> {
    return Promise.resolve(0);
  }
  purgeDeadLetters(): Promise<number> {
    return Promise.resolve(0);
  }
}

describe('OutboxRelay', () => {
  const fast: Partial<OutboxRelayOptions> = { pollMs: 20, maxPollMs: 200, leaseMs: 100, retryMs: 30, maxRetryMs: 60 };
  let outbox: FakeOutbox;
  let queue: FakeQueue;
  let relay: OutboxRelay;
  const errors: string[] = [];
  const open = (options: Partial<OutboxRelayOptions> = fast) =>
    new OutboxRelay(fakeSql, queue, { ...options, onError: (message) => errors.push(message) }, outbox);
  const writeSearch = (searchId = randomUUID()) =>
    relay.writeWithJobs(async (_tx, addJob) => {
      addJob('search', searchId, { searchId });
      return searchId;
    });

  beforeEach(() => {
    outbox = new FakeOutbox();
    queue = new FakeQueue();
    errors.length = 0;
    relay = open();
  });
  afterEach(() => relay.close());

  it('publishes a job as soon as its transaction commits, without a poll, and deletes its row', async () => {
    const searchId = await writeSearch();
    await waitFor(() => outbox.rows.size === 0);
    expect(queue.published).toEqual([`search:${searchId}:${JSON.stringify({ searchId })}`]);
    expect(outbox.claims).toBe(0);
  });

  it('writes and publishes nothing when the transaction rolls back', async () => {
    await expect(
      relay.writeWithJobs(async (_tx, addJob) => {
        addJob('ingestion', 'd1', { documentId: randomUUID() });
        throw new Error('insert failed');
      }),
    ).rejects.toThrow('insert failed');
    // Nothing to wait for: a commit's publish starts before writeWithJobs returns, and this relay does not poll.
    expect([outbox.rows.size, queue.attempts]).toEqual([0, 0]);
  });

  it('keeps a row whose publish failed, retries it with backoff, and deletes it once published', async () => {
    queue.down = true;
    const searchId = await writeSearch();
    await waitFor(() => queue.attempts === 1);
    await waitFor(() => outbox.rows.get(`search:${searchId}`)?.attempts === 1);
    expect(outbox.rows.get(`search:${searchId}`)?.lastError).toBe('queue unreachable');
    expect(errors[0]).toMatch(/publishing job search:.* failed \(attempt 1\); kept in the outbox/);
    relay.start();
    await waitFor(() => queue.attempts >= 3);
    expect(outbox.rows.get(`search:${searchId}`)?.attempts).toBeGreaterThanOrEqual(2);
    queue.down = false;
    await waitFor(() => outbox.rows.size === 0, { timeoutMs: 3000 });
    expect(queue.published).toEqual([`search:${searchId}:${JSON.stringify({ searchId })}`]);
  });

  it('drains a backlog larger than one claim in one poll', async () => {
    for (let i = 0; i < 25; i++) {
      const id = randomUUID();
      outbox.rows.set(`search:${id}`, {
        kind: 'search',
        jobId: id,
        payload: { searchId: id },
        id: `search:${id}`,
        attempts: 0,
        dueAt: 0,
        lastError: null,
      });
    }
    relay = open({ ...fast, batchSize: 10, pollMs: 60_000 });
    expect(await relay.relayDue()).toBe(true);
    expect([queue.published.length, outbox.rows.size, outbox.claims]).toEqual([25, 0, 3]);
  });

  it('never hands a row to two relays at once', async () => {
    queue.down = true;
    const other = open();
    try {
      const id = randomUUID();
      outbox.rows.set(`search:${id}`, {
        kind: 'search',
        jobId: id,
        payload: { searchId: id },
        id: `search:${id}`,
        attempts: 0,
        dueAt: 0,
        lastError: null,
      });
      await Promise.all([relay.relayDue(), other.relayDue()]);
      expect(queue.attempts).toBe(1);
    } finally {
      await other.close();
    }
  });

  describe('on a fake clock', () => {
    // The relay's polls are timers and the fake outbox's leases read Date.now: both run on jest's
    // clock here, so a test sees exactly when each poll comes, and what it must not do before then.
    beforeEach(() => {
      jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
      jest.spyOn(Math, 'random').mockReturnValue(0.5); // no jitter: waits are exactly as configured
    });
    afterEach(async () => {
      await relay.close();
      jest.restoreAllMocks();
      jest.useRealTimers();
    });
    it('publishes rows a stopped writer left, once their lease has run out', async () => {
      const left = randomUUID();
      // Committed by a process that died before it could publish: its lease has 80 ms to run.
      outbox.rows.set(`ingestion:${left}`, {
        kind: 'ingestion',
        jobId: left,
        payload: { documentId: left },
        id: `ingestion:${left}`,
        attempts: 0,
        dueAt: Date.now() + 80,
        lastError: null,
      });
      relay.start();
      await jest.advanceTimersByTimeAsync(79);
      expect(outbox.claims).toBe(4); // polled at 0, 20, 40 and 60 ms
      expect(queue.published).toEqual([]); // still leased to its writer
      await jest.advanceTimersByTimeAsync(1); // the poll at 80 ms
      expect(queue.published).toEqual([`ingestion:${left}:${JSON.stringify({ documentId: left })}`]);
      expect(outbox.rows.size).toBe(0);
    });

    it('polls less often while the database is down, and as before once it is back', async () => {
      outbox.down = true;
      const started = Date.now();
      relay.start();
      await jest.advanceTimersByTimeAsync(700);
      // Each failed poll doubles the wait, from twice pollMs (20 ms) up to maxPollMs (200 ms).
      expect(outbox.claimedAt.map((t) => t - started)).toEqual([0, 40, 120, 280, 480, 680]);
      expect(errors.every((e) => e.startsWith('reading the outbox failed'))).toBe(true);
      outbox.down = false;
      const left = randomUUID();
      outbox.rows.set(`search:${left}`, {
        kind: 'search',
        jobId: left,
        payload: { searchId: left },
        id: `search:${left}`,
        attempts: 0,
        dueAt: 0,
        lastError: null,
      });
      await jest.advanceTimersByTimeAsync(240); // the poll at 880 ms, then polls every 20 ms again
      expect(queue.published).toEqual([`search:${left}:${JSON.stringify({ searchId: left })}`]);
      const [a, b, c] = outbox.claimedAt.slice(-3);
      expect([b - a, c - b]).toEqual([20, 20]);
    });
  });
});
