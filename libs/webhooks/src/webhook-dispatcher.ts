import { webhookMessage, type StoredWebhookEvent, type WebhookEventType } from './events';
import { nextRetry, type RetrySchedule } from './retry-schedule';
import { webhookHeaders } from './signing';

/** A company's endpoint, without its secret (which is shown once, when it is created). */
export interface WebhookEndpoint {
  id: string;
  companyId: string;
  url: string;
  eventTypes: WebhookEventType[];
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** A delivery claimed for one attempt: the event, where it goes, and the attempts made before. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  url: string;
  secret: string;
  /** Attempts made before this one. */
  attempts: number;
  /** When it was first due: the retry window is counted from here. */
  createdAt: Date;
  event: StoredWebhookEvent;
}

export type AttemptOutcome = 'delivered' | 'retrying' | 'failed';

/** One attempt, as the delivery log shows it. */
export interface AttemptRecord {
  /** 1 for the first attempt. */
  attempt: number;
  at: Date;
  /** The endpoint's HTTP status, null when none came (network error, timeout, refused address). */
  statusCode: number | null;
  /** Why the attempt failed, null when it succeeded. */
  error: string | null;
  /** The start of the endpoint's answer (at most {@link RESPONSE_EXCERPT_BYTES}). */
  response: string | null;
  durationMs: number;
  outcome: AttemptOutcome;
  /** After a failure: the wait before the next attempt; null when there is none. */
  nextAttemptInMs: number | null;
}

/** What the dispatcher needs of the database (WebhooksRepository in libs/records). */
export interface WebhookStore {
  /** Creates the deliveries of up to `limit` new events, each event once; returns how many events it took. */
  fanOut(limit: number): Promise<number>;
  /**
   * Up to `limit` due deliveries of enabled endpoints, leased for `leaseMs` so that no other
   * dispatcher takes them meanwhile: at most `perEndpoint` of one endpoint, none of `busyEndpoints`.
   */
  claimDue(
    limit: number,
    leaseMs: number,
    fairness?: { perEndpoint: number; busyEndpoints: readonly string[] },
  ): Promise<ClaimedDelivery[]>;
  /** Stores an attempt and moves its delivery on (delivered, due again later, or failed for good). */
  recordAttempt(deliveryId: string, attempt: AttemptRecord): Promise<void>;
  /** A `webhook.test` event and its delivery to one endpoint, already leased to the caller; null when there is no such endpoint. */
  createTestDelivery(endpointId: string, leaseMs: number): Promise<ClaimedDelivery | null>;
  /** Removes up to `limit` events older than `olderThanMs`, with their deliveries; returns how many. */
  prune(olderThanMs: number, limit: number): Promise<number>;
}

/** One POST to an endpoint: its status and the start of its answer, or a throw (network error, timeout, refused address). */
export interface WebhookSender {
  send(request: { url: string; headers: Record<string, string>; body: string; timeoutMs: number }): Promise<{
    statusCode: number;
    response: string;
  }>;
}

/** Enough of an endpoint's answer to tell an error page from another. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface WebhookDispatcherOptions {
  schedule: RetrySchedule;
  /** How often new events and due deliveries are looked for. */
  pollMs: number;
  /** Attempts in flight at once in this process. */
  concurrency: number;
  /**
   * Attempts in flight at once to one endpoint, in this process: an endpoint that answers slowly
   * (or not, until the deadline) holds that many of the slots, never all of them.
   */
  perEndpoint: number;
  /** Events one fan-out statement takes. */
  fanOutBatch: number;
  /** One attempt's deadline, connection to the end of the excerpt. */
  timeoutMs: number;
  /** How long a claimed delivery is left to its claimer: well past an attempt's deadline, so no other replica sends it meanwhile. */
  leaseMs: number;
  /** Events (and their deliveries and attempts) older than this are removed. */
  retentionMs: number;
  pruneEveryMs: number;
  onError: (message: string, error: unknown) => void;
  /** Each attempt's outcome and duration (metrics). */
  onAttempt: (outcome: AttemptOutcome, seconds: number) => void;
}

