export { DomainError, JobFailure, invalid, notFound } from './errors';
export type { ErrorCode } from './errors';
export { parseOrThrow } from './http';
export * as http from './http';
