import {
  AckPolicy,
  DeliverPolicy,
  RetentionPolicy,
  StorageType,
  jetstream,
  jetstreamManager,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type StoredMsg,
} from '@nats-io/jetstream';
import { headers, nanos, type ConnectionOptions, type MsgHdrs, type NatsConnection, type Subscription } from '@nats-io/nats-core';
import { connect as connectUntyped } from '@nats-io/transport-node';
import { JOB_KINDS } from '@cs/contracts';
import { currentTraceCarrier } from '@cs/telemetry';
import {
  DeliveryCounts,
  MAX_DEAD_LETTER_PAGE,
  type DeadLetter,
  type DeadLetterPage,
  type DeadLetterQuery,
  type QueueStats,
  checkedHandler,
  type Job,
  type JobHandler,
  type JobKind,
  type JobOutcome,
  type JobPayloads,
  type JobQueue,
} from '@cs/ports';

// @nats-io/transport-node's declarations import @nats-io/nats-core/internal, which our moduleResolution
// ("node") cannot resolve, so its connect() returns an unresolved type; typed here once from nats-core.
const connect = connectUntyped as (options: ConnectionOptions) => Promise<NatsConnection>;

export interface NatsQueueOptions {
  servers: string;
  /** Prefix of stream, subject and consumer names (one per environment or test run). */
  prefix: string;
  /** Deliveries before a job goes to the dead-letter subject. */
  maxDeliveries: number;
  /** Unacknowledged this long, a job is redelivered; handlers send `working` well within it. */
  ackWaitMs: number;
  /** Delay before redelivery n (the last value repeats). */
  backoffMs: number[];
  connectionName: string;
  /** On close, how long jobs in hand may run on before they are handed back (nak). */
  shutdownGraceMs: number;
  onError: (error: unknown) => void;
  /** A consumer lost this long, NATS reachable all the while, cannot be recreated: `onFatal` is told. */
  recoveryLimitMs: number;
  /** Called once a consume loop cannot recover: the process should exit non-zero, so that it is restarted. */
  onFatal: (reason: string) => void;
}

const DEFAULTS: Omit<NatsQueueOptions, 'servers'> = {
  prefix: 'cs',
  maxDeliveries: 5,
  ackWaitMs: 30_000,
  backoffMs: [1000, 5000, 15_000, 30_000],
  connectionName: 'candidate-search',
  shutdownGraceMs: 8000,
  onError: () => undefined,
  recoveryLimitMs: 120_000,
  onFatal: () => undefined,
};

/** Names of the queue's JetStream objects, for the admin tooling and the tests. */
export function natsNames(prefix: string) {
  const upper = prefix.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
  return {
    stream: `${upper}_JOBS`,
    deadLetterStream: `${upper}_DEAD_LETTERS`,
    subject: (kind: JobKind) => `${prefix}.jobs.${kind}`,
    deadLetterSubject: (kind: JobKind) => `${prefix}.dead.${kind}`,
    allDeadLetters: `${prefix}.dead.*`,
    consumer: (kind: JobKind) => `${prefix}-${kind}-workers`,
    /** JetStream's advisory when a job was delivered `max_deliver` times and never acknowledged. */
    maxDeliveriesAdvisory: `$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${upper}_JOBS.*`,
  };
}

/** The fields of JetStream's max-deliveries advisory that dead-lettering needs. */
interface MaxDeliveriesAdvisory {
  consumer: string;
  stream_seq: number;
  deliveries: number;
}

/**
 * The cluster's job queue on NATS JetStream: one work-queue stream, a durable pull consumer per
 * job kind with explicit acks, bounded deliveries with backoff, `working` heartbeats for long
 * jobs, and a dead-letter stream for jobs that cannot succeed. Publishing is idempotent by job id
 * (the stream's duplicate window), and so must handlers be.
 */
