import { randomUUID } from 'node:crypto';
import type { SqlClient } from '@cs/ports';
import {
  TEST_EVENT_TYPE,
  type AnyWebhookEventType,
  type AttemptOutcome,
  type AttemptRecord,
  type ClaimedDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
  type WebhookStore,
} from '@cs/webhooks';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A delivery as the log shows it, with its attempts (oldest first). */
export interface DeliveryRecord {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: AnyWebhookEventType;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  lastResponse: string | null;
  lastDurationMs: number | null;
  createdAt: Date;
  finishedAt: Date | null;
  attempts: {
    attempt: number;
    at: Date;
    statusCode: number | null;
    error: string | null;
    response: string | null;
    durationMs: number;
    outcome: AttemptOutcome;
  }[];
}

const ENDPOINT_COLUMNS = 'id, company_id, url, event_types, enabled, created_at, updated_at';

interface EndpointRow {
  id: string;
  company_id: string;
  url: string;
  event_types: string[];
  enabled: boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

const endpointOf = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  companyId: row.company_id,
  url: row.url,
  eventTypes: row.event_types as WebhookEventType[],
  enabled: row.enabled,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

interface ClaimedRow {
  id: string;
  endpoint_id: string;
  attempts: number;
  created_at: Date | string;
  event_id: string;
  event_type: AnyWebhookEventType;
  payload: Record<string, unknown>;
  event_created_at: Date | string;
  url: string;
  secret: string;
}

const claimedOf = (row: ClaimedRow): ClaimedDelivery => ({
  id: row.id,
  endpointId: row.endpoint_id,
  url: row.url,
  secret: row.secret,
  attempts: row.attempts,
  createdAt: new Date(row.created_at),
  event: { id: row.event_id, type: row.event_type, createdAt: new Date(row.event_created_at), data: row.payload },
});

/** What a claim hands the dispatcher of each delivery, its event and its endpoint. */
const CLAIMED_COLUMNS = `d.id, d.endpoint_id, d.attempts, d.created_at, ev.id AS event_id, ev.type AS event_type, ev.payload,
  ev.created_at AS event_created_at, ep.url, ep.secret`;

/** PostgreSQL text cannot hold U+0000, which an endpoint's answer may: it would fail the attempt's record for good. */
const noNul = (text: string | null) => text?.replace(/\u0000/g, '\uFFFD') ?? null;

const lease = (param: string) => `now() + make_interval(secs => ${param}::double precision / 1000)`;

/**
 * A company's webhook endpoints, the events the triggers of migration 0008 record, their
 * deliveries and the attempts of each: the store of the WebhookDispatcher and of the admin API.
 */
export class WebhooksRepository implements WebhookStore {
  constructor(private readonly sql: SqlClient) {}

  /**
   * A new endpoint, unless the company has `maxPerCompany` already (then null; racing creates may
   * pass the bound by their number at most) or does not exist (null too).
   */
  async createEndpoint(
    endpoint: { companyId: string; url: string; eventTypes: readonly WebhookEventType[]; secret: string },
    maxPerCompany: number,
  ): Promise<WebhookEndpoint | null> {
    const [row] = await this.sql.query<EndpointRow>(
      `INSERT INTO webhook_endpoints (id, company_id, url, event_types, secret)
       SELECT $1, c.id, $3, $4::text[], $5 FROM companies c
       WHERE c.id = $2 AND (SELECT count(*) FROM webhook_endpoints WHERE company_id = $2) < $6
       RETURNING ${ENDPOINT_COLUMNS}`,
      [randomUUID(), endpoint.companyId, endpoint.url, endpoint.eventTypes, endpoint.secret, maxPerCompany],
    );
    return row ? endpointOf(row) : null;
  }

  async listEndpoints(companyId: string): Promise<WebhookEndpoint[]> {
    const rows = await this.sql.query<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE company_id = $1 ORDER BY created_at, id`,
      [companyId],
    );
    return rows.map(endpointOf);
  }

  async getEndpoint(id: string): Promise<WebhookEndpoint | null> {
    const [row] = await this.sql.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1`, [id]);
    return row ? endpointOf(row) : null;
  }

  /** Removes an endpoint with its deliveries and their log; false when there was none. */
  async deleteEndpoint(id: string): Promise<boolean> {
    return (await this.sql.query('DELETE FROM webhook_endpoints WHERE id = $1 RETURNING id', [id])).length > 0;
  }

