export { SQL_CLIENT } from './sql.port';
export type { SqlClient, SqlPoolStats } from './sql.port';
export { NOTIFICATION_LISTENER } from './notification-listener.port';
export type { NotificationHandlers, NotificationListener } from './notification-listener.port';
export { UNRECORDED_DENSE_MODEL, VECTOR_INDEX, VECTOR_SPACES, setFolderName } from './vector-index.port';
export type { ChunkVector, VectorHit, VectorIndex, VectorSpaces } from './vector-index.port';
export { KEYWORD_INDEX } from './keyword-index.port';
export type { KeywordHit, KeywordIndex } from './keyword-index.port';
export { BLOB_STORE } from './blob-store.port';
export type { BlobInfo, BlobStore } from './blob-store.port';
export { DeliveryCounts, JOB_QUEUE, MAX_DEAD_LETTER_PAGE, checkedHandler } from './job-queue.port';
export type {
  DeadLetter,
  DeadLetterPage,
  DeadLetterQuery,
  Job,
  JobHandler,
  JobKind,
  JobOutcome,
  JobPayloads,
  JobQueue,
  QueueStats,
} from './job-queue.port';
export { DENSE_CLIENT, SPARSE_CLIENT, RERANKER_CLIENT, textsFrom } from './services.port';
export type {
  CandidateTexts,
  DenseClient,
  DenseModels,
  DenseSearchResult,
  RerankCandidate,
  RerankResponse,
  RerankResult,
  RerankerClient,
  SparseClient,
} from './services.port';
export { DENSE_ENCODER, DENSE_ENCODER_NEXT, EncoderUnavailableError } from './dense-encoder.port';
export type { CvEmbedding, DenseEncoder, DenseModel, EmbedOptions, QueryEmbedding } from './dense-encoder.port';
export { STARTUP_WORK } from './startup-work.port';
export type { StartupWork } from './startup-work.port';
