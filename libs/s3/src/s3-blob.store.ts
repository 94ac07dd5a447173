import { Client } from 'minio';
import type { BlobInfo, BlobStore } from '@cs/ports';

export interface S3Endpoint {
  endPoint: string;
  port?: number;
  useSSL: boolean;
}

export interface S3Options extends S3Endpoint {
  accessKey: string;
  secretKey: string;
  region: string;
  bucket: string;
  /** Where clients outside reach S3 (an ingress in front of an in-cluster MinIO); presigned URLs name it. Default: the endpoint itself. */
  publicEndpoint?: S3Endpoint;
}

const isMissing = (error: unknown) => ['NoSuchKey', 'NotFound', 'NoSuchObject'].includes((error as { code?: string }).code ?? '');

/** CV files in an S3 bucket (MinIO or any S3), with real presigned PUT URLs for uploads. */
export class S3BlobStore implements BlobStore {
  private constructor(
    private readonly client: Client,
    /** Signs presigned URLs: a signature covers the Host header, so it must name the host clients will use. */
    private readonly presigner: Client,
    private readonly bucket: string,
  ) {}

  /** Connects and creates the bucket when it is missing. */
  static async open(options: S3Options): Promise<S3BlobStore> {
    // With the region given, the client never asks S3 for it: the presigner signs offline and
    // needs no route to the public host from inside the cluster.
    const clientFor = (endpoint: S3Endpoint) =>
      new Client({
        endPoint: endpoint.endPoint,
        port: endpoint.port,
        useSSL: endpoint.useSSL,
        accessKey: options.accessKey,
        secretKey: options.secretKey,
        region: options.region,
        pathStyle: true,
      });
    const client = clientFor(options);
    const presigner = options.publicEndpoint ? clientFor(options.publicEndpoint) : client;
    if (!(await client.bucketExists(options.bucket))) {
      // Services start together: another may create the bucket between the check and this.
      await client.makeBucket(options.bucket, options.region).catch((error: unknown) => {
        const code = (error as { code?: string }).code;
        if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw error;
      });
    }
    return new S3BlobStore(client, presigner, options.bucket);
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

  /** A URL the client PUTs the file to directly (on the public endpoint), valid for `expiresSeconds`. */
  presignPut(key: string, expiresSeconds: number): Promise<string> {
    return this.presigner.presignedPutObject(this.bucket, key, expiresSeconds);
  }
}
