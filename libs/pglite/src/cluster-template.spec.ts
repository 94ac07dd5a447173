import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { clusterTemplate } from './cluster-template';
import { START_PARAMS, openPglite } from './pglite.client';

jest.setTimeout(120_000);

/** A folder of each test's own: a cache, or new databases' data folders. */
let tmp: string;
beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'pglite-template-'));
});
afterEach(() => fs.rm(tmp, { recursive: true, force: true }));

describe('the cached new cluster', () => {
  it('is one for two callers that make it at once, and is left whole, with no half-made copy beside it', async () => {
    const [first, second] = await Promise.all([clusterTemplate(START_PARAMS, tmp), clusterTemplate(START_PARAMS, tmp)]);
    expect(first).toEqual(second);
    expect(await fs.readdir(tmp)).toEqual([path.basename(path.dirname(first!.folder))]);
    expect(await fs.readFile(path.join(first!.folder, 'PG_VERSION'), 'utf8')).toMatch(/^\d+\n$/);
    // gzip's magic number: PGlite's loadDataDir unpacks it.
    expect((await fs.readFile(first!.tarball)).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it('is not there where no cache can be written: each new folder then runs initdb itself', async () => {
    const file = path.join(tmp, 'a-file');
    await fs.writeFile(file, '');
    expect(await clusterTemplate(START_PARAMS, path.join(file, 'below'))).toBeNull();
  });
});

describe('a new database', () => {
  it("made from the cache is a database of its own: another's rows are not in it, and its own outlive a reopen", async () => {
    const one = await openPglite(path.join(tmp, 'one'));
    const two = await openPglite(path.join(tmp, 'two'));
    const memory = await openPglite(null);
    await one.exec(`CREATE TABLE t (v text); INSERT INTO t VALUES ('one')`);
    for (const other of [two, memory])
      expect(await other.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 't'`)).toEqual([{ n: 0 }]);
    await Promise.all([one.close(), two.close(), memory.close()]);
    const reopened = await openPglite(path.join(tmp, 'one'));
    expect(await reopened.query('SELECT v FROM t')).toEqual([{ v: 'one' }]);
    await reopened.close();
  });
});
