export { DomainError, JobFailure, invalid, notFound } from './errors';
export type { ErrorCode } from './errors';
export { parseOrThrow } from './http';
export * as http from './http';
export * as api from './api';
export { JOB_KINDS, jobPayloadSchemas, parseJobPayload } from './jobs';
export type { JobKind, JobPayloads, ParsedJobPayload } from './jobs';
/** Generated protobuf code (proto/; `npm run proto` regenerates it). */
export * as denseV1 from './gen/candidate_search/dense/v1/dense_pb';
export * as sparseV1 from './gen/candidate_search/sparse/v1/sparse_pb';
export * as rerankerV1 from './gen/candidate_search/reranker/v1/reranker_pb';
export * as healthV1 from './gen/grpc/health/v1/health_pb';
