import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CandidateSearch } from '@candidate-search/client/node';
import { sdkUploadPorts } from './sdk-upload-ports';

/** A client whose fetch answers from a function of method and URL, recording the URLs asked. */
function clientAnswering(
  answer: (method: string, url: URL, calls: number) => { status: number; body: unknown; headers?: Record<string, string> },
) {
  const urls: URL[] = [];
  const fetch = async (input: string, init: RequestInit) => {
    const url = new URL(input);
    urls.push(url);
    const { status, body, headers } = answer(init.method ?? 'GET', url, urls.length);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
  };
  return { urls, client: new CandidateSearch({ baseUrl: 'http://cs.test', apiKey: 'csk_k', fetch }) };
}

describe('the upload ports over the SDK', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-cli-ports-'));
    await fs.writeFile(path.join(dir, 'chef.pdf'), '%PDF-1.4 chef');
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('uploads under the whole file name and its modification month, and tells of a 429 the SDK sits out before it retries', async () => {
    const { client, urls } = clientAnswering((_method, _url, calls) =>
      calls === 1
        ? { status: 429, body: { error: 'rate_limit_exceeded', message: 'slow down' }, headers: { 'retry-after': '1' } }
        : { status: 201, body: { documentId: 'd1', status: 'uploading', duplicate: false, message: null } },
    );
    const waits: number[] = [];
    const file = { path: path.join(dir, 'chef.pdf'), size: 13, mtimeMs: Date.UTC(2024, 2, 15) };
    const accepted = await sdkUploadPorts(client).upload(file, new AbortController().signal, (ms) => waits.push(ms));
    expect(accepted).toEqual({ documentId: 'd1', status: 'uploading', duplicate: false, message: null });
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(1_000);
    expect(urls).toHaveLength(2);
    expect(urls[1].searchParams.get('documentName')).toBe('chef.pdf');
    expect(urls[1].searchParams.get('documentDate')).toBe('03-2024');
  });

  it('polls through documentStatuses: in flight from the lists, final ones with their reason, and deleted ones as deleted', async () => {
    const { client, urls } = clientAnswering((_method, url) => {
      const status = url.searchParams.get('status');
      if (status)
        return {
          status: 200,
          body: {
            data: status === 'pending' ? [{ documentId: 'p' }] : [],
            pagination: { limit: 100, offset: 0, total: 1, hasMore: false },
          },
        };
      const id = url.pathname.split('/').pop()!;
      return id === 'gone'
        ? { status: 404, body: { error: 'not_found', message: 'document not found' } }
        : { status: 200, body: { documentId: id, status: 'invalid', message: 'No text could be extracted', error: null } };
    });
    const seen = await sdkUploadPorts(client).statuses(['p', 'scan', 'gone'], new AbortController().signal);
    expect(Object.fromEntries(seen)).toEqual({
      p: { status: 'pending', message: null },
      scan: { status: 'invalid', message: 'No text could be extracted' },
      gone: { status: 'deleted', message: null },
    });
    expect(urls.filter((u) => !u.searchParams.has('status')).map((u) => u.pathname.split('/').pop())).toEqual(['scan', 'gone']);
  });
});