export class NatsJobQueue implements JobQueue {
  private readonly consumers: ConsumerMessages[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  /** Messages handlers hold right now, with the timer of their `working` heartbeats. */
  private readonly held = new Map<JsMsg, NodeJS.Timeout>();
  private closed = false;
  private readonly counts = new DeliveryCounts();
  private advisories: Subscription | null = null;
  /** Per kind consumed: whether its loop is pulling now, and why not. */
  private readonly loops = new Map<JobKind, { pulling: boolean; problem?: string }>();
  private connected = true;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly options: NatsQueueOptions,
  ) {}

  static async open(options: Partial<NatsQueueOptions> & { servers: string }): Promise<NatsJobQueue> {
    const merged = { ...DEFAULTS, ...options };
    const nc = await connect({
      servers: merged.servers,
      name: merged.connectionName,
      timeout: 5000,
      maxReconnectAttempts: -1,
    });
    const jsm = await jetstreamManager(nc);
    await ensureTopology(jsm, merged);
    const queue = new NatsJobQueue(nc, jetstream(nc), jsm, merged);
    queue.watchMaxDeliveries();
    queue.watchConnection();
    return queue;
  }

  /**
   * A job whose workers crashed or hung on each of its deliveries is never delivered again, and
   * no handler is left to dead-letter it: JetStream says so in an advisory, and one replica (a
   * queue group) copies the job to the dead-letter stream and takes it out of the work queue.
   */
  private watchMaxDeliveries(): void {
    const names = natsNames(this.options.prefix);
    const sub = this.nc.subscribe(names.maxDeliveriesAdvisory, { queue: `${this.options.prefix}-dead-letters` });
    this.advisories = sub;
    void (async () => {
      for await (const message of sub) {
        try {
          await this.deadLetterUndelivered(message.json<MaxDeliveriesAdvisory>());
        } catch (error) {
          this.options.onError(error);
        }
      }
    })();
  }

  private async deadLetterUndelivered(advisory: MaxDeliveriesAdvisory): Promise<void> {
    const names = natsNames(this.options.prefix);
    const kind = JOB_KINDS.find((k) => names.consumer(k) === advisory.consumer);
    if (!kind) return;
    const stored = await this.jsm.streams.getMessage(names.stream, { seq: advisory.stream_seq }).catch(() => null);
    if (!stored) return; // already acknowledged or dead-lettered by a handler
    const h = headers();
    h.set('Cs-Dead-Reason', `never acknowledged in ${advisory.deliveries} deliveries: its workers crashed or hung each time`);
    h.set('Cs-Deliveries', String(advisory.deliveries));
    h.set('Cs-Original-Subject', stored.subject);
    h.set('Cs-Job-Id', jobIdOf(kind, stored.header.get('Nats-Msg-Id'), advisory.stream_seq));
    // Idempotent by sequence: a second advisory (or replica) adds no second copy.
    await this.js.publish(names.deadLetterSubject(kind), stored.data, {
      headers: h,
      msgID: `max-deliveries:${advisory.stream_seq}`,
      timeout: 5000,
    });
    await this.jsm.streams.deleteMessage(names.stream, advisory.stream_seq).catch(() => false);
    this.counts.deadLettered(kind);
  }

  async publish<K extends JobKind>(kind: K, id: string, payload: JobPayloads[K], trace = currentTraceCarrier()): Promise<void> {
    // The trace context travels in the message's headers (traceparent, tracestate), as W3C says for messaging.
    const h = headers();
    for (const [key, value] of Object.entries(trace ?? {})) h.set(key, value);
    await this.js.publish(natsNames(this.options.prefix).subject(kind), JSON.stringify(payload), {
      msgID: `${kind}:${id}`,
      timeout: 5000,
      headers: h,
    });
  }

  /** Letters in stream order; the sequence is the page cursor. */
  async deadLetters({ kind, limit, after }: DeadLetterQuery): Promise<DeadLetterPage> {
    const names = natsNames(this.options.prefix);
    const size = Math.min(Math.max(1, limit), MAX_DEAD_LETTER_PAGE);
    const subject = kind ? names.deadLetterSubject(kind) : names.allDeadLetters;
    let seq = after && /^\d+$/.test(after) ? Number(after) + 1 : 1;
    const letters: DeadLetter[] = [];
    while (letters.length < size) {
      const stored = await this.jsm.direct.getMessage(names.deadLetterStream, { next_by_subj: subject, seq });
      if (!stored) return { letters, next: null };
      const letter = this.letterOf(stored);
      if (letter) letters.push(letter);
      seq = stored.seq + 1;
    }
    return { letters, next: letters[letters.length - 1].id };
  }

