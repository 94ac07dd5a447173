import type { api } from '@cs/contracts';
import type { DocumentRecord } from '@cs/records';

export const documentUrl = (id: string) => `/v1/public/documents/${id}`;

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export const fileView = (d: Pick<DocumentRecord, 'fileName' | 'fileSize' | 'contentType'>): api.UploadAccepted['file'] => ({
  name: d.fileName,
  size: d.fileSize,
  sizeFormatted: formatSize(d.fileSize),
  contentType: d.contentType,
});

/** The document as lists show it, without its text. */
export function documentSummaryView(d: DocumentRecord): api.DocumentSummary {
  const { extractedText: _text, ...summary } = documentView(d);
  return summary;
}

/** The document as GET answers it. */
export function documentView(d: DocumentRecord): api.Document {
  return {
    documentId: d.id,
    documentName: d.documentName,
    documentType: d.documentType,
    kind: d.kind,
    documentDate: d.documentDate,
    status: d.status,
    message: d.message,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
    file: fileView(d),
    summary: d.summary,
    contact: d.contact,
    profile: d.profile,
    extractedText: d.extractedText,
    error: d.error,
  };
}

/** The answer of every upload route: 201 for a new document, 200 with `duplicate` for known bytes. */
export function uploadAcceptedView(d: DocumentRecord, duplicate: boolean): api.UploadAccepted {
  return {
    documentId: d.id,
    status: d.status,
    kind: d.kind,
    message: duplicate
      ? 'These exact bytes were uploaded before: this is the existing document.'
      : d.kind === 'job'
        ? 'File stored; it is being parsed, as a job posting for match searches.'
        : 'File stored; it is being parsed and indexed.',
    duplicate,
    file: fileView(d),
    estimatedProcessingTime: duplicate && d.status !== 'uploading' && d.status !== 'pending' ? 'done' : 'under 30 seconds',
    statusEndpoint: documentUrl(d.id),
  };
}
