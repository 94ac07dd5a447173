import { Client } from 'minio';
import type { BlobInfo, BlobStore } from '@cs/ports';

export interface S3Options {
  endPoint: string;
  port?: number;
  useSSL: boolean;
  accessKey: string;
  secretKey: string;
  region: string;
  bucket: string;
}

const isMissing = (error: unknown) => ['NoSuchKey', 'NotFound', 'NoSuchObject'].includes((error as { code?: string }).code ?? '');

/** CV files in an S3 bucket (MinIO or any S3), with real presigned PUT URLs for uploads. */
export class S3BlobStore implements BlobStore {
  private constructor(
    private readonly client: Client,
    private readonly bucket: string,
  ) {}

  /** Connects and creates the bucket when it is missing. */
  static async open(options: S3Options): Promise<S3BlobStore> {
    const client = new Client({
      endPoint: options.endPoint,
      port: options.port,
      useSSL: options.useSSL,
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: options.region,
      pathStyle: true,
    });
    if (!(await client.bucketExists(options.bucket))) {
      // Services start together: another may create the bucket between the check and this.
      await client.makeBucket(options.bucket, options.region).catch((error: unknown) => {
        const code = (error as { code?: string }).code;
        if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw error;
      });
    }
    return new S3BlobStore(client, options.bucket);
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.client.putObject(this.bucket, key, bytes, bytes.length, { 'Content-Type': contentType });
  }

  async get(key: string): Promise<Buffer> {
    const stream = await this.client.getObject(this.bucket, key);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async stat(key: string): Promise<BlobInfo | null> {
    try {
      return { size: (await this.client.statObject(this.bucket, key)).size };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<boolean> {
    const existed = (await this.stat(key)) !== null;
    if (existed) await this.client.removeObject(this.bucket, key);
    return existed;
  }

  /** A URL the client PUTs the file to directly, valid for `expiresSeconds`. */
  presignPut(key: string, expiresSeconds: number): Promise<string> {
    return this.client.presignedPutObject(this.bucket, key, expiresSeconds);
  }
}
