import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LocalFile } from './collect-files';
import { runUploads, type Accepted, type Seen, type UploadEvent, type UploadPorts } from './upload-runner';
import { UploadState, type DocumentStatus } from './upload-state';

class RateLimited extends Error {}
class Refused extends Error {}

/** A fake API: uploads answer pending (or what `answers` says), and a document settles after `pollsToSettle` polls. */
function fakeApi(
  options: {
    answers?: Record<string, Partial<Accepted> | Error>;
    /** Files whose upload meets a 429 the SDK sits out (this many ms) before it succeeds. */
    heldBack?: Record<string, number>;
    settle?: Record<string, Seen | null>;
    pollsToSettle?: number;
    pollMs?: number;
  } = {},
) {
  const uploaded: string[] = [];
  /** When each upload got past its first request. */
  const starts: { name: string; at: number }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const polls = new Map<string, number>();
  const ports: UploadPorts = {
    async upload(file, _signal, onRateLimited) {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        await new Promise((r) => setTimeout(r, 2));
        const name = path.basename(file.path);
        const held = options.heldBack?.[name];
        if (held !== undefined) {
          onRateLimited(held);
          await new Promise((r) => setTimeout(r, held));
        }
        starts.push({ name, at: Date.now() });
        const answer = options.answers?.[name];
        if (answer instanceof Error) {
          // An error answers once; the retry succeeds.
          delete options.answers?.[name];
          throw answer;
        }
        uploaded.push(name);
        return { documentId: `doc-${name}`, status: 'pending', duplicate: false, message: null, ...answer };
      } finally {
        inFlight--;
      }
    },
    async statuses(ids) {
      if (options.pollMs) await new Promise((r) => setTimeout(r, options.pollMs));
      const seen = new Map<string, Seen>();
      for (const id of ids) {
        const n = (polls.get(id) ?? 0) + 1;
        polls.set(id, n);
        const name = id.replace(/^doc-/, '');
        const final = options.settle?.[name];
        if (final === null) {
          seen.set(id, { status: 'deleted', message: null });
          continue;
        }
        seen.set(
          id,
          n >= (options.pollsToSettle ?? 1) ? (final ?? { status: 'completed', message: null }) : { status: 'pending', message: null },
        );
      }
      return seen;
    },
    rateLimitWaitMs: (error) => (error instanceof RateLimited ? 30 : undefined),
    uploadFailure: (error) => (error instanceof Refused ? error.message : undefined),
  };
  return { ports, uploaded, starts, maxInFlight: () => maxInFlight };
}

