export { S3BlobStore } from './s3-blob.store';
export type { S3Endpoint, S3Options } from './s3-blob.store';
