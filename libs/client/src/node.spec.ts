import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AuthenticationError, CandidateSearch, ConnectionError, ValidationError, findCvFiles, type UploadDirectoryEvent } from './node';
import { CandidateSearch as FetchClient } from './index';
import { fakeFetch, type Route, type SeenRequest } from './testing/fake-fetch';

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

const client = (route: Route, maxRetries = 0) => {
  const fetch = fakeFetch(route);
  return { fetch, cs: new CandidateSearch({ baseUrl: 'https://api.test', apiKey: 'csk_test', fetch, maxRetries }) };
};
const nameOf = (p: string) => path.basename(p);

/**
 * Progress events, with when the first 429 paused the run and the files whose upload had begun
 * by then: a request sent during the pause must be of one of those (past the pause check; on a
 * loaded machine, its request may go out tens of milliseconds after the 429).
 */
function pauseWatch() {
  const watch = {
    events: [] as UploadDirectoryEvent[],
    pausedAt: Infinity,
    startedBeforePause: new Set<string>(),
    onProgress: (e: UploadDirectoryEvent) => {
      watch.events.push(e);
      if (e.type === 'rate-limited') watch.pausedAt = Math.min(watch.pausedAt, Date.now());
      if (e.type === 'file-started' && watch.pausedAt === Infinity) watch.startedBeforePause.add(nameOf(e.path));
    },
    /** The files, other than `limited`, whose requests went out during the pause without having started before it. */
    startedDuringPause: (calls: SeenRequest[], limited: string, pauseMs: number) =>
      calls
        .filter((c) => c.at >= watch.pausedAt && c.at < watch.pausedAt + pauseMs)
        .map((c) => c.url.searchParams.get('fileName')!)
        .filter((name) => name !== limited && !watch.startedBeforePause.has(name)),
  };
  return watch;
}

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
    const watch = pauseWatch();
    const { events } = watch;
    const summary = await cs.uploadDirectory(dir, { concurrency: 2, documentDate: '03-2024', wait: true, onProgress: watch.onProgress });

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

    // After the 429, no upload began before its Retry-After passed.
    const uploads = fetch.calls.filter((c) => c.url.pathname.endsWith('/upload-direct'));
    const carl = uploads.filter((c) => c.url.searchParams.get('fileName') === 'carl.DOCX').map((c) => c.at);
    expect(carl).toHaveLength(2);
    expect(carl[1] - carl[0]).toBeGreaterThanOrEqual(1_000);
    expect(watch.pausedAt).toBeLessThan(carl[1]);
    expect(watch.startedDuringPause(uploads, 'carl.DOCX', 1_000)).toEqual([]);
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

  it('takes a list of files and folders: each named file once, the CVs of each folder, a named file of another type skipped', async () => {
    const { cs, fetch } = client((req) => ({
      status: 201,
      body: { documentId: `id-${req.url.searchParams.get('fileName')}`, status: 'uploading', duplicate: false },
    }));
    const summary = await cs.uploadDirectory([
      path.join(dir, 'anna.pdf'),
      path.join(dir, 'sub'),
      path.join(dir, 'notes.md'),
      path.join(dir, 'anna.pdf'),
    ]);
    expect(summary.files.map((f) => `${path.relative(dir, f.path)} ${f.outcome}${f.reason ? ` (${f.reason})` : ''}`)).toEqual([
      'anna.pdf uploaded',
      'notes.md skipped (not a PDF, DOCX, DOC or text file)',
      'sub/carl.DOCX uploaded',
      'sub/dora.doc uploaded',
    ]);
    expect(fetch.calls).toHaveLength(3);
    expect(summary.totals).toMatchObject({ files: 4, uploaded: 3, skipped: 1 });
  });

  it('names and dates each file as documentFor says, over documentDate and the defaults', async () => {
    const { cs, fetch } = client(() => ({ status: 201, body: { documentId: 'x', status: 'uploading', duplicate: false } }));
    const seen: { path: string; bytes: number; mtimeMs: number }[] = [];
    await cs.uploadDirectory(path.join(dir, 'sub'), {
      documentDate: '01-2020',
      documentFor: (file) => {
        seen.push(file);
        return file.path.endsWith('.doc') ? { documentName: path.basename(file.path), documentDate: '07-2023' } : {};
      },
    });
    const sent = fetch.calls.map((c) =>
      Object.fromEntries(['fileName', 'documentName', 'documentDate'].map((k) => [k, c.url.searchParams.get(k)])),
    );
    expect(sent.sort((a, b) => a.fileName!.localeCompare(b.fileName!))).toEqual([
      { fileName: 'carl.DOCX', documentName: 'carl', documentDate: '01-2020' },
      { fileName: 'dora.doc', documentName: 'dora.doc', documentDate: '07-2023' },
    ]);
    const dora = await fs.stat(path.join(dir, 'sub', 'dora.doc'));
    expect(seen.find((f) => f.path.endsWith('dora.doc'))).toEqual({
      path: path.join(dir, 'sub', 'dora.doc'),
      bytes: 4,
      mtimeMs: Math.trunc(dora.mtimeMs),
    });
  });

  it.each([
    ['a refused key', () => ({ status: 401, body: { error: 'unauthorized', message: 'invalid API key' } }), AuthenticationError],
    ['an unreachable service', () => new TypeError('fetch failed'), ConnectionError],
  ])('stops at %s, rejecting with its error instead of failing file after file', async (_what, answer, Class) => {
    const { cs, fetch } = client(answer);
    const finished: UploadDirectoryEvent[] = [];
    const error = await cs
      .uploadDirectory(dir, {
        concurrency: 2,
        onProgress: (e) => e.type === 'file-finished' && e.file.outcome === 'failed' && finished.push(e),
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Class);
    // The two uploads started at once; none after the first answer.
    expect(fetch.calls.length).toBeLessThanOrEqual(2);
    expect(finished).toEqual([]);
  });

  it('pauses the other uploads from the first 429 the client sits out itself, and reports it', async () => {
    let limited = false;
    const { cs, fetch } = client((req) => {
      if (req.url.searchParams.get('fileName') === 'anna.pdf' && !limited) {
        limited = true;
        return { status: 429, body: { error: 'rate_limit_exceeded', message: 'x' }, headers: { 'retry-after': '1' } };
      }
      return { status: 201, body: { documentId: `id-${req.url.searchParams.get('fileName')}`, status: 'uploading', duplicate: false } };
    }, 2);
    const watch = pauseWatch();
    const summary = await cs.uploadDirectory(dir, { concurrency: 2, onProgress: watch.onProgress });
    expect(watch.events.filter((e) => e.type === 'rate-limited').map((e) => e.type === 'rate-limited' && e.retryAfter)).toEqual([1]);
    expect(summary.totals).toMatchObject({ uploaded: 4, failed: 0 });
    // Retried by the client after its Retry-After: one file, two requests, a second or more apart.
    const anna = fetch.calls.filter((c) => c.url.searchParams.get('fileName') === 'anna.pdf');
    expect(anna).toHaveLength(2);
    expect(anna[1].at - anna[0].at).toBeGreaterThanOrEqual(1_000);
    expect(watch.startedDuringPause(fetch.calls, 'anna.pdf', 1_000)).toEqual([]);
  });
});

describe('findCvFiles()', () => {
  it('finds the CVs of folders and named files, each once, sorted, and returns named files of other types apart', async () => {
    const { files, unsupported } = await findCvFiles([
      path.join(dir, 'sub'),
      path.join(dir, 'bob.txt'),
      path.join(dir, 'notes.md'),
      path.join(dir, 'sub', 'dora.doc'),
    ]);
    expect(files.map((f) => path.relative(dir, f.path))).toEqual(['bob.txt', 'sub/carl.DOCX', 'sub/dora.doc']);
    expect(files[0]).toEqual({ path: path.join(dir, 'bob.txt'), bytes: 10, mtimeMs: expect.any(Number) });
    expect(unsupported.map((f) => path.basename(f.path))).toEqual(['notes.md']);
  });

  it('rejects a path that does not exist before reading anything', async () => {
    await expect(findCvFiles([path.join(dir, 'missing.pdf')])).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