describe('runUploads', () => {
  let dir: string;
  let files: LocalFile[];
  const key = { baseUrl: 'http://cs', apiKey: 'csk_k', roots: ['/cvs'] };
  const run = async (ports: UploadPorts, extra: Partial<Parameters<typeof runUploads>[0]> = {}) =>
    runUploads({
      files,
      state: await UploadState.open(dir, key),
      ports,
      concurrency: 3,
      signal: new AbortController().signal,
      wait: true,
      waitTimeoutMs: 5_000,
      pollDelayMs: () => 5,
      ...extra,
    });

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-cli-runner-'));
    files = Array.from({ length: 8 }, (_, i) => ({ path: `/cvs/cv${i}.pdf`, size: 100 + i, mtimeMs: 1_000 }));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('uploads every file with at most `concurrency` in flight, waits until each is searchable, and records each', async () => {
    const api = fakeApi({ pollsToSettle: 2 });
    const events: UploadEvent['type'][] = [];
    const { results, interrupted, timedOut } = await run(api.ports, { onEvent: (e) => events.push(e.type) });
    expect(api.uploaded.sort()).toEqual(files.map((f) => path.basename(f.path)).sort());
    expect(api.maxInFlight()).toBe(3);
    expect(results.map((r) => r.outcome)).toEqual(Array(8).fill('completed'));
    expect({ interrupted, timedOut }).toEqual({ interrupted: false, timedOut: false });
    expect(events.filter((t) => t === 'uploaded')).toHaveLength(8);
    expect(events.filter((t) => t === 'settled')).toHaveLength(8);
    const state = await UploadState.open(dir, key);
    expect(files.map((f) => state.lookup(f)?.status)).toEqual(Array(8).fill('completed'));
  });

  it('reports invalid and failed documents with the API message, and keeps a duplicate a duplicate', async () => {
    const api = fakeApi({
      answers: { 'cv1.pdf': { duplicate: true, documentId: 'doc-cv0.pdf', status: 'completed' } },
      settle: {
        'cv2.pdf': { status: 'invalid', message: 'No text found: the file looks like a scan' },
        'cv3.pdf': { status: 'failed', message: 'The file is encrypted' },
      },
    });
    const { results } = await run(api.ports);
    expect(results.slice(0, 4).map((r) => [r.outcome, r.message])).toEqual([
      ['completed', null],
      ['duplicate', null],
      ['invalid', 'No text found: the file looks like a scan'],
      ['failed', 'The file is encrypted'],
    ]);
  });

  it('skips the files an earlier run finished, unless they changed, and still waits for those it left processing', async () => {
    const state = await UploadState.open(dir, key);
    const done = { status: 'completed' as DocumentStatus, duplicate: false, message: null };
    await state.record(files[0], { documentId: 'doc-cv0.pdf', ...done });
    await state.record(files[1], { documentId: 'doc-cv1.pdf', ...done, status: 'pending' });
    await state.record(files[2], { documentId: 'doc-cv2.pdf', ...done });
    files[2] = { ...files[2], mtimeMs: 2_000 }; // edited since: uploaded again
    const api = fakeApi();
    const { results } = await run(api.ports);
    expect(api.uploaded).not.toContain('cv0.pdf');
    expect(api.uploaded).not.toContain('cv1.pdf');
    expect(api.uploaded).toContain('cv2.pdf');
    expect(results.slice(0, 3).map((r) => [r.outcome, r.fromEarlierRun])).toEqual([
      ['completed', true],
      ['completed', true],
      ['completed', false],
    ]);
  });

  it('starts no upload once interrupted, keeps what finished in the state file, and says it was interrupted', async () => {
    const api = fakeApi();
    const controller = new AbortController();
    const { results, interrupted } = await run(api.ports, {
      signal: controller.signal,
      concurrency: 1,
      onEvent: (e) => {
        if (e.type === 'uploaded' && e.result.file.endsWith('cv2.pdf')) controller.abort();
      },
    });
    expect(interrupted).toBe(true);
    expect(api.uploaded).toEqual(['cv0.pdf', 'cv1.pdf', 'cv2.pdf']);
    expect(results.map((r) => r.file)).toEqual(['/cvs/cv0.pdf', '/cvs/cv1.pdf', '/cvs/cv2.pdf']);
    const state = await UploadState.open(dir, key);
    expect(files.map((f) => state.lookup(f)?.documentId ?? null)).toEqual([
      'doc-cv0.pdf',
      'doc-cv1.pdf',
      'doc-cv2.pdf',
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('pauses every upload on a rate limit and uploads the file afterwards instead of failing it', async () => {
    const api = fakeApi({ answers: { 'cv3.pdf': new RateLimited() } });
    const waits: number[] = [];
    const { results } = await run(api.ports, { onEvent: (e) => e.type === 'rate-limited' && waits.push(e.untilMs) });
    expect(waits).toHaveLength(1);
    expect(api.uploaded).toContain('cv3.pdf');
    expect(results.every((r) => r.outcome === 'completed')).toBe(true);
  });

  it('pauses the other uploads as soon as one meets a 429 the SDK sits out, and says until when', async () => {
    const api = fakeApi({ heldBack: { 'cv0.pdf': 300 } });
    const waits: number[] = [];
    const started = Date.now();
    const { results } = await run(api.ports, { concurrency: 2, onEvent: (e) => e.type === 'rate-limited' && waits.push(e.untilMs) });
    expect(waits).toHaveLength(1);
    expect(waits[0] - started).toBeGreaterThanOrEqual(300);
    // cv1 was already under way; every later file waited out the pause.
    for (const { name, at } of api.starts.filter((s) => !['cv0.pdf', 'cv1.pdf'].includes(s.name))) {
      expect({ name, early: at < waits[0] }).toEqual({ name, early: false });
    }
    expect(results.every((r) => r.outcome === 'completed')).toBe(true);
  });

  it('reports a refused file as not uploaded, with the reason, and goes on with the others', async () => {
    const api = fakeApi({ answers: { 'cv4.pdf': new Refused('unsupported_media_type: the bytes are not a PDF') } });
    const { results } = await run(api.ports);
    expect(results[4]).toMatchObject({
      outcome: 'not-uploaded',
      documentId: null,
      message: 'unsupported_media_type: the bytes are not a PDF',
    });
    expect(results.filter((r) => r.outcome === 'completed')).toHaveLength(7);
  });

  it('rethrows an error it cannot explain (a bug) rather than reporting it as a file', async () => {
    const api = fakeApi({ answers: { 'cv0.pdf': new TypeError('x is undefined') } });
    await expect(run(api.ports)).rejects.toThrow('x is undefined');
    // The other uploads stopped with it: nothing goes on once it is reported.
    const uploaded = api.uploaded.length;
    expect(uploaded).toBeLessThan(files.length);
    await new Promise((r) => setTimeout(r, 50));
    expect(api.uploaded).toHaveLength(uploaded);
  });

  it('gives up waiting when nothing settled for the timeout, leaving the rest processing', async () => {
    const api = fakeApi({ pollsToSettle: Infinity });
    const { results, timedOut } = await run(api.ports, { waitTimeoutMs: 50 });
    expect(timedOut).toBe(true);
    expect(results.every((r) => r.outcome === 'processing')).toBe(true);
  });

  it('reports a document deleted before it was searchable as failed', async () => {
    const api = fakeApi({ settle: { 'cv5.pdf': null } });
    const { results } = await run(api.ports);
    expect(results[5]).toMatchObject({ outcome: 'failed', message: 'the document was deleted before it was searchable' });
  });

  it('does not take a document whose upload was answered during a poll for deleted', async () => {
    files = Array.from({ length: 20 }, (_, i) => ({ path: `/cvs/cv${i}.pdf`, size: 100, mtimeMs: 1_000 }));
    const api = fakeApi({ pollMs: 15 });
    const { results } = await run(api.ports, { concurrency: 1 });
    expect(results.map((r) => r.outcome)).toEqual(Array(20).fill('completed'));
  });

  it('does not wait with wait off: documents stay processing', async () => {
    const api = fakeApi();
    const { results } = await run(api.ports, { wait: false });
    expect(results.every((r) => r.outcome === 'processing')).toBe(true);
  });
});