  async deadLetter(kind: JobKind, id: string): Promise<DeadLetter | null> {
    const stored = await this.storedLetter(kind, id);
    return stored ? this.letterOf(stored) : null;
  }

  /**
   * Publishes the job again under its job id: the msgID carries the letter's sequence, so the
   * stream's duplicate window (which remembers `kind:id`) lets it through once, and a second
   * replay of the same letter is a duplicate. The letter is removed after the publish: a crash
   * between the two leaves it listed, and replaying it again is harmless.
   */
  async replayDeadLetters(kind: JobKind, id?: string): Promise<number> {
    if (id !== undefined) return (await this.replayOne(kind, id)) ? 1 : 0;
    const names = natsNames(this.options.prefix);
    // Bounded by the letters there are now: a replayed job given up on again is not replayed twice.
    const last = (await this.jsm.streams.info(names.deadLetterStream)).state.last_seq;
    let replayed = 0;
    let after: string | undefined;
    for (;;) {
      const page = await this.deadLetters({ kind, limit: MAX_DEAD_LETTER_PAGE, after });
      for (const letter of page.letters) {
        if (Number(letter.id) > last) return replayed;
        if (await this.replayOne(kind, letter.id)) replayed++;
      }
      if (!page.next) return replayed;
      after = page.next;
    }
  }

  async purgeDeadLetters(kind: JobKind, id?: string): Promise<number> {
    const names = natsNames(this.options.prefix);
    if (id === undefined) return (await this.jsm.streams.purge(names.deadLetterStream, { filter: names.deadLetterSubject(kind) })).purged;
    if (!(await this.storedLetter(kind, id))) return 0;
    return (await this.jsm.streams.deleteMessage(names.deadLetterStream, Number(id), false)) ? 1 : 0;
  }

  private async replayOne(kind: JobKind, id: string): Promise<boolean> {
    const stored = await this.storedLetter(kind, id);
    if (!stored) return false;
    const names = natsNames(this.options.prefix);
    const h = headers();
    for (const [key, value] of Object.entries(currentTraceCarrier() ?? {})) h.set(key, value);
    const jobId = stored.header?.get('Cs-Job-Id') || `seq-${stored.seq}`;
    await this.js.publish(names.subject(kind), stored.data, { msgID: replayMsgId(kind, jobId, stored.seq), timeout: 5000, headers: h });
    await this.jsm.streams.deleteMessage(names.deadLetterStream, stored.seq, false).catch(() => false);
    return true;
  }

  /** The stored letter with sequence `id`, if it is one of `kind`'s. */
  private async storedLetter(kind: JobKind, id: string): Promise<StoredMsg | null> {
    if (!/^\d{1,15}$/.test(id) || Number(id) < 1) return null;
    const names = natsNames(this.options.prefix);
    const stored = await this.jsm.streams.getMessage(names.deadLetterStream, { seq: Number(id) });
    return stored?.subject === names.deadLetterSubject(kind) ? stored : null;
  }

  private letterOf(stored: StoredMsg): DeadLetter | null {
    const names = natsNames(this.options.prefix);
    const kind = JOB_KINDS.find((k) => names.deadLetterSubject(k) === stored.subject);
    if (!kind) return null;
    let payload: unknown;
    try {
      payload = stored.json<unknown>();
    } catch {
      payload = stored.string(); // not JSON: the reason says so
    }
    return {
      id: String(stored.seq),
      kind,
      jobId: stored.header?.get('Cs-Job-Id') || `seq-${stored.seq}`,
      payload,
      reason: stored.header?.get('Cs-Dead-Reason') ?? '',
      deliveries: Number(stored.header?.get('Cs-Deliveries') || 0),
      deadAt: stored.time,
    };
  }

