import { ContactInfo, ProfileInfo } from '@cs/cv-understanding/types';
import type { SqlClient } from '@cs/ports';
import { camelize } from './row';
import { readStored } from './stored-json';
import type { ChunkSpan, DocumentKind, DocumentRecord, DocumentStatus } from './types';

export interface NewDocument {
  id: string;
  companyId: string;
  documentName: string;
  documentType: string;
  /** A CV unless said otherwise. */
  kind?: DocumentKind;
  documentDate: string;
  contentHash: string;
  fileName: string;
  fileSize: number;
  contentType: string;
  storageKey: string;
}

export interface ProcessedDocument {
  extractedText: string;
  summary: string | null;
  contact: ContactInfo | null;
  profile: ProfileInfo | null;
  chunks: ChunkSpan[];
  /** UNDERSTANDING_VERSION of the code that read the summary, contact and profile. */
  understandingVersion: number;
}

/** What CV understanding read from a stored CV, read again by a newer version of it. */
export type Understanding = Pick<ProcessedDocument, 'summary' | 'contact' | 'profile' | 'understandingVersion'>;

const LIST_COLUMNS = `id, company_id, document_name, document_type, kind, document_date, status, message, content_hash,
  file_name, file_size, content_type, storage_key, NULL AS extracted_text, summary, contact, profile, NULL AS chunks,
  error, created_at, updated_at`;

/** Sorts before every UUID: where a walk in id order starts. */
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** A row before its JSON columns are read. */
type DocumentRow = Omit<DocumentRecord, 'contact' | 'profile'> & { contact: unknown; profile: unknown };

/**
 * A stored profile as the current schema reads it. One stored before skills, degree, languages
 * and the place were read has them empty until the profile refresh reads its CV again: the rows
 * are not rewritten, so that a release before that still reads them during a rolling upgrade.
 */
export function readProfile(profile: unknown, documentId: string): ProfileInfo | null {
  if (profile === null) return null;
  const upgraded =
    typeof profile === 'object' && !('skills' in profile)
      ? { ...profile, skills: [], degree: null, languages: [], location: null }
      : profile;
  return readStored(ProfileInfo, upgraded, `the profile of document ${documentId}`);
}

/** A stored contact as the current schema reads it. */
export const readContact = (contact: unknown, documentId: string): ContactInfo | null =>
  contact === null ? null : readStored(ContactInfo, contact, `the contact of document ${documentId}`);

/** A row as a record, what was read from its CV (contact, profile) read once, here. */
function documentRecord(row: Record<string, unknown>): DocumentRecord {
  const { contact, profile, ...document } = camelize<DocumentRow>(row);
  return {
    ...document,
    contact: readContact(contact, document.id),
    profile: readProfile(profile, document.id),
  };
}

/** The document list's orders (`-` newest, or Z to A, first), each ending on the newest first. */
export type DocumentOrder = '-createdAt' | 'createdAt' | 'name' | '-name' | 'status' | '-status';
const ORDERS: Record<DocumentOrder, string> = {
  '-createdAt': 'created_at DESC',
  createdAt: 'created_at ASC',
  name: 'lower(document_name) ASC, created_at DESC',
  '-name': 'lower(document_name) DESC, created_at DESC',
  status: 'status ASC, created_at DESC',
  '-status': 'status DESC, created_at DESC',
};

export class DocumentsRepository {
  constructor(private readonly sql: SqlClient) {}

