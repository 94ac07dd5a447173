export interface BlobInfo {
  size: number;
}

/** Where CV files live: a data folder in standalone mode, S3 in the cluster. */
export interface BlobStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  stat(key: string): Promise<BlobInfo | null>;
  /** Resolves true when something was deleted. */
  delete(key: string): Promise<boolean>;
  /** A URL clients PUT a file to directly (S3); absent where the gateway itself receives it. */
  presignPut?(key: string, expiresSeconds: number): Promise<string>;
}
export const BLOB_STORE = Symbol('BlobStore');