  consume<K extends JobKind>(kind: K, concurrency: number, handler: JobHandler<JobPayloads[K]>): void {
    // An invalid payload goes to the dead letters with the reason in Cs-Dead-Reason.
    this.counts.track(kind);
    const run = this.keepPulling(kind, concurrency, checkedHandler(kind, handler)).catch(this.options.onError);
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  /** Whether NATS is connected and every consume loop is pulling; what is wrong, if not. */
  health(): { ok: boolean; problems: string[] } {
    // A process that only publishes (the gateway) is not unwell when NATS is away: its outbox keeps the jobs.
    const problems = [
      ...(this.connected || this.loops.size === 0 ? [] : ['NATS is unreachable (reconnecting)']),
      ...[...this.loops]
        .filter(([, loop]) => !loop.pulling)
        .map(([kind, loop]) => `the ${kind} consumer is not pulling: ${loop.problem ?? 'starting'}`),
    ];
    return { ok: problems.length === 0, problems };
  }

  /** The connection's state, for health: the client reconnects on its own, for ever. */
  private watchConnection(): void {
    void (async () => {
      for await (const status of this.nc.status()) {
        if (status.type === 'disconnect') this.connected = false;
        else if (status.type === 'reconnect') this.connected = true;
      }
    })().catch(() => undefined);
  }

  /**
   * Pulls until the queue closes. A consumer that goes (deleted, or its stream) ends the pull; it
   * is then created again (ensureTopology) and pulled from, with a backoff. If that keeps failing
   * while NATS is reachable, `onFatal` is told, once: a restart is the remedy left.
   */
  private async keepPulling(kind: JobKind, concurrency: number, handler: JobHandler<unknown>): Promise<void> {
    let failingSince: number | null = null;
    let delayMs = 250;
    this.loops.set(kind, { pulling: false });
    while (!this.closed) {
      let problem: string;
      try {
        await this.pull(kind, concurrency, handler, () => {
          this.loops.set(kind, { pulling: true });
          failingSince = null;
          delayMs = 250;
        });
        problem = 'its consumer stopped delivering';
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
      }
      if (this.closed) return;
      this.loops.set(kind, { pulling: false, problem });
      this.options.onError(`the ${kind} consumer stopped (${problem}); creating it again`);
      if (this.connected) failingSince ??= Date.now();
      else failingSince = null; // NATS down is the connection's to mend, not a reason to restart
      if (failingSince !== null && Date.now() - failingSince > this.options.recoveryLimitMs) {
        this.options.onFatal(
          `the ${kind} consumer could not be recreated for ${Math.round((Date.now() - failingSince) / 1000)} s: ${problem}`,
        );
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(delayMs * 2, 5000);
      await ensureTopology(this.jsm, this.options).catch((error: unknown) => this.options.onError(error));
    }
  }

  private async pull(kind: JobKind, concurrency: number, handler: JobHandler<unknown>, started: () => void): Promise<void> {
    const names = natsNames(this.options.prefix);
    const consumer = await this.js.consumers.get(names.stream, names.consumer(kind));
    // Told that its consumer or stream is gone, the pull ends (abort) instead of waiting for it to come back by itself.
    const messages = await consumer.consume({ max_messages: concurrency, abort_on_missing_resource: true });
    this.consumers.push(messages);
    if (this.closed) messages.stop(); // close() ran while this pull was starting
    started();
    void (async () => {
      for await (const status of messages.status()) {
        if (status.type === 'consumer_deleted' || status.type === 'consumer_not_found' || status.type === 'stream_not_found')
          messages.stop();
      }
    })().catch(() => undefined);
    const running = new Set<Promise<void>>();
    try {
      for await (const msg of messages) {
        if (this.closed) {
          msg.nak();
          continue;
        }
        const task = this.handle(kind, msg, handler).catch(this.options.onError);
        running.add(task);
        void task.finally(() => running.delete(task));
        if (running.size >= concurrency) await Promise.race(running);
      }
    } finally {
      // A lost consumer ends the iteration with an error: the jobs in hand still finish before a
      // new pull starts, so the kind never runs more than `concurrency` at once.
      await Promise.allSettled([...running]);
      const index = this.consumers.indexOf(messages);
      if (index >= 0) this.consumers.splice(index, 1);
    }
  }

  private async handle(kind: JobKind, msg: JsMsg, handler: JobHandler<unknown>): Promise<void> {
    let payload: unknown;
    try {
      payload = msg.json<unknown>();
    } catch {
      await this.toDeadLetters(kind, msg, 'the message is not JSON');
      return;
    }
    // JsMsg's headers are declared from @nats-io/nats-core/internal, unresolved here (see connect above).
    const msgHeaders = msg.headers as MsgHdrs | undefined;
    const id = jobIdOf(kind, msgHeaders?.get('Nats-Msg-Id'), msg.seq);
    const traceparent = msgHeaders?.get('traceparent');
    const tracestate = msgHeaders?.get('tracestate');
    const trace = traceparent ? { traceparent, ...(tracestate ? { tracestate } : {}) } : undefined;
    const job: Job<unknown> = { id, kind, payload, attempt: msg.info.deliveryCount, trace };
    this.counts.delivered(kind, job.attempt);
    const heartbeat = setInterval(() => msg.working(), Math.max(200, this.options.ackWaitMs / 3));
    let outcome: JobOutcome;
    this.held.set(msg, heartbeat);
    try {
      outcome = await handler(job);
    } catch (error) {
      outcome = { ack: false, retry: true, reason: error instanceof Error ? error.message : String(error) };
    } finally {
      clearInterval(heartbeat);
      this.held.delete(msg);
    }
    if (this.nc.isClosed()) return; // released at shutdown: redelivered elsewhere
    if (outcome.ack) {
      await msg.ackAck();
    } else if (outcome.retry && job.attempt < this.options.maxDeliveries) {
      const backoff = this.options.backoffMs;
      msg.nak(backoff[Math.min(job.attempt - 1, backoff.length - 1)]);
    } else {
      await this.toDeadLetters(kind, msg, outcome.reason);
    }
  }

  /** A copy with the reason goes to the dead-letter stream; the job itself is terminated. */
  private async toDeadLetters(kind: JobKind, msg: JsMsg, reason: string): Promise<void> {
    await this.js.publish(natsNames(this.options.prefix).deadLetterSubject(kind), msg.data, {
      headers: deadLetterHeaders(kind, msg, reason),
      timeout: 5000,
    });
    msg.term(); // the reason travels in the dead letter's headers
    this.counts.deadLettered(kind);
  }

  /** A round trip to the server, within 2 s. */
  async ping(): Promise<void> {
    if (this.nc.isClosed()) throw new Error('the NATS connection is closed');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('NATS did not answer within 2 s')), 2000)));
    try {
      await Promise.race([this.nc.flush(), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async stats(): Promise<QueueStats[]> {
    const names = natsNames(this.options.prefix);
    // Each kind on its own: one that cannot be read (its consumer just deleted) hides no other.
    const read = await Promise.allSettled(
      this.counts.kinds().map(async (kind) => {
        const info = await this.jsm.consumers.info(names.stream, names.consumer(kind));
        const pendingJobs = info.num_pending + info.num_ack_pending;
        // A work-queue stream keeps only unacknowledged jobs: the subject's first message is the oldest.
        const oldest =
          pendingJobs > 0
            ? await this.jsm.direct.getMessage(names.stream, { next_by_subj: names.subject(kind), seq: 0 }).catch(() => null)
            : null;
        const oldestJobAgeSeconds = oldest ? Math.max(0, (Date.now() - oldest.time.getTime()) / 1000) : 0;
        return { kind, pendingJobs, oldestJobAgeSeconds, ...this.counts.of(kind) };
      }),
    );
    return read.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  }

  /** Drops the connection at once, handing nothing back: what a crash does (fault tests). */
  async abandon(): Promise<void> {
    this.closed = true;
    this.advisories?.unsubscribe();
    for (const heartbeat of this.held.values()) clearInterval(heartbeat);
    this.held.clear();
    await this.nc.close();
  }

  /** Stops pulling; jobs in hand may finish within the grace period, then are handed back. */
  async close(): Promise<void> {
    this.closed = true;
    this.advisories?.unsubscribe();
    for (const messages of this.consumers) messages.stop();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.shutdownGraceMs)));
    await Promise.race([Promise.allSettled([...this.inFlight]), grace]);
    clearTimeout(timer);
    for (const heartbeat of this.held.values()) clearInterval(heartbeat);
    if (this.nc.isClosed()) return;
    for (const msg of this.held.keys()) msg.nak();
    this.held.clear();
    await this.nc.drain();
  }
}