  /**
   * Inserts a document in `uploading`, unless the company already has the same bytes: then the
   * existing document is returned with `duplicate: true`.
   */
  async createOrFindDuplicate(doc: NewDocument): Promise<{ document: DocumentRecord; duplicate: boolean }> {
    // A duplicate deleted between the insert and the lookup frees its hash: insert again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const inserted = await this.sql.query(
        `INSERT INTO documents (id, company_id, document_name, document_type, document_date, status, message, content_hash,
           file_name, file_size, content_type, storage_key, kind)
         VALUES ($1, $2, $3, $4, $5, 'uploading', 'Stored; waiting for processing', $6, $7, $8, $9, $10, $11)
         ON CONFLICT (company_id, content_hash) DO NOTHING RETURNING *`,
        [
          doc.id,
          doc.companyId,
          doc.documentName,
          doc.documentType,
          doc.documentDate,
          doc.contentHash,
          doc.fileName,
          doc.fileSize,
          doc.contentType,
          doc.storageKey,
          doc.kind ?? 'cv',
        ],
      );
      if (inserted[0]) return { document: documentRecord(inserted[0]), duplicate: false };
      const [existing] = await this.sql.query('SELECT * FROM documents WHERE company_id = $1 AND content_hash = $2', [
        doc.companyId,
        doc.contentHash,
      ]);
      if (existing) return { document: documentRecord(existing), duplicate: true };
    }
    throw new Error('the document with these bytes kept changing between insert and lookup');
  }

  async get(companyId: string, id: string): Promise<DocumentRecord | null> {
    const [row] = await this.sql.query('SELECT * FROM documents WHERE company_id = $1 AND id = $2', [companyId, id]);
    return row ? documentRecord(row) : null;
  }

  /**
   * Several documents; their extracted text (up to a million characters each) only when asked:
   * a page of results reads dozens of documents, and their texts would dwarf the answer.
   */
  async getMany(
    companyId: string,
    ids: string[],
    options: { withText: boolean } = { withText: true },
  ): Promise<Map<string, DocumentRecord>> {
    if (ids.length === 0) return new Map();
    const columns = options.withText ? '*' : LIST_COLUMNS;
    const rows = await this.sql.query(`SELECT ${columns} FROM documents WHERE company_id = $1 AND id = ANY($2::uuid[])`, [companyId, ids]);
    return new Map(rows.map((r) => documentRecord(r)).map((d) => [d.id, d]));
  }

  /** Names and dates of the completed CVs among `ids`: which search results may show. */
  async getSearchable(companyId: string, ids: string[]): Promise<Map<string, { documentName: string; documentDate: string }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.sql.query<{ id: string; document_name: string; document_date: string }>(
      `SELECT id, document_name, document_date FROM documents WHERE company_id = $1 AND id = ANY($2::uuid[]) AND status = 'completed' AND kind = 'cv'`,
      [companyId, ids],
    );
    return new Map(rows.map((r) => [r.id, { documentName: r.document_name, documentDate: r.document_date }]));
  }

  /**
   * The CVs among `cvs` that are no longer searchable (deleted since they were read): what a walk
   * that indexed them again must take out of its indexes, as their delete went first.
   */
  async deletedAmong<T extends { companyId: string; id: string }>(cvs: T[]): Promise<T[]> {
    const byCompany = new Map<string, T[]>();
    for (const cv of cvs) byCompany.set(cv.companyId, [...(byCompany.get(cv.companyId) ?? []), cv]);
    const deleted: T[] = [];
    for (const [companyId, ofCompany] of byCompany) {
      const kept = await this.getSearchable(
        companyId,
        ofCompany.map((cv) => cv.id),
      );
      deleted.push(...ofCompany.filter((cv) => !kept.has(cv.id)));
    }
    return deleted;
  }

  /** Extracted texts by document id, without their passage spans: what a reranker reads. */
  async getTexts(companyId: string, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.sql.query<{ id: string; extracted_text: string }>(
      'SELECT id, extracted_text FROM documents WHERE company_id = $1 AND id = ANY($2::uuid[]) AND extracted_text IS NOT NULL',
      [companyId, ids],
    );
    return new Map(rows.map((r) => [r.id, r.extracted_text]));
  }

  /** The profiles read from processed CVs, by document id: what a job posting's criteria are assessed against. */
  async getProfiles(companyId: string, ids: string[]): Promise<Map<string, ProfileInfo | null>> {
    if (ids.length === 0) return new Map();
    const rows = await this.sql.query<{ id: string; profile: unknown }>(
      'SELECT id, profile FROM documents WHERE company_id = $1 AND id = ANY($2::uuid[]) AND extracted_text IS NOT NULL',
      [companyId, ids],
    );
    return new Map(rows.map((r) => [r.id, readProfile(r.profile, r.id)]));
  }

  /** Passage spans by document id, for CVs whose text the caller already holds. */
  async getChunks(companyId: string, ids: string[]): Promise<Map<string, ChunkSpan[]>> {
    if (ids.length === 0) return new Map();
    const rows = await this.sql.query<{ id: string; chunks: ChunkSpan[] | null }>(
      'SELECT id, chunks FROM documents WHERE company_id = $1 AND id = ANY($2::uuid[]) AND extracted_text IS NOT NULL',
      [companyId, ids],
    );
    return new Map(rows.map((r) => [r.id, r.chunks ?? []]));
  }

  /** Extracted texts and passage spans by document id; neither changes once a CV is processed. */
  async getContents(companyId: string, ids: string[]): Promise<Map<string, { text: string; chunks: ChunkSpan[] }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.sql.query<{ id: string; extracted_text: string; chunks: ChunkSpan[] | null }>(
      'SELECT id, extracted_text, chunks FROM documents WHERE company_id = $1 AND id = ANY($2::uuid[]) AND extracted_text IS NOT NULL',
      [companyId, ids],
    );
    return new Map(rows.map((r) => [r.id, { text: r.extracted_text, chunks: r.chunks ?? [] }]));
  }

  /**
   * Processed CVs with their texts and passage spans, by company and id after `after`: the pages
   * a reindex walks. `companyId` keeps to one company; `since`, to CVs completed since then.
   */
  async processedAfter(
    after: { companyId: string; documentId: string } | null,
    companyId: string | null,
    limit: number,
    since: Date | null = null,
  ): Promise<
    {
      companyId: string;
      id: string;
      text: string;
      chunks: ChunkSpan[];
      profile: ProfileInfo | null;
      documentDate: string;
      understandingVersion: number;
    }[]
  > {
    const rows = await this.sql.query<{
      company_id: string;
      id: string;
      extracted_text: string;
      chunks: ChunkSpan[] | null;
      profile: unknown;
      document_date: string;
      understanding_version: number;
    }>(
      `SELECT company_id, id, extracted_text, chunks, profile, document_date, understanding_version FROM documents
        WHERE status = 'completed' AND kind = 'cv' AND extracted_text IS NOT NULL AND ($1::uuid IS NULL OR company_id = $1)
          AND (company_id, id) > ($2::uuid, $3::uuid) AND ($5::timestamptz IS NULL OR updated_at >= $5)
        ORDER BY company_id, id LIMIT $4`,
      [companyId, after?.companyId ?? NIL_UUID, after?.documentId ?? NIL_UUID, limit, since],
    );
    return rows.map((r) => ({
      companyId: r.company_id,
      id: r.id,
      text: r.extracted_text,
      chunks: r.chunks ?? [],
      profile: readProfile(r.profile, r.id),
      documentDate: r.document_date,
      understandingVersion: r.understanding_version,
    }));
  }

  /** Processed CVs, of one company or of all: what a reindex has to embed. */
  async countProcessed(companyId: string | null): Promise<number> {
    const [row] = await this.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM documents WHERE status = 'completed' AND kind = 'cv' AND extracted_text IS NOT NULL AND ($1::uuid IS NULL OR company_id = $1)`,
      [companyId],
    );
    return row.n;
  }

  /**
   * A page of the company's documents in `sort`'s order, and how many there are. `name` keeps
   * those whose name, or the candidate's name read from them, holds it (any case).
   */
  async list(
    companyId: string,
    only: { status?: DocumentStatus; kind?: DocumentKind; name?: string },
    limit: number,
    offset: number,
    sort: DocumentOrder = '-createdAt',
  ): Promise<{ items: DocumentRecord[]; total: number }> {
    const params: unknown[] = [companyId];
    let filter = '';
    if (only.status) filter += ` AND status = $${params.push(only.status)}`;
    if (only.kind) filter += ` AND kind = $${params.push(only.kind)}`;
    if (only.name) {
      const pattern = `%${only.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const at = params.push(pattern);
      filter += ` AND (document_name ILIKE $${at} OR concat_ws(' ', contact->>'firstName', contact->>'lastName') ILIKE $${at})`;
    }
    const [{ total }] = await this.sql.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM documents WHERE company_id = $1 ${filter}`,
      params,
    );
    const rows = await this.sql.query(
      `SELECT ${LIST_COLUMNS} FROM documents WHERE company_id = $1 ${filter}
       ORDER BY ${ORDERS[sort]}, id LIMIT ${Number(limit)} OFFSET ${Number(offset)}`,
      params,
    );
    return { items: rows.map((r) => documentRecord(r)), total };
  }

  async countCompleted(companyId: string): Promise<number> {
    const [{ n }] = await this.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM documents WHERE company_id = $1 AND status = 'completed' AND kind = 'cv'`,
      [companyId],
    );
    return n;
  }

  /** Documents still waiting (uploading or pending) whose last change is older than `staleMs`: what a lost job leaves behind. */
  async countStuck(staleMs: number): Promise<number> {
    const [{ n }] = await this.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM documents
       WHERE status IN ('uploading', 'pending') AND updated_at < now() - make_interval(secs => $1::double precision / 1000)`,
      [staleMs],
    );
    return n;
  }

  /**
   * Up to `limit` stuck documents, each marked as seen (its `updated_at` moves on, so the next
   * sweep waits `staleMs` again) in the statement that takes it; other sweepers skip them.
   */
  async takeStuck(staleMs: number, limit: number): Promise<{ id: string; createdAt: Date }[]> {
    const rows = await this.sql.query<{ id: string; created_at: Date | string }>(
      `UPDATE documents SET updated_at = now() WHERE id IN (
         SELECT id FROM documents
         WHERE status IN ('uploading', 'pending') AND updated_at < now() - make_interval(secs => $1::double precision / 1000)
         ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id, created_at`,
      [staleMs, limit],
    );
    return rows.map((r) => ({ id: r.id, createdAt: new Date(r.created_at) }));
  }

  /** Moves a document on, unless it was deleted meanwhile; returns whether it still exists. */
  async setStatus(id: string, status: DocumentStatus, message: string, error: DocumentRecord['error'] = null): Promise<boolean> {
    const rows = await this.sql.query(
      'UPDATE documents SET status = $2, message = $3, error = $4, updated_at = now() WHERE id = $1 RETURNING id',
      [id, status, message, error],
    );
    return rows.length > 0;
  }

  /**
   * Takes a document still to be processed (or cut off mid-processing) to `pending`, in the same
   * statement that reads it; null when it was deleted or is already finished.
   */
  async startProcessing(id: string, message: string): Promise<DocumentRecord | null> {
    const [row] = await this.sql.query(
      `UPDATE documents SET status = 'pending', message = $2, updated_at = now()
       WHERE id = $1 AND status IN ('uploading', 'pending') RETURNING *`,
      [id, message],
    );
    return row ? documentRecord(row) : null;
  }

  /**
   * Stores what processing found and makes the document `completed` in one statement, once its
   * index entries are written; returns whether it still exists (a delete may have won).
   */
  async complete(id: string, processed: ProcessedDocument, message: string): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE documents SET extracted_text = $2, summary = $3, contact = $4, profile = $5, chunks = $6,
         status = 'completed', message = $7, error = NULL, understanding_version = $8, updated_at = now()
       WHERE id = $1 RETURNING id`,
      [
        id,
        processed.extractedText,
        processed.summary,
        processed.contact,
        processed.profile,
        JSON.stringify(processed.chunks),
        message,
        processed.understandingVersion,
      ],
    );
    return rows.length > 0;
  }

  /**
   * Completed CVs read by an older version of CV understanding than `version`, by company and id
   * after `after`: the pages a profile refresh walks.
   */
  async readBefore(
    version: number,
    after: { companyId: string; documentId: string } | null,
    limit: number,
  ): Promise<{ companyId: string; id: string; text: string; documentDate: string }[]> {
    const rows = await this.sql.query<{ company_id: string; id: string; extracted_text: string; document_date: string }>(
      `SELECT company_id, id, extracted_text, document_date FROM documents
        WHERE status = 'completed' AND kind = 'cv' AND extracted_text IS NOT NULL AND understanding_version < $1
          AND (company_id, id) > ($2::uuid, $3::uuid)
        ORDER BY company_id, id LIMIT $4`,
      [version, after?.companyId ?? NIL_UUID, after?.documentId ?? NIL_UUID, limit],
    );
    return rows.map((r) => ({ companyId: r.company_id, id: r.id, text: r.extracted_text, documentDate: r.document_date }));
  }

  /** Stores what a newer version read from a completed CV; false when it is gone or was read since by one as new. */
  async storeUnderstanding(id: string, understanding: Understanding): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE documents SET summary = $2, contact = $3, profile = $4, understanding_version = $5, updated_at = now()
       WHERE id = $1 AND status = 'completed' AND understanding_version < $5 RETURNING id`,
      [id, understanding.summary, understanding.contact, understanding.profile, understanding.understandingVersion],
    );
    return rows.length > 0;
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    const rows = await this.sql.query('DELETE FROM documents WHERE company_id = $1 AND id = $2 RETURNING id', [companyId, id]);
    return rows.length > 0;
  }
}
