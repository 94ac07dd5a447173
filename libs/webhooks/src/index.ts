// Webhooks: the events, their signed messages, the retry schedule and the dispatcher (over its two ports).
export { TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES, isWebhookEventType, webhookData, webhookMessage } from './events';
export type { AnyWebhookEventType, StoredWebhookEvent, WebhookEventType, WebhookMessage } from './events';
export { DEFAULT_RETRY_SCHEDULE, baseDelayMs, nextRetry } from './retry-schedule';
export type { RetryDecision, RetrySchedule } from './retry-schedule';
export {
  DEFAULT_TOLERANCE_SECONDS,
  WebhookVerificationError,
  generateWebhookSecret,
  signWebhook,
  verifyWebhook,
  webhookHeaders,
} from './signing';
export { RESPONSE_EXCERPT_BYTES, WebhookDispatcher } from './webhook-dispatcher';
export type {
  AttemptOutcome,
  AttemptRecord,
  ClaimedDelivery,
  WebhookDispatcherOptions,
  WebhookEndpoint,
  WebhookSender,
  WebhookStore,
} from './webhook-dispatcher';
