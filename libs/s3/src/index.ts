export { S3BlobStore } from './s3-blob.store';
export type { S3Options } from './s3-blob.store';
