import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Field, Schema, Utf8 } from 'apache-arrow';
import { LanceCompanyTables, lanceSession, type CompanyTablesOptions } from './company-tables';
import { eventually } from '@cs/test-services';
import { filesHolding } from './testing/files-holding';

const schema = new Schema([new Field('document_id', new Utf8(), false), new Field('text', new Utf8(), false)]);

describe('LanceCompanyTables', () => {
  let folder: string;
  let tables: LanceCompanyTables;
  const open = (options: Partial<CompanyTablesOptions> = {}) =>
    LanceCompanyTables.open(folder, { name: 'test store', schema, ensureIndexes: async () => undefined, eraseEveryMs: 0, ...options });
  /** Opens the tables again, counting the optimizes (each calls ensureIndexes). */
  const reopenCountingOptimizes = async (optimizeAfterRows: number) => {
    await tables.close();
    const counted = { optimizes: 0 };
    tables = await open({
      ensureIndexes: async () => {
        counted.optimizes++;
      },
      optimizeAfterRows,
    });
    return counted;
  };
  const texts = async (companyId: string) =>
    ((await tables.read(companyId, (t) => t.query().toArray())) ?? []).map((r) => `${r.document_id}:${r.text}`).sort();

  beforeEach(async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'lance-tables-'));
    tables = await open();
  });
  afterEach(async () => {
    await tables.close();
    await fs.rm(folder, { recursive: true, force: true });
  });

  it('replaces a document on put, reports removals, and keeps companies apart', async () => {
    await Promise.all([
      tables.put('c1', 'a', [{ document_id: 'a', text: 'first' }]),
      tables.put('c1', 'b', [{ document_id: 'b', text: 'bee' }]),
      tables.put('c2', 'a', [{ document_id: 'a', text: 'other company' }]),
    ]);
    await tables.put('c1', 'a', [{ document_id: 'a', text: 'second' }]);
    expect(await texts('c1')).toEqual(['a:second', 'b:bee']);
    expect(await texts('c2')).toEqual(['a:other company']);
    expect(await Promise.all([tables.remove('c1', 'b'), tables.remove('c1', 'b'), tables.remove('c1', 'nope')])).toEqual([1, 0, 0]);
    expect(await tables.count('c1')).toBe(1);
    expect(await tables.count('c3')).toBe(0);
    expect(await tables.read('c3', async () => 'read')).toBeNull();
  });

  it('reads through the session it is given, whose caches stay within their size', async () => {
    await tables.close();
    const session = lanceSession(1);
    expect(lanceSession(1)).toBe(session); // one a process, whichever tables ask for it
    tables = await open({ session, optimizeAfterRows: 1 });
    for (let n = 0; n < 20; n++) await tables.put('c1', `d${n}`, [{ document_id: `d${n}`, text: 'x'.repeat(10_000) }]);
    expect(await texts('c1')).toHaveLength(20);
    expect(session.sizeBytes()).toBeGreaterThan(0n); // the tables' reads went through it
    expect(session.sizeBytes()).toBeLessThanOrEqual(1024n * 1024n);
  });

  it('quotes ids in its filters: an id is never read as SQL', async () => {
    const id = "x' OR document_id <> '";
    await tables.put('c1', 'keep', [{ document_id: 'keep', text: 'kept' }]);
    await tables.put('c1', id, [{ document_id: id, text: 'odd' }]);
    expect(await tables.remove('c1', id)).toBe(1);
    expect(await texts('c1')).toEqual(['keep:kept']);
  });

  it('commits writes that arrive together in one batch', async () => {
    const before = (await tables.read('c1', (t) => t.version())) ?? 0;
    await tables.put('c1', 'seed', [{ document_id: 'seed', text: 'seed' }]);
    const seeded = (await tables.read('c1', (t) => t.version()))!;
    await Promise.all(Array.from({ length: 50 }, (_, i) => tables.put('c1', `d${i}`, [{ document_id: `d${i}`, text: `text ${i}` }])));
    const after = (await tables.read('c1', (t) => t.version()))!;
    expect(before).toBe(0);
    // The first put commits alone; the 49 queued behind it go together (a delete check, one add).
    expect(after - seeded).toBeLessThanOrEqual(3);
    expect(await tables.count('c1')).toBe(51);
  });

  it('optimizes between batches while writes never let up', async () => {
    const counted = await reopenCountingOptimizes(20);
    let written = 0;
    const writer = async () => {
      // Each writer puts again as soon as its last put is in: the queue is never empty for long.
      while (counted.optimizes === 0 && written < 500)
        await tables.put('c1', `d${written}`, [{ document_id: `d${written++}`, text: 'text' }]);
    };
    await Promise.all(Array.from({ length: 8 }, writer));
    expect(counted.optimizes).toBeGreaterThan(0);
    expect(written).toBeLessThan(500);
  });

  it('runs optimizes asked for together while writes keep coming, and commits every write', async () => {
    const counted = await reopenCountingOptimizes(5);
    await tables.put('c1', 'seed', [{ document_id: 'seed', text: 'seed' }]);
    let written = 0;
    const writer = async () => {
      while (written < 200) await tables.put('c1', `d${written}`, [{ document_id: `d${written++}`, text: 'text' }]);
    };
    // Searches' folds asked for while the threshold's optimizes are waiting behind the batches.
    const folds = async () => {
      while (written < 200) await Promise.all([tables.optimizeNow('c1'), tables.optimizeNow('c1')]);
    };
    await Promise.all([...Array.from({ length: 6 }, writer), folds()]);
    expect(await tables.count('c1')).toBe(201);
    expect(counted.optimizes).toBeGreaterThan(2);
  });

  it('rebuilds a table once when two compactions ask for it together', async () => {
    await tables.put('c1', 'keep', [{ document_id: 'keep', text: 'kept' }]);
    await tables.put('c1', 'gone', [{ document_id: 'gone', text: 'deleted' }]);
    await tables.remove('c1', 'gone');
    await Promise.all([tables.compact(), tables.compact('c1')]);
    expect(await texts('c1')).toEqual(['keep:kept']);
    await tables.close();
    tables = await open();
    expect(await texts('c1')).toEqual(['keep:kept']);
  });

  it('closes once every write asked for is in, and a second close waits for the same one', async () => {
    const writes = Array.from({ length: 30 }, (_, i) => tables.put('c1', `d${i}`, [{ document_id: `d${i}`, text: 'text' }]));
    const fold = tables.optimizeNow('c1');
    let firstClosed = false;
    const first = tables.close().then(() => (firstClosed = true));
    await tables.close();
    expect(firstClosed).toBe(true);
    await Promise.all([...writes, first, fold]);
    expect(() => tables.put('c1', 'late', [])).toThrow('test store is closed');
    tables = await open();
    expect(await tables.count('c1')).toBe(30);
  });

  it('keeps everything across a reopen', async () => {
    await tables.put('c1', 'a', [{ document_id: 'a', text: 'durable' }]);
    await tables.close();
    tables = await open();
    expect(await texts('c1')).toEqual(['a:durable']);
  });

  it('leaves no byte of a deleted document in the folder after compaction', async () => {
    await tables.put('c1', 'keep', [{ document_id: 'keep', text: 'ordinary words' }]);
    await tables.put('c1', 'gone', [{ document_id: 'gone', text: 'zanzibarquokka' }]);
    await tables.remove('c1', 'gone');
    expect((await filesHolding(folder, 'zanzibarquokka')).length).toBeGreaterThan(0);
    await tables.compact();
    expect(await filesHolding(folder, 'zanzibarquokka')).toEqual([]);
    expect(await texts('c1')).toEqual(['keep:ordinary words']);
    await tables.close();
    tables = await open();
    expect(await texts('c1')).toEqual(['keep:ordinary words']);
    await tables.put('c1', 'new', [{ document_id: 'new', text: 'after' }]);
    expect(await tables.count('c1')).toBe(2);
  });

  it('erases deleted documents by itself, the first time soon after opening', async () => {
    // Deleted before the open that is tested: deleted after it, it might come after its first pass.
    await tables.put('c1', 'keep', [{ document_id: 'keep', text: 'ordinary words' }]);
    await tables.put('c1', 'gone', [{ document_id: 'gone', text: 'zanzibarquokka' }]);
    await tables.remove('c1', 'gone');
    await tables.close();
    expect((await filesHolding(folder, 'zanzibarquokka')).length).toBeGreaterThan(0);
    tables = await open({ eraseEveryMs: 3_600_000, firstEraseAfterMs: 100 });
    // A loaded machine (CI runs this beside the end-to-end suites) may take seconds to compact.
    await eventually(async () => expect(await filesHolding(folder, 'zanzibarquokka')).toEqual([]), { timeoutMs: 30_000, intervalMs: 100 });
    expect(await texts('c1')).toEqual(['keep:ordinary words']);
  }, 45_000);

  it('keeps a read running across a compaction on the table it started on', async () => {
    await tables.put('c1', 'a', [{ document_id: 'a', text: 'one' }]);
    await tables.remove('c1', 'a');
    await tables.put('c1', 'b', [{ document_id: 'b', text: 'two' }]);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const reading = tables.read('c1', async (t) => {
      await held;
      return (await t.query().toArray()).map((r) => r.document_id as string);
    });
    await new Promise((resolve) => setImmediate(resolve));
    await tables.compact('c1');
    release();
    expect(await reading).toEqual(['b']);
    expect(await texts('c1')).toEqual(['b:two']);
  });
});
