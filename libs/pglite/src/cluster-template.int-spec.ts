import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SqlClient } from '@cs/ports';
import { clusterTemplate, templateHome } from './cluster-template';
import { START_PARAMS, openPglite } from './pglite.client';

jest.setTimeout(120_000);

const mode = async (file: string) => (await fs.stat(file)).mode & 0o777;
/** initdb draws it at random: databases that share it were copied from one cluster. */
const systemId = async (sql: SqlClient) =>
  (await sql.query<{ id: string }>('SELECT system_identifier::text AS id FROM pg_control_system()'))[0].id;

/** A folder of each test's own: a cache, or new databases' data folders. */
let tmp: string;
beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'pglite-template-'));
});
afterEach(() => fs.rm(tmp, { recursive: true, force: true }));

describe('the cached new cluster', () => {
  it('is one for two callers that make it at once, over one missing a file, and is left whole and the owner’s alone', async () => {
    // What is there before: a cache whose tarball was removed, what a maker that died left, an
    // earlier PGlite's cache, and this version's caches of other parameters: one made long ago,
    // one being made this minute.
    const home = templateHome(START_PARAMS, tmp);
    await fs.mkdir(path.join(home, 'cluster'), { recursive: true });
    await fs.writeFile(path.join(home, 'cluster/PG_VERSION'), '17\n');
    const abandoned = `${home}.0b1c2d3e-dead-4000-8000-000000000000`;
    const earlierVersion = path.join(tmp, '0.3.9-0123456789ab');
    const otherParams = templateHome(['-c', 'other=1'], tmp);
    for (const folder of [abandoned, path.join(earlierVersion, 'cluster'), path.join(otherParams, 'cluster')])
      await fs.mkdir(folder, { recursive: true });
    const longAgo = new Date(Date.now() - 3_600_000);
    for (const old of [abandoned, earlierVersion, otherParams]) await fs.utimes(old, longAgo, longAgo);
    const recent = `${templateHome(['-c', 'other=2'], tmp)}.0b1c2d3e-live-4000-8000-000000000000`;
    await fs.mkdir(recent);
    const [first, second] = await Promise.all([clusterTemplate(START_PARAMS, tmp), clusterTemplate(START_PARAMS, tmp)]);
    const template = first!;
    expect(second).toEqual(template);
    expect(template.folder).toBe(path.join(home, 'cluster'));
    expect((await fs.readdir(tmp)).sort()).toEqual([home, otherParams, recent].map((p) => path.basename(p)).sort());
    expect(await fs.readdir(template.folder)).toEqual(expect.arrayContaining(['PG_VERSION', 'base', 'global', 'pg_wal']));
    // gzip's magic number: PGlite's loadDataDir unpacks it.
    expect((await fs.readFile(template.tarball)).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect([await mode(template.folder), await mode(path.join(template.folder, 'global/pg_control'))]).toEqual([0o700, 0o600]);
  });

  it('is not there where no cache can be written: each new folder then runs initdb itself', async () => {
    const file = path.join(tmp, 'a-file');
    await fs.writeFile(file, '');
    expect(await clusterTemplate(START_PARAMS, path.join(file, 'below'))).toBeNull();
  });
});

describe('a new database', () => {
  it("is copied from the cache, yet is a database of its own: another's rows are not in it, and its own outlive a reopen", async () => {
    const one = await openPglite(path.join(tmp, 'one'));
    const two = await openPglite(path.join(tmp, 'two'));
    const memory = await openPglite(null);
    expect(new Set([await systemId(one), await systemId(two), await systemId(memory)]).size).toBe(1);
    await one.exec(`CREATE TABLE t (v text); INSERT INTO t VALUES ('one')`);
    for (const other of [two, memory])
      expect(await other.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 't'`)).toEqual([{ n: 0 }]);
    await Promise.all([one.close(), two.close(), memory.close()]);
    expect([await mode(path.join(tmp, 'one')), await mode(path.join(tmp, 'one/PG_VERSION'))]).toEqual([0o700, 0o600]);
    const reopened = await openPglite(path.join(tmp, 'one'));
    expect(await reopened.query('SELECT v FROM t')).toEqual([{ v: 'one' }]);
    await reopened.close();
  });

  it('is copied again over a copy that was cut short', async () => {
    const dir = path.join(tmp, 'cut-short');
    await fs.mkdir(path.join(dir, 'base'), { recursive: true });
    await fs.writeFile(path.join(dir, 'base/half-written'), 'x');
    const sql = await openPglite(dir);
    expect(await sql.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await sql.close();
  });
});
