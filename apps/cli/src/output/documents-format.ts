import type { Document, DocumentList, DocumentSummary } from '@candidate-search/client/node';
import { flexibleWidth, renderFields, renderTable, truncate } from './table';

/** 2026-11-24 19:05 (UTC): a timestamp to the minute. */
const minute = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

/** Why a document is not searchable, when it is not. */
const reasonOf = (doc: DocumentSummary) => doc.error?.message ?? (doc.status === 'invalid' ? doc.message : null);

/** A page of documents: id, name, status, size and upload time, then where the page stands in the list. */
export function renderDocumentList(list: DocumentList, width: number): string {
  const ID = 36;
  const fixed = [ID, 9, 9, 16];
  const nameWidth = flexibleWidth(width, fixed, 1, 12);
  if (list.data.length === 0) return 'No documents.';
  const table = renderTable({
    head: ['ID', 'Name', 'Status', 'Size', 'Uploaded (UTC)'],
    rows: list.data.map((doc) => [
      doc.documentId,
      truncate(doc.kind === 'job' ? `${doc.documentName} (job posting)` : doc.documentName, nameWidth),
      doc.status,
      doc.file.sizeFormatted,
      minute(doc.createdAt),
    ]),
    alignRight: [3],
  });
  const { offset, total, hasMore } = list.pagination;
  const page = `Documents ${offset + 1}-${offset + list.data.length} of ${total}${hasMore ? ` (next page: --offset ${offset + list.data.length})` : ''}.`;
  const reasons = list.data
    .filter((doc) => reasonOf(doc))
    .map((doc) => `${truncate(doc.documentName, 40)} (${doc.status}): ${reasonOf(doc) ?? ''}`);
  return [table, page, ...reasons].join('\n');
}

const list = (values: readonly string[]) => (values.length ? values.join(', ') : '');

/** One document, as label and value lines: what it is, its state, and what was read from it. */
export function renderDocument(doc: Document, options: { text: boolean }): string {
  const c = doc.contact;
  const p = doc.profile;
  const name = [c?.firstName, c?.lastName].filter(Boolean).join(' ');
  const location = c?.location ? [c.location.city, c.location.country].filter(Boolean).join(', ') : '';
  const fields: [string, string | null | undefined][] = [
    ['ID', doc.documentId],
    ['Name', doc.documentName],
    ['Kind', doc.kind === 'job' ? 'job posting (read by match searches, never a result)' : 'CV'],
    ['Status', doc.status],
    ['Message', doc.message],
    ['Error', doc.error ? `${doc.error.message}${doc.error.retryable ? ' (retryable)' : ''}` : null],
    ['File', `${doc.file.name} (${doc.file.contentType}, ${doc.file.sizeFormatted})`],
    ['Type', doc.documentType],
    ['Date', doc.documentDate],
    ['Uploaded', `${minute(doc.createdAt)} UTC`],
    ['Candidate', name],
    ['Email', c?.email],
    ['Phone', c?.phone],
    ['LinkedIn', c?.linkedin],
    ['Location', location],
    ['Domain', p?.domain],
    ['Role', p?.specialization],
    ['Seniority', p?.seniorityLevel],
    ['Experience', p?.experienceYears === null || p?.experienceYears === undefined ? null : `${p.experienceYears} years`],
    ['Skills', list(p?.technicalStack ?? [])],
    ['Industries', list(p?.industries ?? [])],
    ['Summary', doc.summary],
  ];
  const shown = fields.filter((f): f is [string, string] => typeof f[1] === 'string' && f[1] !== '');
  const body = renderFields(shown);
  if (!options.text) return body;
  return `${body}\n\n${doc.extractedText ?? '(no text was extracted)'}`;
}