/** A replay's msgID: `kind:id` would be a duplicate for 10 minutes, so the letter's sequence follows it. */
const replayMsgId = (kind: JobKind, jobId: string, deadLetterSeq: number) => `${kind}:${jobId}~replay-${deadLetterSeq}`;

/** The job id a `Nats-Msg-Id` carries (`kind:id`, or a replay's `kind:id~replay-seq`); else one from the sequence. */
function jobIdOf(kind: JobKind, msgId: string | undefined, seq: number): string {
  const id = (msgId ?? '').replace(`${kind}:`, '').replace(/~replay-\d+$/, '');
  return id || `seq-${seq}`;
}

function deadLetterHeaders(kind: JobKind, msg: JsMsg, reason: string) {
  const h = headers();
  // The job id travels with the letter, so that a replay is delivered under it.
  h.set('Cs-Job-Id', jobIdOf(kind, (msg.headers as MsgHdrs | undefined)?.get('Nats-Msg-Id'), msg.seq));
  h.set('Cs-Dead-Reason', reason.slice(0, 500));
  h.set('Cs-Deliveries', String(msg.info.deliveryCount));
  h.set('Cs-Original-Subject', msg.subject);
  return h;
}

/** Creates or updates the streams and consumers; safe to run at every start, by every replica. */
export async function ensureTopology(
  jsm: JetStreamManager,
  options: Pick<NatsQueueOptions, 'prefix' | 'maxDeliveries' | 'ackWaitMs' | 'backoffMs'>,
): Promise<void> {
  const names = natsNames(options.prefix);
  await upsertStream(jsm, {
    name: names.stream,
    subjects: JOB_KINDS.map(names.subject),
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    // Direct gets: the oldest waiting job of a kind is read for the backlog-age metric.
    allow_direct: true,
    duplicate_window: nanos(10 * 60_000),
  });
  await upsertStream(jsm, {
    name: names.deadLetterStream,
    subjects: JOB_KINDS.map(names.deadLetterSubject),
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    // Direct gets by subject page through the letters for the admin API.
    allow_direct: true,
    max_age: nanos(14 * 24 * 3600_000),
  });
  for (const kind of JOB_KINDS) {
    const config = {
      durable_name: names.consumer(kind),
      filter_subject: names.subject(kind),
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(options.ackWaitMs),
      max_deliver: options.maxDeliveries,
      max_ack_pending: 1000,
    };
    try {
      await jsm.consumers.info(names.stream, config.durable_name);
      await jsm.consumers.update(names.stream, config.durable_name, {
        ack_wait: config.ack_wait,
        max_deliver: config.max_deliver,
        max_ack_pending: config.max_ack_pending,
      });
    } catch {
      await jsm.consumers.add(names.stream, config);
    }
  }
}

async function upsertStream(
  jsm: JetStreamManager,
  config: Parameters<JetStreamManager['streams']['add']>[0] & { name: string },
): Promise<void> {
  try {
    await jsm.streams.info(config.name);
    await jsm.streams.update(config.name, config);
  } catch {
    await jsm.streams.add(config);
  }
}

/** Deletes a prefix's streams (and so their consumers): test clean-up. */
export async function deleteTopology(servers: string, prefix: string): Promise<void> {
  const nc = await connect({ servers, timeout: 5000 });
  const jsm = await jetstreamManager(nc);
  const names = natsNames(prefix);
  for (const stream of [names.stream, names.deadLetterStream]) await jsm.streams.delete(stream).catch(() => false);
  await nc.drain();
}
