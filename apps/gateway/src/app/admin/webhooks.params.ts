import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, isWebhookEventType, type AttemptRecord, type WebhookEndpoint, type WebhookEventType } from '@cs/webhooks';
import type { DeliveryRecord } from '@cs/records';

const urlError = 'url must be an http or https URL of at most 2048 characters';
const eventsError = `events must be a non-empty list of distinct event types: ${WEBHOOK_EVENT_TYPES.join(', ')}`;

/** `POST /admin/v1/companies/{companyId}/webhooks`: `events` absent subscribes to every type. */
export const createWebhookBody = z
  .object({
    url: z
      .string({ error: urlError })
      .min(1, { error: urlError })
      .max(2048, { error: urlError })
      .refine((v) => !/[\u0000-\u001f\u007f\s]/.test(v), { error: 'url must not contain spaces or control characters', abort: true }),
    events: z
      .array(z.string({ error: eventsError }), { error: eventsError })
      .min(1, { error: eventsError })
      .max(WEBHOOK_EVENT_TYPES.length, { error: eventsError })
      .refine((list) => list.every(isWebhookEventType) && new Set(list).size === list.length, { error: eventsError })
      .optional()
      .transform((list): WebhookEventType[] => (list as WebhookEventType[] | undefined) ?? [...WEBHOOK_EVENT_TYPES]),
  })
  .strict();

const queryInt = (field: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, { error: `${field} must be an integer between ${min} and ${max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `${field} must be an integer between ${min} and ${max}` })
        .max(max, { error: `${field} must be an integer between ${min} and ${max}` }),
    )
    .optional()
    .transform((v) => v ?? fallback);

/** `GET /admin/v1/webhooks/{webhookId}/deliveries?limit&offset&status`. */
export const deliveriesQuery = z
  .object({
    limit: queryInt('limit', 1, 100, 20),
    offset: queryInt('offset', 0, 1_000_000, 0),
    status: z.enum(['pending', 'delivered', 'failed'], { error: 'status must be one of pending, delivered, failed' }).optional(),
  })
  .strict();

export const webhookView = (endpoint: WebhookEndpoint) => ({
  webhookId: endpoint.id,
  companyId: endpoint.companyId,
  url: endpoint.url,
  events: endpoint.eventTypes,
  enabled: endpoint.enabled,
  createdAt: endpoint.createdAt.toISOString(),
  updatedAt: endpoint.updatedAt.toISOString(),
});

const attemptView = (a: DeliveryRecord['attempts'][number]) => ({
  attempt: a.attempt,
  at: a.at.toISOString(),
  outcome: a.outcome,
  statusCode: a.statusCode,
  error: a.error,
  durationMs: a.durationMs,
  response: a.response,
});

export const deliveryView = (d: DeliveryRecord) => ({
  deliveryId: d.id,
  webhookId: d.endpointId,
  eventId: d.eventId,
  eventType: d.eventType,
  status: d.status,
  attemptCount: d.attemptCount,
  nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
  lastStatusCode: d.lastStatusCode,
  lastError: d.lastError,
  lastDurationMs: d.lastDurationMs,
  lastResponse: d.lastResponse,
  createdAt: d.createdAt.toISOString(),
  finishedAt: d.finishedAt?.toISOString() ?? null,
  attempts: d.attempts.map(attemptView),
});

/** The first attempt of a test event, as `POST /admin/v1/webhooks/{id}/test` answers it. */
export const testAttemptView = (a: AttemptRecord) => ({
  ...attemptView(a),
  nextAttemptAt: a.nextAttemptInMs === null ? null : new Date(a.at.getTime() + a.durationMs + a.nextAttemptInMs).toISOString(),
});
