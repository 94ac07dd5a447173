import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CandidateSearch, ValidationError, type UploadDirectoryEvent } from './node';
import { CandidateSearch as FetchClient } from './index';
import { fakeFetch, type Route } from './testing/fake-fetch';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-client-'));
  await fs.mkdir(path.join(dir, 'sub'));
  await fs.writeFile(path.join(dir, 'anna.pdf'), '%PDF-1.4 anna');
  await fs.writeFile(path.join(dir, 'bob.txt'), 'Bob, nurse');
  await fs.writeFile(path.join(dir, 'sub', 'carl.DOCX'), 'PK carl');
  await fs.writeFile(path.join(dir, 'sub', 'dora.doc'), 'dora');
  await fs.writeFile(path.join(dir, 'empty.txt'), '');
  await fs.writeFile(path.join(dir, '.hidden.pdf'), '%PDF hidden');
  await fs.writeFile(path.join(dir, 'notes.md'), '# not a CV');
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

const client = (route: Route) => {
  const fetch = fakeFetch(route);
  return { fetch, cs: new CandidateSearch({ baseUrl: 'https://api.test', apiKey: 'csk_test', fetch, maxRetries: 0 }) };
};
const nameOf = (p: string) => path.basename(p);

describe('the Node entry', () => {
  it('is the fetch client with file-system uploads added', () => {
    expect(client(() => ({ status: 200 })).cs).toBeInstanceOf(FetchClient);
  });

  it('uploads a file by path, with its name and its type from the extension', async () => {
    const { cs, fetch } = client(() => ({ status: 201, body: { documentId: 'd1', status: 'uploading', duplicate: false } }));
    await cs.uploadFile(path.join(dir, 'sub', 'carl.DOCX'), { documentDate: '02-2025' });
    expect(fetch.calls[0].url.searchParams.get('fileName')).toBe('carl.DOCX');
    expect(fetch.calls[0].url.searchParams.get('documentName')).toBe('carl');
    expect(fetch.calls[0].headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(Buffer.from(fetch.calls[0].body as Uint8Array).toString()).toBe('PK carl');
  });

  it('refuses a path over 10 MB without reading or sending it', async () => {
    const big = path.join(dir, '..', `${path.basename(dir)}-big.pdf`);
    await fs.writeFile(big, '');
    await fs.truncate(big, 10 * 1024 * 1024 + 1);
    const { cs, fetch } = client(() => ({ status: 201 }));
    await expect(cs.uploadFile(big)).rejects.toBeInstanceOf(ValidationError);
    expect(fetch.calls).toHaveLength(0);
    await fs.rm(big);
  });
});

describe('uploadDirectory()', () => {
  it('uploads the supported files, reports progress and a summary, pauses every upload on a 429, and follows them to their final status', async () => {
    let limited = false;
    const { cs, fetch } = client((req) => {
      if (req.url.pathname === '/v1/public/documents/upload-direct') {
        const name = req.url.searchParams.get('fileName')!;
        if (name === 'carl.DOCX' && !limited) {
          limited = true;
          return {
            status: 429,
            body: { error: 'rate_limit_exceeded', message: 'x', limit: 10, window: '10 seconds', retryAfter: '1' },
            headers: { 'retry-after': '1' },
          };
        }
        if (name === 'dora.doc') return { status: 415, body: { error: 'unsupported_media_type', message: 'the bytes are not a DOC file' } };
        return {
          status: name === 'bob.txt' ? 200 : 201,
          body: { documentId: `id-${name}`, status: 'uploading', duplicate: name === 'bob.txt' },
        };
      }
      if (req.url.searchParams.has('status'))
        return { status: 200, body: { data: [], pagination: { limit: 100, offset: 0, total: 0, hasMore: false } } };
      const documentId = req.url.pathname.split('/').pop()!;
      const invalid = documentId === 'id-bob.txt';
      return {
        status: 200,
        body: { documentId, status: invalid ? 'invalid' : 'completed', message: invalid ? 'Only 10 letters of text' : 'ok', error: null },
      };
    });
    const events: UploadDirectoryEvent[] = [];
    const summary = await cs.uploadDirectory(dir, {
      concurrency: 2,
      documentDate: '03-2024',
      wait: true,
      onProgress: (e) => events.push(e),
    });

    const byName = Object.fromEntries(summary.files.map((f) => [nameOf(f.path), f]));
    expect(Object.keys(byName).sort()).toEqual(['anna.pdf', 'bob.txt', 'carl.DOCX', 'dora.doc', 'empty.txt']);
    expect(byName['anna.pdf']).toMatchObject({ outcome: 'uploaded', documentId: 'id-anna.pdf', status: 'completed' });
    expect(byName['bob.txt']).toMatchObject({
      outcome: 'duplicate',
      documentId: 'id-bob.txt',
      status: 'invalid',
      reason: 'Only 10 letters of text',
    });
    expect(byName['carl.DOCX']).toMatchObject({ outcome: 'uploaded', status: 'completed' });
    expect(byName['dora.doc']).toMatchObject({ outcome: 'failed', reason: 'the bytes are not a DOC file' });
    expect(byName['empty.txt']).toMatchObject({ outcome: 'skipped', reason: 'empty file' });
    expect(summary.totals).toEqual({
      files: 5,
      bytes: expect.any(Number),
      filesDone: 5,
      bytesDone: summary.totals.bytes,
      uploaded: 2,
      duplicates: 1,
      failed: 1,
      skipped: 1,
    });
    expect(summary.waitTimedOut).toBe(false);

    expect(events[0]).toMatchObject({ type: 'scanned', totals: { files: 5, filesDone: 0 } });
    expect(events.filter((e) => e.type === 'file-started')).toHaveLength(4);
    expect(events.filter((e) => e.type === 'file-finished')).toHaveLength(5);
    expect(
      events.filter((e) => e.type === 'file-processed').map((e) => (e.type === 'file-processed' ? e.document.status : '')),
    ).toHaveLength(3);
    expect(events.some((e) => e.type === 'rate-limited' && e.retryAfter === 1)).toBe(true);
    // Each file is a single 64 KB chunk or less: its bytes are handed over whole, so no partial progress.
    expect(events.filter((e) => e.type === 'file-progress')).toEqual([]);

    // After the 429 (beyond uploads already under way) no upload went out before its Retry-After passed.
    const uploads = fetch.calls.filter((c) => c.url.pathname.endsWith('/upload-direct'));
    const carl = uploads.filter((c) => c.url.searchParams.get('fileName') === 'carl.DOCX').map((c) => c.at);
    expect(carl).toHaveLength(2);
    expect(carl[1] - carl[0]).toBeGreaterThanOrEqual(1_000);
    expect(uploads.filter((c) => c.at > carl[0] + 50 && c.at < carl[0] + 1_000)).toEqual([]);
  });

  it('reports a large file’s bytes as they go', async () => {
    const big = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-client-big-'));
    await fs.writeFile(path.join(big, 'long.txt'), Buffer.alloc(150_000, 'a'));
    const { cs } = client(() => ({ status: 201, body: { documentId: 'x', status: 'uploading', duplicate: false } }));
    const sent: number[] = [];
    await cs.uploadDirectory(big, { onProgress: (e) => e.type === 'file-progress' && sent.push(e.bytesSent) });
    expect(sent).toEqual([65_536, 131_072]);
    await fs.rm(big, { recursive: true });
  });

  it('leaves out what skip() names, with its reason, and walks no sub-directory when recursive is false', async () => {
    const { cs } = client(() => ({ status: 201, body: { documentId: 'x', status: 'uploading', duplicate: false } }));
    const summary = await cs.uploadDirectory(dir, {
      recursive: false,
      skip: (f) => (f.path.endsWith('bob.txt') ? 'already there' : false),
    });
    expect(summary.files.map((f) => `${nameOf(f.path)} ${f.outcome}${f.reason ? ` (${f.reason})` : ''}`).sort()).toEqual([
      'anna.pdf uploaded',
      'bob.txt skipped (already there)',
      'empty.txt skipped (empty file)',
    ]);
  });

  it('stops with an AbortError when the signal aborts', async () => {
    const controller = new AbortController();
    const { cs } = client(() => {
      controller.abort();
      return { status: 201, body: { documentId: 'x', status: 'uploading', duplicate: false } };
    });
    await expect(cs.uploadDirectory(dir, { signal: controller.signal, concurrency: 1 })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
