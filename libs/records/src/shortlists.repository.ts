import { randomUUID } from 'node:crypto';
import type { ContactInfo, ProfileInfo } from '@cs/cv-understanding/types';
import type { SqlClient } from '@cs/ports';
import { readContact, readProfile } from './documents.repository';

export interface ShortlistRecord {
  id: string;
  companyId: string;
  name: string;
  itemsCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface ShortlistItemRecord {
  documentId: string;
  documentName: string;
  note: string | null;
  addedAt: Date;
}

/** A CV of the list with what was read from it, for exports. */
export interface ShortlistCandidate extends ShortlistItemRecord {
  contact: ContactInfo | null;
  profile: ProfileInfo | null;
  /** The original file's name as uploaded, and where its bytes are stored. */
  fileName: string;
  storageKey: string;
}

/** How many lists a company keeps, and CVs a list holds: each list is read and exported whole. */
export interface ShortlistLimits {
  listsPerCompany: number;
  itemsPerList: number;
}

/** Why a list was not made or a CV not added. */
export type ShortlistRefusal = 'name_taken' | 'too_many_lists' | 'no_list' | 'no_cv' | 'job_posting' | 'too_many_items';

interface ShortlistRow {
  id: string;
  company_id: string;
  name: string;
  items_count: number | string;
  created_at: Date | string;
  updated_at: Date | string;
}

const shortlistOf = (row: ShortlistRow): ShortlistRecord => ({
  id: row.id,
  companyId: row.company_id,
  name: row.name,
  itemsCount: Number(row.items_count),
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

const SELECT_SHORTLISTS = `SELECT s.id, s.company_id, s.name, s.created_at, s.updated_at,
  (SELECT count(*) FROM shortlist_items i WHERE i.shortlist_id = s.id) AS items_count
FROM shortlists s`;

/** A list's CVs (`i`) with their documents (`d`), in the order they were added: $1 the company, $2 the list. */
const ITEMS_OF_LIST = `FROM shortlist_items i JOIN shortlists s ON s.id = i.shortlist_id JOIN documents d ON d.id = i.document_id
WHERE s.company_id = $1 AND s.id = $2
ORDER BY i.added_at, i.document_id`;

/** A company's shortlists of candidates, each CV with a note. Every read and write is scoped to the company. */
export class ShortlistsRepository {
  constructor(private readonly sql: SqlClient) {}

  /** A new empty list; refused when the company has one of that name or as many as it may keep. */
  async create(companyId: string, name: string, limits: ShortlistLimits): Promise<ShortlistRecord | ShortlistRefusal> {
    return this.sql.transaction(async (tx) => {
      // One company's creations in turn, so that two at once cannot both pass the count.
      // NO KEY UPDATE: the company's other inserts (which take KEY SHARE on it) go on meanwhile.
      await tx.query('SELECT id FROM companies WHERE id = $1 FOR NO KEY UPDATE', [companyId]);
      const [{ count }] = await tx.query<{ count: number | string }>('SELECT count(*) AS count FROM shortlists WHERE company_id = $1', [
        companyId,
      ]);
      if (Number(count) >= limits.listsPerCompany) return 'too_many_lists';
      const rows = await tx.query<ShortlistRow>(
        `INSERT INTO shortlists (id, company_id, name) VALUES ($1, $2, $3)
         ON CONFLICT (company_id, name) DO NOTHING
         RETURNING id, company_id, name, 0 AS items_count, created_at, updated_at`,
        [randomUUID(), companyId, name],
      );
      return rows.length ? shortlistOf(rows[0]) : 'name_taken';
    });
  }

  /** The company's lists, newest first, and how many it has. */
  async list(companyId: string, limit: number, offset: number): Promise<{ rows: ShortlistRecord[]; total: number }> {
    const [rows, [{ total }]] = await Promise.all([
      this.sql.query<ShortlistRow>(`${SELECT_SHORTLISTS} WHERE s.company_id = $1 ORDER BY s.created_at DESC, s.id LIMIT $2 OFFSET $3`, [
        companyId,
        limit,
        offset,
      ]),
      this.sql.query<{ total: number | string }>('SELECT count(*) AS total FROM shortlists WHERE company_id = $1', [companyId]),
    ]);
    return { rows: rows.map(shortlistOf), total: Number(total) };
  }

  async get(companyId: string, id: string): Promise<ShortlistRecord | null> {
    const rows = await this.sql.query<ShortlistRow>(`${SELECT_SHORTLISTS} WHERE s.company_id = $1 AND s.id = $2`, [companyId, id]);
    return rows.length ? shortlistOf(rows[0]) : null;
  }

  /** The list's CVs in the order they were added. */
  async items(companyId: string, id: string): Promise<ShortlistItemRecord[]> {
    const rows = await this.sql.query<{ document_id: string; document_name: string; note: string | null; added_at: Date | string }>(
      `SELECT i.document_id, d.document_name, i.note, i.added_at
 ${ITEMS_OF_LIST}`,
      [companyId, id],
    );
    return rows.map((r) => ({ documentId: r.document_id, documentName: r.document_name, note: r.note, addedAt: new Date(r.added_at) }));
  }

  /** The list's CVs with their contact and profile, in the order they were added. */
  async candidates(companyId: string, id: string): Promise<ShortlistCandidate[]> {
    const rows = await this.sql.query<{
      document_id: string;
      document_name: string;
      note: string | null;
      added_at: Date | string;
      contact: unknown;
      profile: unknown;
      file_name: string;
      storage_key: string;
    }>(
      `SELECT i.document_id, d.document_name, i.note, i.added_at, d.contact, d.profile, d.file_name, d.storage_key
 ${ITEMS_OF_LIST}`,
      [companyId, id],
    );
    return rows.map((r) => ({
      documentId: r.document_id,
      documentName: r.document_name,
      note: r.note,
      addedAt: new Date(r.added_at),
      contact: readContact(r.contact, r.document_id),
      profile: readProfile(r.profile, r.document_id),
      fileName: r.file_name,
      storageKey: r.storage_key,
    }));
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    return (await this.sql.query('DELETE FROM shortlists WHERE company_id = $1 AND id = $2 RETURNING id', [companyId, id])).length > 0;
  }

  /**
   * Puts the company's CV on the list with its note; a CV already there keeps its place and takes
   * the new note (`added` false).
   */
  async addItem(
    companyId: string,
    id: string,
    documentId: string,
    note: string | null,
    limits: ShortlistLimits,
  ): Promise<{ item: ShortlistItemRecord; added: boolean } | ShortlistRefusal> {
    return this.sql.transaction(async (tx) => {
      // The list's additions in turn, so that the count holds.
      const list = await tx.query('SELECT id FROM shortlists WHERE company_id = $1 AND id = $2 FOR UPDATE', [companyId, id]);
      if (list.length === 0) return 'no_list';
      const documents = await tx.query<{ kind: string; document_name: string }>(
        // KEY SHARE: a delete of the CV waits for this insert, or wins before it and the CV is not found.
        'SELECT kind, document_name FROM documents WHERE company_id = $1 AND id = $2 FOR KEY SHARE',
        [companyId, documentId],
      );
      if (documents.length === 0) return 'no_cv';
      if (documents[0].kind !== 'cv') return 'job_posting';
      const updated = await tx.query<{ added_at: Date | string }>(
        'UPDATE shortlist_items SET note = $3 WHERE shortlist_id = $1 AND document_id = $2 RETURNING added_at',
        [id, documentId, note],
      );
      let addedAt = updated[0]?.added_at;
      const added = updated.length === 0;
      if (added) {
        const [{ count }] = await tx.query<{ count: number | string }>(
          'SELECT count(*) AS count FROM shortlist_items WHERE shortlist_id = $1',
          [id],
        );
        if (Number(count) >= limits.itemsPerList) return 'too_many_items';
        [{ added_at: addedAt }] = await tx.query<{ added_at: Date | string }>(
          'INSERT INTO shortlist_items (shortlist_id, document_id, note) VALUES ($1, $2, $3) RETURNING added_at',
          [id, documentId, note],
        );
      }
      await tx.query('UPDATE shortlists SET updated_at = now() WHERE id = $1', [id]);
      return { item: { documentId, documentName: documents[0].document_name, note, addedAt: new Date(addedAt) }, added };
    });
  }

  /** Takes the CV off the list; false when the list or the CV on it is not the company's. */
  async removeItem(companyId: string, id: string, documentId: string): Promise<boolean> {
    const rows = await this.sql.query(
      `DELETE FROM shortlist_items i USING shortlists s
       WHERE s.id = i.shortlist_id AND s.company_id = $1 AND i.shortlist_id = $2 AND i.document_id = $3
       RETURNING i.document_id`,
      [companyId, id, documentId],
    );
    if (rows.length > 0) await this.sql.query('UPDATE shortlists SET updated_at = now() WHERE id = $1', [id]);
    return rows.length > 0;
  }
}
