import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { DomainError, notFound, type api, type http } from '@cs/contracts';
import { ACCEPTED_TYPES, MAX_FILE_BYTES, bytesMatchType, isAcceptedType, mimeOf, type AcceptedType } from '@cs/document-parsing';
import { BLOB_STORE, type BlobStore } from '@cs/ports';
import { FetchRefused, parseFetchUrl, safeFetch } from '@cs/safe-http';
import { DocumentsRepository, UploadsRepository, type UploadRecord } from '@cs/records';
import { InjectConfig } from '@cs/service-kit';
import type { AuthContext } from '../auth/auth-context';
import { uploadAcceptedView } from '../documents/document-views';
import { ACCEPTED_LIST, DocumentIntakeService } from '../documents/document-intake.service';
import { GATEWAY_SECRETS, type GatewaySecrets } from '../gateway-secrets';
import { signUploadUrl, checkUploadSignature } from './presigned-url';

const PRESIGN_TTL_MS = 60 * 60 * 1000;

const EXTENSION_TYPES: Record<string, string> = {
  '.pdf': ACCEPTED_TYPES.pdf,
  '.docx': ACCEPTED_TYPES.docx,
  '.doc': ACCEPTED_TYPES.doc,
  '.txt': ACCEPTED_TYPES.text,
};

/**
 * The URL's last path segment as a file name. It is the sender's text, so a bad percent escape
 * keeps it as written, and control characters (which the database may not store) are dropped.
 */
export function fileNameOf(url: URL): string {
  const segment = path.posix.basename(url.pathname);
  let name: string;
  try {
    name = decodeURIComponent(segment);
  } catch {
    name = segment;
  }
  return (
    name
      .replace(/[\u0000-\u001f\u007f/\\]/g, '')
      .trim()
      .slice(0, 255) || 'download'
  );
}

/** The presigned three steps, the gateway's own PUT target, and upload from a URL. */
@Injectable()
export class UploadsService {
  constructor(
    private readonly uploads: UploadsRepository,
    private readonly documents: DocumentsRepository,
    private readonly intake: DocumentIntakeService,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @InjectConfig('publicBaseUrl') private readonly publicBaseUrl: AppConfig['publicBaseUrl'],
    @InjectConfig('uploadFromUrlAllowPrivateNetworks')
    private readonly allowPrivateNetworks: AppConfig['uploadFromUrlAllowPrivateNetworks'],
    @Inject(GATEWAY_SECRETS) private readonly secrets: GatewaySecrets,
  ) {}

  async createPresigned(auth: AuthContext, body: http.PresignedUploadBody): Promise<api.PresignedUpload> {
    const contentType = mimeOf(body.contentType);
    if (!isAcceptedType(contentType))
      throw new DomainError('unsupported_media_type', `unsupported contentType "${body.contentType}"; accepted: ${ACCEPTED_LIST}`);
    if (body.fileSize > MAX_FILE_BYTES) throw new DomainError('payload_too_large', 'fileSize is larger than 10 MB');
    const id = randomUUID();
    const upload = await this.uploads.create({
      id,
      companyId: auth.company.id,
      fileName: body.fileName,
      contentType,
      fileSize: body.fileSize,
      storageKey: `uploads/${auth.company.id}/${id}`,
      expiresAt: new Date(Date.now() + PRESIGN_TTL_MS),
    });
    const presignedUrl = this.blobs.presignPut
      ? await this.blobs.presignPut(upload.storageKey, PRESIGN_TTL_MS / 1000)
      : signUploadUrl(this.publicBaseUrl, this.secrets.presignSecret, upload.id, upload.expiresAt);
    return {
      uploadId: upload.id,
      presignedUrl,
      method: 'PUT',
      headers: { 'Content-Type': contentType },
      expiresAt: upload.expiresAt.toISOString(),
    };
  }

  async verify(auth: AuthContext, uploadId: string): Promise<api.UploadVerification> {
    const upload = await this.owned(auth, uploadId);
    const arrived = upload.status === 'pending' && (await this.blobs.stat(upload.storageKey)) !== null;
    return {
      uploadId: upload.id,
      status: arrived && effectiveStatus(upload) !== 'expired' ? 'uploaded' : effectiveStatus(upload),
      fileName: upload.fileName,
      contentType: upload.contentType,
      fileSize: upload.fileSize,
      expiresAt: upload.expiresAt.toISOString(),
      ...(upload.documentId ? { documentId: upload.documentId } : {}),
    };
  }

  /**
   * Whether the PUT a presigned URL points at may send its bytes: no API key, the signature is
   * the authority. Checked before the body is read.
   */
  async admitPut(uploadId: string, expires: unknown, signature: unknown, contentType: string | undefined): Promise<UploadRecord> {
    const check = checkUploadSignature(this.secrets.presignSecret, uploadId, expires, signature);
    if (check === 'invalid') throw new DomainError('unauthorized', 'the upload URL signature is invalid');
    const upload = await this.uploads.get(uploadId);
    if (!upload) throw notFound('upload');
    if (check === 'expired' || effectiveStatus(upload) === 'expired')
      throw new DomainError('gone', 'the upload URL has expired; request a new one');
    if (upload.status === 'finalized') throw new DomainError('conflict', 'the upload was already finalized');
    if (mimeOf(contentType) !== upload.contentType) {
      throw new DomainError('invalid_request', `send the Content-Type the upload was created with: ${upload.contentType}`);
    }
    return upload;
  }

