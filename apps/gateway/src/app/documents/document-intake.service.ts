import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError, type api } from '@cs/contracts';
import { MAX_FILE_BYTES, bytesMatchType, isAcceptedType } from '@cs/document-parsing';
import { BLOB_STORE, type BlobStore } from '@cs/ports';
import { DocumentsRepository, OutboxRelay, type DocumentKind } from '@cs/records';
import type { AuthContext } from '../auth/auth-context';
import { uploadAcceptedView } from './document-views';

export interface IncomingFile {
  bytes: Buffer;
  mime: string;
  fileName: string;
  documentName: string;
  documentDate: string;
  documentType: string;
  kind: DocumentKind;
}

export const ACCEPTED_LIST =
  'application/pdf, application/vnd.openxmlformats-officedocument.wordprocessingml.document, application/msword, text/plain';

/** Refuses what is not a CV file we can read: wrong type, wrong bytes, empty, too large. */
export function checkFile(bytes: Buffer, mime: string): void {
  if (!isAcceptedType(mime))
    throw new DomainError('unsupported_media_type', `unsupported file type "${mime || 'none'}"; accepted: ${ACCEPTED_LIST}`);
  if (bytes.length === 0) throw new DomainError('invalid_request', 'the file is empty');
  if (bytes.length > MAX_FILE_BYTES) throw new DomainError('payload_too_large', 'the file is larger than 10 MB');
  if (!bytesMatchType(bytes, mime))
    throw new DomainError('unsupported_media_type', `the file's content is not ${mime} (its bytes do not match the declared type)`);
}

/**
 * The one way a file becomes a document, whatever route brought it: checked, deduplicated by
 * content hash, stored, recorded, queued for ingestion.
 */
@Injectable()
export class DocumentIntakeService {
  constructor(
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    private readonly outbox: OutboxRelay,
  ) {}

  async accept(auth: AuthContext, file: IncomingFile): Promise<{ status: 200 | 201; body: api.UploadAccepted }> {
    checkFile(file.bytes, file.mime);
    const companyId = auth.company.id;
    const contentHash = createHash('sha256').update(file.bytes).digest('hex');
    // No lookup by hash first: the insert finds a duplicate itself, and a statement less on
    // every upload is worth a stored-then-removed file on the rare repeated one.
    const id = randomUUID();
    const storageKey = `documents/${companyId}/${id}`;
    await this.blobs.put(storageKey, file.bytes, file.mime);
    // The document and its ingestion job commit together (see OutboxRelay): a queue that is down
    // leaves the job in the outbox, never the document in `uploading` for good.
    const write = this.outbox.writeWithJobs(async (tx, addJob) => {
      const found = await new DocumentsRepository(tx).createOrFindDuplicate({
        id,
        companyId,
        documentName: file.documentName,
        documentType: file.documentType,
        kind: file.kind,
        documentDate: file.documentDate,
        contentHash,
        fileName: file.fileName,
        fileSize: file.bytes.length,
        contentType: file.mime,
        storageKey,
      });
      if (!found.duplicate) addJob('ingestion', id, { documentId: id });
      return found;
    });
    // A file stored for a document that was never recorded is removed, not left behind.
    const { document, duplicate } = await write.catch(async (error: unknown) => {
      await this.blobs.delete(storageKey).catch(() => false);
      throw error;
    });
    if (duplicate) {
      await this.blobs.delete(storageKey);
      return { status: 200, body: uploadAcceptedView(document, true) };
    }
    return { status: 201, body: uploadAcceptedView(document, false) };
  }
}
