/**
 * The events a company's endpoints may subscribe to. Each is recorded in the transaction that
 * makes it happen: by a trigger as a search or a document reaches its final status (libs/records,
 * migration 0008_webhooks), and as a saved search's run keeps the CVs new to its first page; so
 * none is lost and none is sent for a change that was rolled back.
 */
export const WEBHOOK_EVENT_TYPES = [
  'search.completed',
  'search.failed',
  'document.completed',
  'document.invalid',
  'document.failed',
  'saved_search.new_matches',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent only by `POST /admin/v1/webhooks/{id}/test`, to that endpoint, whatever it subscribes to. */
export const TEST_EVENT_TYPE = 'webhook.test';
export type AnyWebhookEventType = WebhookEventType | typeof TEST_EVENT_TYPE;

export const isWebhookEventType = (value: string): value is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);

/** An event as stored: `data` holds the columns its trigger copied (see {@link webhookData}). */
export interface StoredWebhookEvent {
  id: string;
  type: AnyWebhookEventType;
  createdAt: Date;
  data: Record<string, unknown>;
}

/** What an endpoint receives as the POST body. */
export interface WebhookMessage {
  id: string;
  type: AnyWebhookEventType;
  /** When the event happened (ISO 8601 UTC with milliseconds), not when this attempt was sent. */
  timestamp: string;
  data: Record<string, unknown>;
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);
const bool = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);
/** PostgreSQL's JSON timestamps (`2026-11-24T19:05:22.123456+00:00`) as the API writes them. */
const iso = (value: unknown): string | null => {
  if (typeof value !== 'string') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};

/**
 * The `data` of an event: the ids and the status, and what the API's status endpoints say about
 * that outcome (a failed search's error and whether retrying may help; a document's message and
 * error). Nothing of a CV's contents: those are fetched with the API key.
 */
export function webhookData(type: AnyWebhookEventType, stored: Record<string, unknown>): Record<string, unknown> {
  switch (type) {
    case 'search.completed':
    case 'search.failed': {
      const searchId = str(stored.searchId);
      const common = {
        searchId,
        searchGroupId: str(stored.searchGroupId),
        searchType: str(stored.searchType),
        status: type === 'search.completed' ? 'completed' : 'failed',
        completedAt: iso(stored.completedAt),
        statusUrl: `/v1/public/searches/${searchId}`,
        // As the status shows them: only a search with filters, or a similar one, has the field.
        ...(stored.filters !== null && typeof stored.filters === 'object' ? { filters: stored.filters } : {}),
        ...(typeof stored.similarTo === 'string' ? { similarTo: stored.similarTo } : {}),
      };
      return type === 'search.completed'
        ? {
            ...common,
            resultsCount: num(stored.resultsCount),
            processingTimeMs: num(stored.processingTimeMs),
            resultsUrl: `/v1/public/searches/${searchId}/results`,
          }
        : { ...common, error: str(stored.error), errorRetryable: bool(stored.errorRetryable) };
    }
    case 'document.completed':
    case 'document.invalid':
    case 'document.failed': {
      const documentId = str(stored.documentId);
      const common = {
        documentId,
        documentName: str(stored.documentName),
        documentType: str(stored.documentType),
        status: type.slice('document.'.length),
        message: str(stored.message),
        statusUrl: `/v1/public/documents/${documentId}`,
      };
      if (type !== 'document.failed') return common;
      const error = stored.error as { message?: unknown; retryable?: unknown } | null | undefined;
      return { ...common, error: error ? { message: str(error.message), retryable: bool(error.retryable) } : null };
    }
    case 'saved_search.new_matches': {
      const savedSearchId = str(stored.savedSearchId);
      return {
        savedSearchId,
        name: str(stored.name),
        searchType: str(stored.searchType),
        newMatches: Array.isArray(stored.newMatches) ? stored.newMatches : [],
        newUrl: `/v1/public/saved-searches/${savedSearchId}/new`,
      };
    }
    case 'webhook.test':
      return { webhookId: str(stored.webhookId), message: str(stored.message) };
  }
}

/** The message an event becomes; its JSON is the body that is signed and sent, the same on every attempt. */
export function webhookMessage(event: StoredWebhookEvent): WebhookMessage {
  return { id: event.id, type: event.type, timestamp: event.createdAt.toISOString(), data: webhookData(event.type, event.data) };
}
