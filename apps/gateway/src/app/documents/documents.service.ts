import { Inject, Injectable, Logger } from '@nestjs/common';
import { notFound, type api } from '@cs/contracts';
import { BLOB_STORE, DENSE_CLIENT, SPARSE_CLIENT, type BlobStore, type DenseClient, type SparseClient } from '@cs/ports';
import { DocumentsRepository, type DocumentKind, type DocumentOrder, type DocumentStatus } from '@cs/records';
import type { AuthContext } from '../auth/auth-context';
import { EndedSearchAnswers } from '../searches/ended-search-answers';
import { noneMatchHits } from '../http/conditional-get';
import { documentSummaryView, documentView } from './document-views';

/** A document's file as the API serves it; `bytes` null when the client's copy is current. */
export interface DocumentFile {
  etag: string;
  contentType: string;
  fileName: string;
  bytes: Buffer | null;
}

/** Read, list and delete a company's documents. */
@Injectable()
export class DocumentsService {
  private readonly logger = new Logger(DocumentsService.name);

  constructor(
    private readonly documents: DocumentsRepository,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(DENSE_CLIENT) private readonly dense: DenseClient,
    @Inject(SPARSE_CLIENT) private readonly sparse: SparseClient,
    private readonly ended: EndedSearchAnswers,
  ) {}

  async get(auth: AuthContext, id: string): Promise<api.Document> {
    const doc = await this.documents.get(auth.company.id, id);
    if (!doc) throw notFound('document');
    return documentView(doc);
  }

  /**
   * The document's file as uploaded, with its type and a strong ETag (its content hash): null
   * (`notModified`) when `ifNoneMatch` names it. A file gone from storage meanwhile (a delete
   * that won) is the same 404 as an unknown document.
   */
  async file(auth: AuthContext, id: string, ifNoneMatch: string | undefined): Promise<DocumentFile> {
    const doc = (await this.documents.getMany(auth.company.id, [id], { withText: false })).get(id);
    if (!doc) throw notFound('document');
    const etag = `"${doc.contentHash}"`;
    const about = { etag, contentType: doc.contentType, fileName: doc.fileName };
    if (noneMatchHits(ifNoneMatch, etag)) return { ...about, bytes: null };
    try {
      return { ...about, bytes: await this.blobs.get(doc.storageKey) };
    } catch (error) {
      if (!(await this.blobs.stat(doc.storageKey))) throw notFound('document');
      throw error;
    }
  }

  async list(
    auth: AuthContext,
    filter: { status?: DocumentStatus; kind?: DocumentKind; name?: string },
    limit: number,
    offset: number,
    sort?: DocumentOrder,
  ): Promise<api.DocumentList> {
    const { items, total } = await this.documents.list(auth.company.id, filter, limit, offset, sort);
    return { data: items.map(documentSummaryView), pagination: { limit, offset, total, hasMore: offset + items.length < total } };
  }

  /**
   * The record goes first (so an ingestion still running sees it gone and cleans up after
   * itself), then every index entry and the file, all before we answer.
   */
  async delete(auth: AuthContext, id: string): Promise<api.DocumentDeleted> {
    const doc = await this.documents.get(auth.company.id, id);
    if (!doc || !(await this.documents.delete(auth.company.id, id))) throw notFound('document');
    // Before the answer: a result page read after it never shows the CV (other processes hear it from the database).
    this.ended.forgetDocument(id);
    const [denseVectors, sparseVectors, storage] = await Promise.all([
      this.dense.delete(doc.companyId, id),
      this.sparse.delete(doc.companyId, id),
      this.blobs.delete(doc.storageKey),
    ]);
    this.logger.log({ msg: 'document deleted', documentId: id, denseVectors, sparseVectors, storage });
    return {
      message: 'The document, its file and its index entries were deleted.',
      documentId: id,
      documentName: doc.documentName,
      deleted: { database: true as const, storage, searchIndex: { denseVectors, sparseVectors } },
    };
  }
}
