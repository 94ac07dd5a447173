export { DomainError, JobFailure, invalid, notFound } from './errors';
export type { ErrorCode } from './errors';
export * as http from './http';
