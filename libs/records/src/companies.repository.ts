import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { SqlClient } from '@cs/ports';
import { camelize } from './row';
import type { ApiKeyRecord, CompanyRecord, LimitCategory } from './types';

export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/**
 * How long an authenticated key is trusted before the database is asked again. Every request
 * authenticates, and a client polling a search asks every few milliseconds; a revoked key or a
 * changed limit takes effect at once in the process that changed it and within this long in
 * the others (other gateway replicas).
 */
export const AUTH_CACHE_MS = 5_000;
const AUTH_CACHE_KEYS = 10_000;

type Authenticated = { keyId: string; company: CompanyRecord };

/** Companies and their API keys; keys are stored as SHA-256 hashes plus an 8-character prefix. */
export class CompaniesRepository {
  /** Live keys by hash, with when to ask again; only live keys, so a wrong key always costs a lookup. */
  private readonly authenticated = new Map<string, { until: number; auth: Authenticated }>();

  constructor(
    private readonly sql: SqlClient,
    private readonly authCacheMs = AUTH_CACHE_MS,
  ) {}

  async create(name: string): Promise<CompanyRecord> {
    const [row] = await this.sql.query('INSERT INTO companies (id, name) VALUES ($1, $2) RETURNING *', [randomUUID(), name]);
    return camelize<CompanyRecord>(row);
  }

  async list(): Promise<CompanyRecord[]> {
    const rows = await this.sql.query('SELECT * FROM companies ORDER BY created_at');
    return rows.map((r) => camelize<CompanyRecord>(r));
  }

  async get(id: string): Promise<CompanyRecord | null> {
    const [row] = await this.sql.query('SELECT * FROM companies WHERE id = $1', [id]);
    return row ? camelize<CompanyRecord>(row) : null;
  }

  async setLimit(id: string, category: LimitCategory, limit: number | null): Promise<CompanyRecord | null> {
    const [row] = await this.sql.query(
      limit === null
        ? 'UPDATE companies SET limits = limits - $2::text WHERE id = $1 RETURNING *'
        : `UPDATE companies SET limits = limits || jsonb_build_object($2::text, $3::int) WHERE id = $1 RETURNING *`,
      limit === null ? [id, category] : [id, category, limit],
    );
    this.authenticated.clear();
    return row ? camelize<CompanyRecord>(row) : null;
  }

  /** Issues a new key; the plain key is returned once and never stored. */
  async createKey(companyId: string): Promise<{ apiKey: string; record: ApiKeyRecord }> {
    const apiKey = `csk_${randomBytes(24).toString('base64url')}`;
    const [row] = await this.sql.query(
      'INSERT INTO api_keys (id, company_id, key_hash, key_prefix) VALUES ($1, $2, $3, $4) RETURNING id, company_id, key_prefix, created_at, revoked_at',
      [randomUUID(), companyId, hashApiKey(apiKey), apiKey.slice(0, 8)],
    );
    return { apiKey, record: camelize<ApiKeyRecord>(row) };
  }

  async listKeys(companyId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.sql.query(
      'SELECT id, company_id, key_prefix, created_at, revoked_at FROM api_keys WHERE company_id = $1 ORDER BY created_at',
      [companyId],
    );
    return rows.map((r) => camelize<ApiKeyRecord>(r));
  }

  /**
   * Revokes one company's live keys starting with `prefix`; returns how many. Scoped to the
   * company: eight characters of two companies' keys can coincide.
   */
  async revokeKeys(companyId: string, prefix: string): Promise<number> {
    const rows = await this.sql.query(
      'UPDATE api_keys SET revoked_at = now() WHERE company_id = $1 AND key_prefix = $2 AND revoked_at IS NULL RETURNING id',
      [companyId, prefix],
    );
    this.authenticated.clear();
    return rows.length;
  }

  /** The key's id and company when the key is live. */
  async authenticate(apiKey: string): Promise<Authenticated | null> {
    const keyHash = hashApiKey(apiKey);
    const cached = this.authenticated.get(keyHash);
    if (cached && cached.until > Date.now()) return cached.auth;
    const [row] = await this.sql.query(
      `SELECT k.id AS key_id, c.* FROM api_keys k JOIN companies c ON c.id = k.company_id
       WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [keyHash],
    );
    this.authenticated.delete(keyHash);
    if (!row) return null;
    const { keyId, ...company } = camelize<CompanyRecord & { keyId: string }>(row);
    const auth = { keyId, company };
    if (this.authCacheMs > 0) {
      if (this.authenticated.size >= AUTH_CACHE_KEYS) this.authenticated.delete(this.authenticated.keys().next().value!);
      this.authenticated.set(keyHash, { until: Date.now() + this.authCacheMs, auth });
    }
    return auth;
  }
}