const DEFAULTS: Omit<WebhookDispatcherOptions, 'schedule'> = {
  pollMs: 1000,
  concurrency: 8,
  perEndpoint: 2,
  fanOutBatch: 200,
  timeoutMs: 10_000,
  leaseMs: 60_000,
  retentionMs: 7 * 24 * 3600_000,
  pruneEveryMs: 3600_000,
  onError: () => undefined,
  onAttempt: () => undefined,
};

/** The longest wait between polls while they keep failing (database down). */
const MAX_BACKOFF_MS = 30_000;
/** Rows one prune statement removes: a long backlog goes in short statements. */
const PRUNE_BATCH = 1000;

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Sends events to the endpoints that subscribed to them. Each poll fans new events out into
 * deliveries (one per subscribed endpoint, each event once), then claims due deliveries for the
 * free slots (`concurrency` in all, `perEndpoint` for one endpoint) and starts one attempt each
 * without waiting for it; while claims come back full, each finished attempt polls again at once,
 * so a backlog drains at the pace of the endpoints, and a slow one delays only its own. 2xx is
 * delivered; any other status, a timeout or a network error is retried on the schedule, then failed
 * for good. Claims lease their rows, so several processes (gateway replicas) never send one
 * delivery at once; a process that dies mid-attempt leaves its rows to be claimed again when the
 * lease ends (at least once: receivers deduplicate by `webhook-id`).
 */
export class WebhookDispatcher {
  private readonly options: WebhookDispatcherOptions;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Attempts of the polls in flight, by endpoint (test sends are not counted). */
  private readonly busy = new Map<string, number>();
  private polled = 0;
  /** The last claim filled every free slot: more may be due than were taken. */
  private moreDue = false;
  /** An attempt finished during a poll while more were due: the next poll starts at once. */
  private pollAgain = false;
  private started = false;
  private failures = 0;
  private lastPruneAt = 0;
  private closed = false;