  /** Stores the bytes of an admitted PUT. */
  async receive(upload: UploadRecord, bytes: Buffer): Promise<void> {
    if (bytes.length > MAX_FILE_BYTES) throw new DomainError('payload_too_large', 'the file is larger than 10 MB');
    await this.blobs.put(upload.storageKey, bytes, upload.contentType);
    // Finalized while these bytes arrived: the upload stays finalized, with its one document, and
    // the late file goes (finalize removed the one it read).
    if (!(await this.uploads.markUploaded(upload.id))) {
      await this.blobs.delete(upload.storageKey);
      throw new DomainError('conflict', 'the upload was already finalized');
    }
  }

  async finalize(auth: AuthContext, body: http.FinalizeUploadBody): Promise<{ status: 200 | 201; body: api.UploadAccepted }> {
    const upload = await this.owned(auth, body.uploadId);
    if (upload.status === 'finalized' && upload.documentId) {
      const doc = await this.documents.get(auth.company.id, upload.documentId);
      if (!doc) throw new DomainError('gone', 'the document of this upload was deleted');
      return { status: 200, body: uploadAcceptedView(doc, false) };
    }
    if (effectiveStatus(upload) === 'expired') throw new DomainError('gone', 'the upload expired before it was finalized; start a new one');
    const stored = await this.blobs.stat(upload.storageKey);
    // The bytes may have gone straight to S3: the stored object, not our PUT handler, is the proof.
    if (!stored) throw new DomainError('conflict', 'no file was uploaded yet: PUT the bytes to presignedUrl first');
    if (stored.size !== upload.fileSize) {
      throw new DomainError('unprocessable', `the uploaded file has ${stored.size} bytes but fileSize said ${upload.fileSize}`);
    }
    const bytes = await this.blobs.get(upload.storageKey);
    const accepted = await this.intake.accept(auth, {
      bytes,
      mime: upload.contentType,
      fileName: upload.fileName,
      documentName: body.documentName,
      documentDate: body.documentDate,
      documentType: body.documentType,
      kind: body.kind,
    });
    await this.uploads.setStatus(upload.id, 'finalized', accepted.body.documentId);
    await this.blobs.delete(upload.storageKey);
    return accepted;
  }

  async fromUrl(auth: AuthContext, body: http.UploadFromUrlBody): Promise<{ status: 200 | 201; body: api.UploadAccepted }> {
    let fetched;
    try {
      parseFetchUrl(body.url);
      fetched = await safeFetch(body.url, {
        allowPrivateNetworks: this.allowPrivateNetworks,
        maxBytes: MAX_FILE_BYTES,
        timeoutMs: 15_000,
        maxRedirects: 3,
      });
    } catch (error) {
      if (error instanceof FetchRefused)
        throw new DomainError(
          error.badUrl ? 'invalid_request' : 'unprocessable',
          error.badUrl ? error.message : `the URL could not be used: ${error.message}`,
        );
      throw error;
    }
    if (fetched.bytes.length === 0) throw new DomainError('unprocessable', 'the URL served an empty file');
    const fileName = body.fileName ?? fileNameOf(fetched.finalUrl);
    const mime = typeOfFetched(fetched.bytes, mimeOf(fetched.contentType), fileName);
    if (!mime) {
      const served = mimeOf(fetched.contentType);
      if (served === 'text/html' || served === 'application/xhtml+xml')
        throw new DomainError('unprocessable', 'the URL points to an HTML page, not a CV file');
      throw new DomainError(
        'unprocessable',
        `the URL serves "${fetched.contentType.slice(0, 100) || 'no type'}" whose bytes are not a PDF, DOCX, DOC or text file`,
      );
    }
    return this.intake.accept(auth, {
      bytes: fetched.bytes,
      mime,
      fileName,
      documentName: body.documentName,
      documentDate: body.documentDate,
      documentType: body.documentType,
      kind: body.kind,
    });
  }

  private async owned(auth: AuthContext, uploadId: string): Promise<UploadRecord> {
    const upload = await this.uploads.get(uploadId);
    if (upload?.companyId !== auth.company.id) throw notFound('upload');
    return upload;
  }
}

/**
 * What a fetched file is, decided by its bytes: servers often say `application/octet-stream` for
 * a PDF. Binary formats are recognised by their signatures whatever the server said; text only
 * when the server or the file name says text, since any UTF-8 would pass as text.
 */
export function typeOfFetched(bytes: Buffer, served: string, fileName: string): AcceptedType | null {
  for (const type of [ACCEPTED_TYPES.pdf, ACCEPTED_TYPES.docx, ACCEPTED_TYPES.doc]) if (bytesMatchType(bytes, type)) return type;
  const saysText = served === ACCEPTED_TYPES.text || EXTENSION_TYPES[path.extname(fileName).toLowerCase()] === ACCEPTED_TYPES.text;
  return saysText && bytesMatchType(bytes, ACCEPTED_TYPES.text) ? ACCEPTED_TYPES.text : null;
}

function effectiveStatus(upload: UploadRecord): UploadRecord['status'] {
  return upload.status !== 'finalized' && upload.expiresAt.getTime() < Date.now() ? 'expired' : upload.status;
}
