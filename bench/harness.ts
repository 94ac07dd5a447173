/** What `npm run eval` and `npm run bench` share: the corpus, a standalone instance, ingestion. */
import { promises as fs, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { ApiClient } from '../e2e/support/api-client';
import { StandaloneService } from '../e2e/support/standalone-service';

/** One CV to upload: an external id, its bytes and content type. */
export type CorpusItem = [id: string, bytes: Buffer, contentType: string];

export function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}

/** A folder of `<category>/<id>.pdf`, or a JSONL of `{id, text}` uploaded as text files. */
export function loadCorpus(source: string, limit: number): CorpusItem[] {
  if (source.endsWith('.jsonl')) {
    return (
      readFileSync(source, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { id: string; text: string })
        // The service refuses an empty file (its PDF had no text layer); it can never be found anyway.
        .filter(({ text }) => text.trim() !== '')
        .slice(0, limit)
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-conversion -- ids in a JSONL corpus may be numbers
        .map(({ id, text }): CorpusItem => [String(id), Buffer.from(text), 'text/plain'])
    );
  }
  const items: CorpusItem[] = [];
  for (const category of readdirSync(source).sort()) {
    for (const file of readdirSync(path.join(source, category)).sort()) {
      items.push([path.basename(file, '.pdf'), readFileSync(path.join(source, category, file)), 'application/pdf']);
    }
  }
  return items.slice(0, limit);
}

export async function pool<T>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const at = next++;
        await work(items[at], at);
      }
    }),
  );
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export interface EvalInstance {
  service: StandaloneService;
  client: ApiClient;
  /** True when `dataDir` already held a measured company: its CVs are there, nothing to ingest. */
  reused: boolean;
}

const COMPANY = 'measure';

/**
 * A standalone instance with one company whose limits are raised for measuring: fresh, or in
 * `dataDir`, which is kept, and reused with a new key when an earlier run left its company there.
 */
export async function startInstance(env: Record<string, string> = {}, dataDir?: string): Promise<EvalInstance> {
  const service = await StandaloneService.start({ SEARCH_CONCURRENCY: process.env.SEARCH_CONCURRENCY ?? '2', ...env }, dataDir);
  const admin = new ApiClient(service.baseUrl, undefined);
  const auth = { authorization: `Bearer ${service.adminToken}` };
  const existing = await measuredCompany(service);
  if (existing) return { service, client: new ApiClient(service.baseUrl, await newApiKey(service, existing)), reused: true };
  const company = (await admin.request('POST', '/admin/v1/companies', { json: { name: COMPANY }, headers: auth })).body;
  for (const category of ['upload-burst', 'upload-sustained', 'search', 'read']) {
    const raised = await admin.request('PUT', `/admin/v1/companies/${company.companyId}/limits/${category}`, {
      json: { limit: 1_000_000 },
      headers: auth,
    });
    if (raised.status !== 200) throw new Error(`raising the ${category} limit answered ${raised.status}: ${JSON.stringify(raised.body)}`);
  }
  return { service, client: new ApiClient(service.baseUrl, company.apiKey), reused: false };
}

/** The measured company an earlier run left in the service's data, if any. */
async function measuredCompany(service: StandaloneService): Promise<string | undefined> {
  const admin = new ApiClient(service.baseUrl, undefined);
  const companies = (await admin.request('GET', '/admin/v1/companies', { headers: { authorization: `Bearer ${service.adminToken}` } })).body
    .data as { companyId: string; name: string }[];
  return companies.find((c) => c.name === COMPANY)?.companyId;
}

/** Another key of the measured company: limits count per key, and a load phase may spend one's minute. */
export async function newApiKey(service: StandaloneService, companyId?: string): Promise<string> {
  const company = companyId ?? (await measuredCompany(service));
  if (!company) throw new Error(`no company named ${COMPANY} to make a key for`);
  const admin = new ApiClient(service.baseUrl, undefined);
  const created = await admin.request('POST', `/admin/v1/companies/${company}/keys`, {
    headers: { authorization: `Bearer ${service.adminToken}` },
  });
  return created.body.apiKey as string;
}

export interface Ingested {
  /** Document id -> the corpus item's id. */
  externalId: Map<string, string>;
  seconds: number;
  /** Until the last upload was accepted: whether uploads or processing set the pace. */
  uploadSeconds: number;
  statuses: Record<string, number>;
}

/**
 * The document date of the i-th CV a bench uploads: 100 months from 01-2018 in turn, so that a
 * documentDate filter passes a known share of them (one month 1%, fifty months 50%).
 */
export const benchDocumentDate = (i: number): string => {
  const month = 2018 * 12 + (i % 100);
  return `${String((month % 12) + 1).padStart(2, '0')}-${Math.floor(month / 12)}`;
};

/** Uploads every item and waits until none is still being processed. */
export async function ingest(client: ApiClient, corpus: readonly CorpusItem[], onProgress?: (done: number) => void): Promise<Ingested> {
  const started = Date.now();
  const externalId = new Map<string, string>();
  const position = new Map(corpus.map(([id], i) => [id, i]));
  await pool(corpus, 8, async ([id, bytes, type]) => {
    const documentDate = benchDocumentDate(position.get(id) ?? 0);
    const answer = await client.upload(bytes, type, { documentName: id, documentDate, fileName: id });
    if (answer.status >= 300) throw new Error(`upload of ${id} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    externalId.set(answer.body.documentId, id);
  });
  const uploadSeconds = (Date.now() - started) / 1000;
  const statuses: Record<string, number> = {};
  for (;;) {
    let busy = 0;
    for (const status of ['uploading', 'pending'])
      busy += (await client.get(`/v1/public/documents?status=${status}&limit=1`)).body.pagination.total as number;
    onProgress?.(externalId.size - busy);
    if (busy === 0) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  for (const status of ['completed', 'invalid', 'failed']) {
    const total = (await client.get(`/v1/public/documents?status=${status}&limit=1`)).body.pagination.total as number;
    if (total) statuses[status] = total;
  }
  return { externalId, seconds: (Date.now() - started) / 1000, uploadSeconds, statuses };
}

/** Document id -> the corpus item's id (its document name) of every CV an earlier run left in a reused data folder. */
export async function ingestedIds(client: ApiClient): Promise<Map<string, string>> {
  const externalId = new Map<string, string>();
  for (let offset = 0; ; offset += 100) {
    const page = await client.get(`/v1/public/documents?limit=100&offset=${offset}`);
    const documents = page.body.data as { documentId: string; documentName: string }[];
    for (const d of documents) externalId.set(d.documentId, d.documentName);
    if (documents.length < 100) return externalId;
  }
}

/** Bytes under a folder, in MB (0 when it is missing). */
export async function folderMb(folder: string): Promise<number> {
  let bytes = 0;
  const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries)
    if (entry.isFile()) bytes += (await fs.stat(path.join(entry.parentPath, entry.name)).catch(() => ({ size: 0 }))).size;
  return bytes / 2 ** 20;
}
