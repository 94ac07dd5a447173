import type { SqlClient } from '@cs/ports';
import { camelize } from './row';
import type { UploadRecord, UploadStatus } from './types';

export class UploadsRepository {
  constructor(private readonly sql: SqlClient) {}

  async create(upload: Omit<UploadRecord, 'status' | 'documentId' | 'createdAt'>): Promise<UploadRecord> {
    const [row] = await this.sql.query(
      `INSERT INTO uploads (id, company_id, file_name, content_type, file_size, storage_key, status, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7) RETURNING *`,
      [upload.id, upload.companyId, upload.fileName, upload.contentType, upload.fileSize, upload.storageKey, upload.expiresAt],
    );
    return camelize<UploadRecord>(row);
  }

  async get(id: string): Promise<UploadRecord | null> {
    const [row] = await this.sql.query('SELECT * FROM uploads WHERE id = $1', [id]);
    return row ? camelize<UploadRecord>(row) : null;
  }

  /** pending or uploaded -> uploaded; false once finalized (a late PUT must not reopen it). */
  async markUploaded(id: string): Promise<boolean> {
    const rows = await this.sql.query(`UPDATE uploads SET status = 'uploaded' WHERE id = $1 AND status <> 'finalized' RETURNING id`, [id]);
    return rows.length > 0;
  }

  async setStatus(id: string, status: UploadStatus, documentId: string | null = null): Promise<void> {
    await this.sql.query('UPDATE uploads SET status = $2, document_id = COALESCE($3, document_id) WHERE id = $1', [id, status, documentId]);
  }
}