  /**
   * Enables or disables an endpoint. A disabled endpoint gets no new deliveries and its pending
   * ones wait (their retry window runs on); enabled again, those still pending are sent.
   */
  async setEnabled(id: string, enabled: boolean): Promise<WebhookEndpoint | null> {
    const [row] = await this.sql.query<EndpointRow>(
      `UPDATE webhook_endpoints SET enabled = $2, updated_at = now() WHERE id = $1 RETURNING ${ENDPOINT_COLUMNS}`,
      [id, enabled],
    );
    return row ? endpointOf(row) : null;
  }

  /**
   * One statement: takes up to `limit` new events (rows another dispatcher holds skipped), creates
   * a delivery for each enabled endpoint of the event's company subscribed to its type, and marks
   * the events fanned out, so each is fanned out once.
   */
  async fanOut(limit: number): Promise<number> {
    const rows = await this.sql.query(
      `WITH batch AS (
         SELECT id, company_id, type FROM webhook_events WHERE fanned_out_at IS NULL
         ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED),
       deliveries AS (
         INSERT INTO webhook_deliveries (id, event_id, endpoint_id)
         SELECT gen_random_uuid(), b.id, e.id FROM batch b
         JOIN webhook_endpoints e ON e.company_id = b.company_id AND e.enabled AND b.type = ANY(e.event_types)
         ON CONFLICT (event_id, endpoint_id) DO NOTHING)
       UPDATE webhook_events ev SET fanned_out_at = now() FROM batch WHERE ev.id = batch.id RETURNING ev.id`,
      [limit],
    );
    return rows.length;
  }

  /**
   * Oldest due first. The window ranks each endpoint's due rows (a backlog of a dead endpoint is
   * read, not locked), so that one endpoint's backlog never takes every slot of a claim.
   */
  async claimDue(
    limit: number,
    leaseMs: number,
    fairness: { perEndpoint: number; busyEndpoints: readonly string[] } = { perEndpoint: 2 ** 31 - 1, busyEndpoints: [] },
  ): Promise<ClaimedDelivery[]> {
    const rows = await this.sql.query<ClaimedRow>(
      `WITH ranked AS (
         SELECT d.id, row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at) AS place
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
         WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND e.enabled AND NOT (d.endpoint_id = ANY($4::uuid[]))),
       due AS (
         SELECT d.id FROM webhook_deliveries d JOIN ranked r ON r.id = d.id
         WHERE r.place <= $3 AND d.status = 'pending' AND d.next_attempt_at <= now()
         ORDER BY d.next_attempt_at LIMIT $1 FOR UPDATE OF d SKIP LOCKED)
       UPDATE webhook_deliveries d SET next_attempt_at = ${lease('$2')}
       FROM due, webhook_events ev, webhook_endpoints ep
       WHERE d.id = due.id AND ev.id = d.event_id AND ep.id = d.endpoint_id
       RETURNING ${CLAIMED_COLUMNS}`,
      [limit, leaseMs, fairness.perEndpoint, fairness.busyEndpoints],
    );
    return rows.map(claimedOf);
  }

  /**
   * Stores the attempt and its outcome in one transaction. An attempt already stored (a lease that
   * ran out) is not stored twice; one of a delivery removed meanwhile (its endpoint was) is dropped.
   */
  async recordAttempt(deliveryId: string, attempt: AttemptRecord): Promise<void> {
    await this.sql.transaction(async (tx) => {
      const inserted = await tx.query(
        `INSERT INTO webhook_attempts (delivery_id, attempt, attempted_at, status_code, error, response, duration_ms, outcome)
         SELECT id, $2, $3, $4, $5, $6, $7, $8 FROM webhook_deliveries WHERE id = $1
         ON CONFLICT (delivery_id, attempt) DO NOTHING RETURNING attempt`,
        [
          deliveryId,
          attempt.attempt,
          attempt.at,
          attempt.statusCode,
          noNul(attempt.error),
          noNul(attempt.response),
          attempt.durationMs,
          attempt.outcome,
        ],
      );
      if (inserted.length === 0) return;
      const status: DeliveryStatus = attempt.outcome === 'retrying' ? 'pending' : attempt.outcome;
      await tx.query(
        `UPDATE webhook_deliveries SET status = $2, attempts = GREATEST(attempts, $3), last_attempt_at = $4, last_status_code = $5,
           last_error = $6, last_response = $7, last_duration_ms = $8,
           next_attempt_at = CASE WHEN $2 = 'pending' THEN ${lease('$9')} ELSE next_attempt_at END,
           finished_at = CASE WHEN $2 = 'pending' THEN NULL ELSE now() END
         WHERE id = $1`,
        [
          deliveryId,
          status,
          attempt.attempt,
          attempt.at,
          attempt.statusCode,
          noNul(attempt.error),
          noNul(attempt.response),
          attempt.durationMs,
          attempt.nextAttemptInMs ?? 0,
        ],
      );
    });
  }

