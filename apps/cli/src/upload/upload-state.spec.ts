import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { UploadState } from './upload-state';

describe('UploadState', () => {
  let dir: string;
  const key = { baseUrl: 'http://cs:8080', apiKey: 'csk_one', roots: ['/cvs/b', '/cvs/a'] };
  const file = { path: '/cvs/a/anna.pdf', size: 1234, mtimeMs: 1_700_000_000_000 };
  const done = { documentId: 'doc-1', status: 'completed' as const, duplicate: false, message: null };

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-cli-state-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('remembers a finished file across runs for the same paths, service and key, in a 0600 file', async () => {
    const first = await UploadState.open(dir, key);
    await first.record(file, done);
    expect((await fs.stat(first.file)).mode & 0o777).toBe(0o600);
    // The same set of paths in another order is the same run.
    const second = await UploadState.open(dir, { ...key, roots: ['/cvs/a', '/cvs/b', '/cvs/a'] });
    expect(second.file).toBe(first.file);
    expect(second.lookup(file)).toEqual({ ...done, size: 1234, mtimeMs: 1_700_000_000_000 });
  });

  it('forgets a file whose size or modification time changed', async () => {
    const state = await UploadState.open(dir, key);
    await state.record(file, done);
    const reopened = await UploadState.open(dir, key);
    expect(reopened.lookup({ ...file, size: 1235 })).toBeUndefined();
    expect(reopened.lookup({ ...file, mtimeMs: file.mtimeMs + 1 })).toBeUndefined();
  });

  it('keeps separate state for another path set, another service and another key, and never stores the key', async () => {
    const state = await UploadState.open(dir, key);
    await state.record(file, done);
    for (const other of [
      { ...key, roots: ['/cvs/a'] },
      { ...key, baseUrl: 'http://elsewhere' },
      { ...key, apiKey: 'csk_two' },
    ]) {
      const s = await UploadState.open(dir, other);
      expect(s.file).not.toBe(state.file);
      expect(s.lookup(file)).toBeUndefined();
    }
    expect(await fs.readFile(state.file, 'utf8')).not.toContain('csk_one');
  });

  it('starts empty with fresh, and when the file is damaged', async () => {
    const state = await UploadState.open(dir, key);
    await state.record(file, done);
    expect((await UploadState.open(dir, key, { fresh: true })).lookup(file)).toBeUndefined();
    await fs.writeFile(state.file, '{"version":1,"files":{"/cvs/a/an');
    expect((await UploadState.open(dir, key)).lookup(file)).toBeUndefined();
  });

  it('folds records made while a save runs into one later save, and loses none', async () => {
    const state = await UploadState.open(dir, key);
    const files = Array.from({ length: 50 }, (_, i) => ({ ...file, path: `/cvs/a/${i}.pdf` }));
    const writes = jest.spyOn(fs, 'rename');
    await Promise.all(files.map((f, i) => state.record(f, { ...done, documentId: `doc-${i}` })));
    expect(writes.mock.calls.length).toBeLessThanOrEqual(3);
    writes.mockRestore();
    const reopened = await UploadState.open(dir, key);
    expect(files.map((f) => reopened.lookup(f)?.documentId)).toEqual(files.map((_, i) => `doc-${i}`));
  });
});
