import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { createServer, type Server } from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { eventually } from '@cs/test-services';
import { ApiClient } from '../support/api-client';
import { TEXT, TEXT_CVS, createCompany } from '../support/fixtures';
import { EMBEDDINGS_CACHE, ROOT } from '../support/local-ports';
import { StandaloneService } from '../support/standalone-service';

jest.setTimeout(240_000);

const SEARCH_TYPES = ['dense', 'sparse', 'hybrid', 'builtin-rerank'] as const;

/** A varied text CV built from the test CVs, so each upload has its own bytes. */
const cvNumber = (i: number) => `${Object.values(TEXT_CVS)[i % 4]}\nReference number ${i}: ${'certified '.repeat(i % 7)}professional.`;

/** Every search type's completed search for a word each test CV holds: how many CVs it found. */
async function foundByEveryType(client: ApiClient, query: string): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const type of SEARCH_TYPES) {
    const { body } = await client.post(`/v1/public/searches/${type}`, { query, top_k: 100, rerank_top_n: 100 });
    const status = await client.waitForSearch(body.searchId);
    found[type] = status.status === 'completed' ? (status.resultsCount as number) : -1;
  }
  return found;
}

describe('durability in standalone mode', () => {
  let service: StandaloneService;
  let client: ApiClient;
  let files: Server;

  beforeAll(async () => {
    service = await StandaloneService.start();
    const { apiKey } = await createCompany(service, 'durable', 10_000);
    client = new ApiClient(service.baseUrl, apiKey);
    files = createServer((_, res) => res.writeHead(200, { 'content-type': TEXT }).end(cvNumber(99)));
    await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    if (files) await new Promise((r) => files.close(r));
    await service?.destroy();
  });

  it('refuses to fetch from loopback unless the operator allows private networks', async () => {
    const url = `http://127.0.0.1:${(files.address() as AddressInfo).port}/cv.txt`;
    const answer = await client.post('/v1/public/documents/upload-from-url', { url, documentName: 'x', documentDate: '01-2024' });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toMatch(/private or reserved network address/);
  });

  it('refuses a second process on the same DATA_DIR before it opens anything, and serves on', async () => {
    const second = spawnSync(process.execPath, ['-r', '@swc-node/register', 'apps/standalone/src/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: service.dataDir,
        EMBEDDINGS_CACHE_DIR: EMBEDDINGS_CACHE,
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(second.status).toBe(2);
    expect(second.stderr).toMatch(/standalone: another process \(pid \d+\) is using DATA_DIR=.*stop it, or give this one another DATA_DIR/);
    expect((await client.get('/v1/public/documents?limit=1')).status).toBe(200);
  });

  it('keeps documents and every stored result across a graceful restart', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++)
      ids.push((await client.upload(Buffer.from(cvNumber(i)), TEXT, { documentName: `cv${i}`, documentDate: '01-2024' })).body.documentId);
    await client.waitForDocuments(ids);
    const before = new Map<string, unknown>();
    for (const type of SEARCH_TYPES) {
      const { body } = await client.post(`/v1/public/searches/${type}`, { query: 'accountant, general ledger, reconciliations' });
      await client.waitForSearch(body.searchId);
      before.set(body.searchId, (await client.get(`/v1/public/searches/${body.searchId}/results`)).body);
    }

    const started = Date.now();
    expect(await service.stop('SIGTERM')).toBe(0);
    expect(Date.now() - started).toBeLessThan(20_000); // within the service's own cut-off (about 22 s)
    await service.boot();

    for (const [searchId, results] of before) expect((await client.get(`/v1/public/searches/${searchId}/results`)).body).toEqual(results);
    expect((await client.get('/v1/public/documents')).body.pagination.total).toBe(8);
    const again = await client.post('/v1/public/searches/sparse', { query: 'QuickBooks' });
    expect(await client.waitForSearch(again.body.searchId)).toMatchObject({ status: 'completed', resultsCount: 2 });
  });

  it('loses no accepted upload or search to a kill -9', async () => {
    const docs: string[] = [];
    for (let i = 10; i < 25; i++)
      docs.push((await client.upload(Buffer.from(cvNumber(i)), TEXT, { documentName: `cv${i}`, documentDate: '02-2024' })).body.documentId);
    const searches: string[] = [];
    for (const type of SEARCH_TYPES)
      searches.push((await client.post(`/v1/public/searches/${type}`, { query: 'chef, kitchen, menu' })).body.searchId);

    await service.restart('SIGKILL');

    const finished = await client.waitForDocuments(docs);
    expect([...finished.values()].map((d) => d.status)).toEqual(docs.map(() => 'completed'));
    for (const id of searches) {
      const status = await client.waitForSearch(id);
      expect(status.status === 'completed' || (status.status === 'failed' && status.errorRetryable === true)).toBe(true);
    }
    const list = await client.get('/v1/public/documents?limit=100');
    expect(list.body.pagination.total).toBe(23);
    // Every CV processed before or after the kill is in the indexes: each type finds all 23.
    expect(await foundByEveryType(client, 'professional')).toEqual(Object.fromEntries(SEARCH_TYPES.map((t) => [t, 23])));
  });

  it('rebuilds the indexes of a data folder the LanceDB store wrote from the stored texts, ready only once done', async () => {
    expect(await service.stop('SIGTERM')).toBe(0);
    // What that store left: its record, its tables, and none of the embedded indexes' folders.
    for (const folder of ['bm25', 'vectors']) await fs.rm(path.join(service.dataDir, folder), { recursive: true });
    await fs.mkdir(path.join(service.dataDir, 'lancedb', 'company_x.lance'), { recursive: true });
    await fs.writeFile(path.join(service.dataDir, 'lancedb', 'company_x.lance', 'data.lance'), 'x');
    await fs.writeFile(path.join(service.dataDir, 'store.json'), '{"store":"lancedb"}\n');

    await service.boot();
    // /readyz names the rebuild while it runs (shown with a held rebuild in index-rebuild.spec.ts), and is ready after it.
    await eventually(
      async () => {
        const answer = await fetch(`${service.baseUrl}/readyz`);
        expect({ status: answer.status, indexes: ((await answer.json()) as { checks: Record<string, string> }).checks.indexes }).toEqual({
          status: 200,
          indexes: 'up',
        });
      },
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    // The suites log warnings and worse only: the rebuild's start is one, its progress and end are not.
    expect(service.logs).toMatch(
      /holds the LanceDB store's tables, which this version does not read: rebuilding .* from the 23 CVs' stored texts; \/readyz says not ready until done/,
    );
    expect(await foundByEveryType(client, 'professional')).toEqual(Object.fromEntries(SEARCH_TYPES.map((t) => [t, 23])));
    expect(JSON.parse(await fs.readFile(path.join(service.dataDir, 'store.json'), 'utf8'))).toEqual({ store: 'builtin' });
    await expect(fs.stat(path.join(service.dataDir, 'lancedb'))).rejects.toMatchObject({ code: 'ENOENT' });

    // The next start has nothing to rebuild.
    await service.restart('SIGTERM');
    expect(service.logs).not.toMatch(/index rebuild/);
    expect(await foundByEveryType(client, 'professional')).toEqual(Object.fromEntries(SEARCH_TYPES.map((t) => [t, 23])));
  });

  // Linux keeps a niceness for each thread; elsewhere the workers parse at the normal priority.
  (process.platform === 'linux' ? it : it.skip)('parses files on threads of lower priority than the one that serves', async () => {
    const pid = service.pid!;
    const threads = new Map<number, number>();
    for (const tid of await fs.readdir(`/proc/${pid}/task`)) {
      const stat = await fs.readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => '');
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      if (fields.length > 16) threads.set(Number(tid), Number(fields[16])); // niceness: field 19 of stat(5)
    }
    expect(threads.get(pid)).toBe(0);
    expect([...threads.values()].filter((n) => n > 0).length).toBeGreaterThanOrEqual(1); // the parse worker, which stays
  });
});