  async createTestDelivery(endpointId: string, leaseMs: number): Promise<ClaimedDelivery | null> {
    return this.sql.transaction(async (tx) => {
      const [endpoint] = await tx.query<{ company_id: string }>('SELECT company_id FROM webhook_endpoints WHERE id = $1', [endpointId]);
      if (!endpoint) return null;
      const eventId = randomUUID();
      await tx.query(
        `INSERT INTO webhook_events (id, company_id, type, subject_id, payload, fanned_out_at) VALUES ($1, $2, $3, $4, $5, now())`,
        [
          eventId,
          endpoint.company_id,
          TEST_EVENT_TYPE,
          endpointId,
          { webhookId: endpointId, message: 'A test event sent from the admin API; it concerns no search or document.' },
        ],
      );
      const [row] = await tx.query<ClaimedRow>(
        `WITH d AS (
           INSERT INTO webhook_deliveries (id, event_id, endpoint_id, next_attempt_at) VALUES ($1, $2, $3, ${lease('$4')})
           RETURNING id, endpoint_id, attempts, created_at, event_id)
         SELECT ${CLAIMED_COLUMNS} FROM d JOIN webhook_events ev ON ev.id = d.event_id JOIN webhook_endpoints ep ON ep.id = d.endpoint_id`,
        [randomUUID(), eventId, endpointId, leaseMs],
      );
      return claimedOf(row);
    });
  }

  /** An endpoint's deliveries, newest first, each with its attempts. */
  async listDeliveries(
    endpointId: string,
    options: { limit: number; offset: number; status?: DeliveryStatus },
  ): Promise<{ items: DeliveryRecord[]; total: number }> {
    const filter = options.status ? 'AND d.status = $2' : '';
    const params: unknown[] = options.status ? [endpointId, options.status] : [endpointId];
    const [{ total }] = await this.sql.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM webhook_deliveries d WHERE d.endpoint_id = $1 ${filter}`,
      params,
    );
    const rows = await this.sql.query(
      `SELECT d.id, d.endpoint_id, d.event_id, ev.type AS event_type, d.status, d.attempts, d.next_attempt_at, d.last_status_code,
         d.last_error, d.last_response, d.last_duration_ms, d.created_at, d.finished_at
       FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id
       WHERE d.endpoint_id = $1 ${filter} ORDER BY d.created_at DESC, d.id LIMIT ${Number(options.limit)} OFFSET ${Number(options.offset)}`,
      params,
    );
    const ids = rows.map((r) => r.id as string);
    const attempts =
      ids.length === 0
        ? []
        : await this.sql.query(
            `SELECT delivery_id, attempt, attempted_at, status_code, error, response, duration_ms, outcome FROM webhook_attempts
             WHERE delivery_id = ANY($1::uuid[]) ORDER BY delivery_id, attempt`,
            [ids],
          );
    const byDelivery = new Map<string, DeliveryRecord['attempts']>();
    for (const a of attempts) {
      const list = byDelivery.get(a.delivery_id as string) ?? [];
      list.push({
        attempt: a.attempt as number,
        at: new Date(a.attempted_at as string | Date),
        statusCode: a.status_code as number | null,
        error: a.error as string | null,
        response: a.response as string | null,
        durationMs: a.duration_ms as number,
        outcome: a.outcome as AttemptOutcome,
      });
      byDelivery.set(a.delivery_id as string, list);
    }
    const items = rows.map((r): DeliveryRecord => ({
      id: r.id as string,
      endpointId: r.endpoint_id as string,
      eventId: r.event_id as string,
      eventType: r.event_type as AnyWebhookEventType,
      status: r.status as DeliveryStatus,
      attemptCount: r.attempts as number,
      nextAttemptAt: r.status === 'pending' ? new Date(r.next_attempt_at as string | Date) : null,
      lastStatusCode: r.last_status_code as number | null,
      lastError: r.last_error as string | null,
      lastResponse: r.last_response as string | null,
      lastDurationMs: r.last_duration_ms as number | null,
      createdAt: new Date(r.created_at as string | Date),
      finishedAt: r.finished_at ? new Date(r.finished_at as string | Date) : null,
      attempts: byDelivery.get(r.id as string) ?? [],
    }));
    return { items, total };
  }

  async prune(olderThanMs: number, limit: number): Promise<number> {
    const rows = await this.sql.query(
      `DELETE FROM webhook_events WHERE id IN (
         SELECT id FROM webhook_events WHERE created_at < now() - make_interval(secs => $1::double precision / 1000)
         ORDER BY created_at LIMIT $2)
       RETURNING id`,
      [olderThanMs, limit],
    );
    return rows.length;
  }
}
