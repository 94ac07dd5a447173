export { migrate, MIGRATIONS } from './migrations';
export { CompaniesRepository, hashApiKey } from './companies.repository';
export { DocumentsRepository } from './documents.repository';
export { DenseReindexesRepository, SKIPPED_IDS_KEPT } from './dense-reindexes.repository';
export type { DenseReindexRecord, ReindexState } from './dense-reindexes.repository';
export type { DocumentOrder, NewDocument, ProcessedDocument, Understanding } from './documents.repository';
export { UploadsRepository } from './uploads.repository';
export { SearchesRepository } from './searches.repository';
export type { GroupSummary, NewSearch } from './searches.repository';
export { SEARCH_ENDED_CHANNEL, parseSearchEnded } from './search-ended';
export type { SearchEnded } from './search-ended';
export { DOCUMENT_CHANGED_CHANNEL, parseDocumentChanged } from './document-changed';
export type { DocumentChanged } from './document-changed';
export { OutboxRepository, outboxId } from './outbox.repository';
export type { OutboxEntry, OutboxRow } from './outbox.repository';
export { OutboxRelay } from './outbox.relay';
export { IdempotencyKeysRepository, MAX_STORED_ANSWER_BYTES } from './idempotency-keys.repository';
export type {
  IdempotencyClaim,
  IdempotencyKeysOptions,
  IdempotencyRecord,
  IdempotentRequest,
  StoredAnswer,
} from './idempotency-keys.repository';
export type { AddJob, OutboxRelayOptions, OutboxStore } from './outbox.relay';
export { WebhooksRepository } from './webhooks.repository';
export { ShortlistsRepository } from './shortlists.repository';
export { SavedSearchesRepository } from './saved-searches.repository';
export type {
  ClaimedArrivals,
  NewSavedSearch,
  SavedSearchMatch,
  SavedSearchRecord,
  SavedSearchRefusal,
  SavedSearchRun,
} from './saved-searches.repository';
export type { ShortlistCandidate, ShortlistItemRecord, ShortlistLimits, ShortlistRecord, ShortlistRefusal } from './shortlists.repository';
export type { DeliveryRecord, DeliveryStatus } from './webhooks.repository';
export type {
  ApiKeyRecord,
  ChunkSpan,
  CompanyRecord,
  ContactInfo,
  DocumentRecord,
  DocumentKind,
  DocumentStatus,
  LimitCategory,
  ProfileInfo,
  SearchMatch,
  SearchRecord,
  SearchStatus,
  SearchType,
  UploadRecord,
  UploadStatus,
} from './types';
