import { Inject, Injectable, Logger } from '@nestjs/common';
import { notFound, type api } from '@cs/contracts';
import { BLOB_STORE, DENSE_CLIENT, SPARSE_CLIENT, type BlobStore, type DenseClient, type SparseClient } from '@cs/ports';
import { DocumentsRepository, type DocumentKind, type DocumentStatus } from '@cs/records';
import type { AuthContext } from '../auth/auth-context';
import { EndedSearchAnswers } from '../searches/ended-search-answers';
import { documentSummaryView, documentView } from './document-views';

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

  async list(
    auth: AuthContext,
    filter: { status?: DocumentStatus; kind?: DocumentKind },
    limit: number,
    offset: number,
  ): Promise<api.DocumentList> {
    const { items, total } = await this.documents.list(auth.company.id, filter, limit, offset);
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