  constructor(
    private readonly store: WebhookStore,
    private readonly sender: WebhookSender,
    options: Partial<Omit<WebhookDispatcherOptions, 'schedule'>> & Pick<WebhookDispatcherOptions, 'schedule'>,
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Starts polling (a first poll at once: what a stopped process left). */
  start(): void {
    this.started = true;
    if (!this.closed && !this.timer && !this.polling) this.schedule(0);
  }

  /** Stops polling; attempts in flight finish (each within its deadline) before this resolves. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.allSettled([this.polling, ...this.inFlight]);
  }

  /**
   * One poll: fans out every new event, starts attempts of due deliveries in the free slots, and
   * prunes when it is time. False when the database failed: the pass stops there, and the next
   * waits longer. Attempts run on after it returns (close() waits for them).
   */
  async pass(): Promise<boolean> {
    try {
      while ((await this.store.fanOut(this.options.fanOutBatch)) === this.options.fanOutBatch && !this.closed);
      const free = this.options.concurrency - this.polled;
      if (free > 0 && !this.closed) {
        // An endpoint with attempts in flight waits for them: it never has more than perEndpoint at once.
        const busyEndpoints = [...this.busy.keys()];
        const due = await this.store.claimDue(free, this.options.leaseMs, { perEndpoint: this.options.perEndpoint, busyEndpoints });
        // More may be due than this claim took (or could take, of the busy endpoints): finished attempts poll again.
        this.moreDue = due.length > 0 || busyEndpoints.length > 0;
        for (const delivery of due) this.startAttempt(delivery);
      }
      if (Date.now() - this.lastPruneAt >= this.options.pruneEveryMs) {
        this.lastPruneAt = Date.now();
        while ((await this.store.prune(this.options.retentionMs, PRUNE_BATCH)) === PRUNE_BATCH && !this.closed);
      }
      return true;
    } catch (error) {
      this.options.onError('reading or writing webhook deliveries failed; polling again later', error);
      return false;
    }
  }

  /** Sends a `webhook.test` event to one endpoint now; its first attempt's record, or null when there is no such endpoint. */
  async sendTest(endpointId: string): Promise<{ deliveryId: string; eventId: string; attempt: AttemptRecord } | null> {
    const delivery = await this.store.createTestDelivery(endpointId, this.options.leaseMs);
    if (!delivery) return null;
    const attempt = await this.track(this.attempt(delivery));
    return { deliveryId: delivery.id, eventId: delivery.event.id, attempt };
  }

  /** An attempt of a poll: it holds a slot until it is recorded; then, when more were due, the next poll starts at once. */
  private startAttempt(delivery: ClaimedDelivery): void {
    this.polled++;
    this.busy.set(delivery.endpointId, (this.busy.get(delivery.endpointId) ?? 0) + 1);
    void this.track(this.attempt(delivery))
      .catch((error: unknown) =>
        this.options.onError(`recording an attempt of delivery ${delivery.id} failed; it is sent again after its lease`, error),
      )
      .finally(() => {
        this.polled--;
        const left = (this.busy.get(delivery.endpointId) ?? 1) - 1;
        if (left > 0) this.busy.set(delivery.endpointId, left);
        else this.busy.delete(delivery.endpointId);
        if (this.moreDue) this.pollSoon();
      });
  }

  /** Polls now, or right after the poll that runs; not before start() nor after close(). */
  private pollSoon(): void {
    if (!this.started || this.closed) return;
    if (this.polling) this.pollAgain = true;
    else if (this.timer) {
      clearTimeout(this.timer);
      this.schedule(0);
    }
  }

  /**
   * One attempt: signed now (the timestamp is the attempt's, the body the same every time), sent,
   * and recorded. When recording fails the lease runs out and the delivery is sent again.
   */
  private async attempt(delivery: ClaimedDelivery): Promise<AttemptRecord> {
    const body = JSON.stringify(webhookMessage(delivery.event));
    const at = new Date();
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'candidate-search-webhooks/1',
      ...webhookHeaders(delivery.secret, delivery.event.id, body, at),
    };
    const started = performance.now();
    let statusCode: number | null = null;
    let response: string | null = null;
    let error: string | null = null;
    try {
      ({ statusCode, response } = await this.sender.send({ url: delivery.url, headers, body, timeoutMs: this.options.timeoutMs }));
      if (statusCode < 200 || statusCode > 299)
        error = `the endpoint answered HTTP ${statusCode}${statusCode >= 300 && statusCode < 400 ? '; redirects are not followed' : ''}`;
    } catch (sendError) {
      error = describe(sendError);
    }
    const durationMs = Math.round(performance.now() - started);
    const attempt = delivery.attempts + 1;
    const retry = error === null ? null : nextRetry(this.options.schedule, attempt, delivery.createdAt, new Date());
    const record: AttemptRecord = {
      attempt,
      at,
      statusCode,
      error,
      response,
      durationMs,
      outcome: retry === null ? 'delivered' : retry.retry ? 'retrying' : 'failed',
      nextAttemptInMs: retry?.retry ? retry.delayMs : null,
    };
    await this.store.recordAttempt(delivery.id, record);
    this.options.onAttempt(record.outcome, durationMs / 1000);
    return record;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.polling = this.pass().then((ok) => {
        this.failures = ok ? 0 : this.failures + 1;
        this.polling = null;
        const again = this.pollAgain && ok;
        this.pollAgain = false;
        if (!this.closed)
          this.schedule(
            again ? 0 : this.failures === 0 ? this.options.pollMs : Math.min(this.options.pollMs * 2 ** this.failures, MAX_BACKOFF_MS),
          );
      });
    }, ms);
    this.timer.unref();
  }

  /** Attempts are awaited by close(), whoever started them (a poll or a test send). */
  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.catch(() => undefined).finally(() => this.inFlight.delete(work));
    return work;
  }
}
